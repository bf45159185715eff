/**
 * The ops team's operations log: every tool execution, in a SQLite table of the same file as the
 * continuation store, keyed by the tool call's idempotency key. A call that runs again (after a
 * crash, say) finds its row and counts a repeat instead of adding a new operation, so the demo can
 * show that each call ran exactly once, and in which process.
 */
import type Database from 'better-sqlite3';

/** One tool call's operation, as the log records it. */
export interface Operation {
  /** The tool call's idempotency key (run id + tool-call id). */
  key: string;
  tool: string;
  /** The process that ran the call first. */
  pid: number;
  /** How many times the call ran; 1 unless it was repeated. */
  runs: number;
}

export interface Ledger {
  /** Log one execution of `tool` for the call `key`; returns the call's operation. */
  record(tool: string, key: string): Operation;
  /** Every operation, in the order the calls first ran. */
  operations(): Operation[];
}

/** A ledger in `database` (the same file as the continuation store). */
export function sqliteLedger(database: Database.Database): Ledger {
  database.exec(`CREATE TABLE IF NOT EXISTS operations (
    idempotency_key TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    pid INTEGER NOT NULL,
    runs INTEGER NOT NULL
  )`);
  const upsert = database.prepare(
    `INSERT INTO operations (idempotency_key, tool, pid, runs) VALUES (?, ?, ?, 1)
     ON CONFLICT (idempotency_key) DO UPDATE SET runs = runs + 1`,
  );
  const columns = 'idempotency_key AS key, tool, pid, runs';
  const one = database.prepare<[string], Operation>(
    `SELECT ${columns} FROM operations WHERE idempotency_key = ?`,
  );
  const all = database.prepare<[], Operation>(`SELECT ${columns} FROM operations ORDER BY rowid`);
  return {
    record(tool, key) {
      upsert.run(key, tool, process.pid);
      return one.get(key)!;
    },
    operations: () => all.all(),
  };
}
