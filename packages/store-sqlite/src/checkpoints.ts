/**
 * The checkpoint log on SQLite: one append table keyed by run id and sequence number, and one
 * row per run holding its status and the lease of the worker that runs it. Several processes may
 * share the file (WAL mode); every write is one immediate transaction, fenced by the lease token.
 */
import {
  type CheckpointEnd,
  type CheckpointEntry,
  type CheckpointLog,
  type CheckpointStart,
  type CheckpointStep,
  ContinuationError,
  type Encryption,
  type LeaseOptions,
  type RunLease,
  type RunRecord,
} from '@agent-continuations/core';
import { decodeLogEntry, encodeLogEntry, leaseLost, runRefused } from '@agent-continuations/core/store-kit';
import Database from 'better-sqlite3';
import { withDiskFaults } from './disk-errors';
import type { SqliteStore } from './sqlite-store';

/** Options of {@link createSqliteCheckpointLog}. */
export interface SqliteCheckpointLogOptions {
  /** A file name (created when missing) or an open better-sqlite3 database. */
  database: string | Database.Database;
  /** Prefix of the two tables; `checkpoint` by default (`checkpoint_runs`, `checkpoint_entries`). */
  tablePrefix?: string;
  /**
   * Encrypt entries at rest, as the stores encrypt bodies (see `createEncryption` in the core):
   * the log holds the whole transcript. Give the keys of the store's encryption, and rotate them
   * the same way: old entries stay readable by their key id.
   */
  encryption?: Encryption;
}

/** A {@link CheckpointLog} on SQLite, with the size of a run's log for monitoring. */
export interface SqliteCheckpointLog extends CheckpointLog {
  unsaved: NonNullable<CheckpointLog['unsaved']>;
  markSaved: NonNullable<CheckpointLog['markSaved']>;
  appendWith: NonNullable<CheckpointLog['appendWith']>;
  /** How many entries and bytes a run's log holds. */
  size(runId: string): Promise<{ entries: number; bytes: number }>;
  close(): Promise<void>;
}

interface RunRow {
  run_id: string;
  agent_name: string;
  status: RunRecord['status'];
  suspension_id: string | null;
  owner: string | null;
  token: string | null;
  lease_until: number | null;
  lease_ms: number;
  next_seq: number;
  attempts: number;
  error: string | null;
  saved_id: string | null;
}

/**
 * Open (and create if needed) a checkpoint log in a SQLite file.
 *
 * @example
 * ```ts
 * const log = createSqliteCheckpointLog({ database: 'agents.db' });
 * const result = await runDurably(agent, log, 'Pay the March invoices', { owner: 'worker-1' });
 * // in another process, after a crash:
 * await recover(log, { [agent.name]: agent }, { store });
 * ```
 */
export function createSqliteCheckpointLog(options: SqliteCheckpointLogOptions): SqliteCheckpointLog {
  const owned = typeof options.database === 'string';
  const db = typeof options.database === 'string' ? new Database(options.database) : options.database;
  const prefix = options.tablePrefix ?? 'checkpoint';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    throw new ContinuationError('INVALID_OPERATION', `The table prefix "${prefix}" is not a plain SQL name.`);
  }
  const runs = `${prefix}_runs`;
  const entries = `${prefix}_entries`;
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${runs} (
      run_id TEXT PRIMARY KEY,
      agent_name TEXT NOT NULL,
      status TEXT NOT NULL,
      suspension_id TEXT,
      owner TEXT,
      token TEXT,
      lease_until INTEGER,
      lease_ms INTEGER NOT NULL,
      next_seq INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      saved_id TEXT
    );
    CREATE INDEX IF NOT EXISTS ${runs}_lease ON ${runs} (status, lease_until);
    CREATE TABLE IF NOT EXISTS ${entries} (
      run_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      type TEXT NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (run_id, seq)
    ) WITHOUT ROWID;
  `);

  // Logs made before recovery attempts were counted gain the columns.
  const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${runs}')`).all();
  if (!columns.some((column) => column.name === 'attempts')) {
    db.exec(`ALTER TABLE ${runs} ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ${runs} ADD COLUMN error TEXT;`);
  }
  if (!columns.some((column) => column.name === 'saved_id'))
    db.exec(`ALTER TABLE ${runs} ADD COLUMN saved_id TEXT;`);
  const { encryption } = options;

  const selectRun = db.prepare<[string], RunRow>(`SELECT * FROM ${runs} WHERE run_id = ?`);
  const insertRun = db.prepare(
    `INSERT INTO ${runs} (run_id, agent_name, status, owner, token, lease_until, lease_ms, next_seq, saved_id)
     VALUES (@runId, @agentName, 'running', @owner, @token, @leaseUntil, @leaseMs, 1, CASE WHEN @owed THEN NULL ELSE '' END)`,
  );
  const restartRun = db.prepare(
    `UPDATE ${runs} SET status = 'running', owner = @owner, token = @token, lease_until = @leaseUntil, lease_ms = @leaseMs,
       attempts = 0, error = NULL, saved_id = CASE WHEN @owed THEN NULL ELSE saved_id END
     WHERE run_id = @runId`,
  );
  const insertEntry = db.prepare(`INSERT INTO ${entries} (run_id, seq, type, body) VALUES (?, ?, ?, ?)`);
  const advance = db.prepare(
    `UPDATE ${runs} SET next_seq = next_seq + 1, lease_until = @leaseUntil, status = @status,
       suspension_id = COALESCE(@suspensionId, suspension_id), token = @token
     WHERE run_id = @runId`,
  );
  const renew = db.prepare(
    `UPDATE ${runs} SET lease_until = ? + lease_ms WHERE run_id = ? AND token = ? AND status = 'running'`,
  );
  const takeOver = db.prepare(
    `UPDATE ${runs} SET owner = @owner, token = @token, lease_until = @leaseUntil, lease_ms = @leaseMs,
       attempts = attempts + 1
     WHERE run_id = @runId AND status = 'running' AND lease_until < @now`,
  );
  const fail = db.prepare(
    // `saved_id` cleared: the failed state is unsaved (listed by `unsaved`) until `markSaved`.
    `UPDATE ${runs} SET status = 'failed', error = ?, token = NULL, lease_until = NULL, saved_id = NULL
     WHERE run_id = ? AND token = ? AND status = 'running'`,
  );
  const readEntries = db.prepare<[string], { body: string }>(
    `SELECT body FROM ${entries} WHERE run_id = ? ORDER BY seq`,
  );
  const expired = db.prepare<[number, number], { run_id: string }>(
    `SELECT run_id FROM ${runs} WHERE status = 'running' AND lease_until < ? ORDER BY lease_until LIMIT ?`,
  );
  // `saved_id` NULL on an ended run: its last segment began under a store claim not yet settled.
  const unsaved = db.prepare<[number], { run_id: string }>(
    `SELECT run_id FROM ${runs}
     WHERE (status = 'suspended' AND suspension_id IS NOT NULL AND saved_id IS NOT suspension_id)
       OR (status IN ('failed', 'completed', 'rejected') AND saved_id IS NULL) LIMIT ?`,
  );
  // A failed or ended run's store part is done whatever the suspension id given.
  const markSaved = db.prepare(
    `UPDATE ${runs} SET saved_id = ? WHERE run_id = ?
       AND (suspension_id = ? OR status IN ('failed', 'completed', 'rejected'))`,
  );
  const size = db.prepare<[string], { entries: number; bytes: number | null }>(
    `SELECT COUNT(*) AS entries, SUM(LENGTH(CAST(body AS BLOB))) AS bytes FROM ${entries} WHERE run_id = ?`,
  );

  const begin = db.transaction(
    (start: CheckpointStart, body: string, lease: LeaseOptions, token: string, now: number) => {
      const row = selectRun.get(start.runId);
      if (row && start.input) throw runRefused(start.runId, 'a run with this id was already started');
      if (row?.status === 'running') throw runRefused(start.runId, 'it is running, or awaits recovery');
      const params = {
        runId: start.runId,
        agentName: start.agentName,
        owner: lease.owner,
        token,
        leaseUntil: now + lease.leaseMs,
        leaseMs: lease.leaseMs,
        // A segment under a store claim owes the store that record's settlement (see `unsaved`).
        owed: start.claim === undefined ? 0 : 1,
      };
      if (row) restartRun.run(params);
      else insertRun.run(params);
      const seq = row?.next_seq ?? 1;
      insertEntry.run(start.runId, seq, start.type, body);
      advance.run({
        runId: start.runId,
        leaseUntil: now + lease.leaseMs,
        status: 'running',
        suspensionId: null,
        token,
      });
    },
  );

  const append = db.transaction(
    (
      lease: RunLease,
      entry: CheckpointStep | CheckpointEnd,
      body: string,
      now: number,
      also?: () => void,
    ) => {
      const row = selectRun.get(lease.runId);
      if (!row || row.token !== lease.token || row.status !== 'running') throw leaseLost(lease);
      insertEntry.run(lease.runId, row.next_seq, entry.type, body);
      const ends = entry.type !== 'step';
      const status = entry.type === 'end' ? entry.status : entry.type === 'suspend' ? 'suspended' : 'running';
      advance.run({
        runId: lease.runId,
        leaseUntil: ends ? null : now + row.lease_ms,
        status,
        suspensionId: entry.type === 'suspend' ? (entry.suspension?.id ?? null) : null,
        token: ends ? null : lease.token,
      });
      if (also) {
        // The store's write, in this transaction: the suspension is saved with it, or the run's end settled.
        also();
        const id = entry.type === 'suspend' ? entry.suspension?.id : lease.runId;
        if (id) markSaved.run(id, lease.runId, id);
      }
    },
  );

  return withDiskFaults(
    {
      async begin(start, lease) {
        const token = crypto.randomUUID();
        const now = Date.now();
        const body = await encodeLogEntry(start, start.runId, encryption);
        begin.immediate(start, body, lease, token, now);
        return {
          runId: start.runId,
          owner: lease.owner,
          token,
          leaseUntil: new Date(now + lease.leaseMs).toISOString(),
        };
      },
      async append(lease, entry) {
        const body = await encodeLogEntry(entry, lease.runId, encryption);
        append.immediate(lease, entry, body, Date.now());
      },
      async renew(lease) {
        if (renew.run(Date.now(), lease.runId, lease.token).changes === 0) throw leaseLost(lease);
      },
      async fail(lease, error) {
        if (fail.run(error, lease.runId, lease.token).changes === 0) throw leaseLost(lease);
      },
      async read(runId) {
        return Promise.all(
          readEntries.all(runId).map((row) => decodeLogEntry<CheckpointEntry>(row.body, runId, encryption)),
        );
      },
      async status(runId) {
        const row = selectRun.get(runId);
        return row ? toRecord(row) : undefined;
      },
      async expired(filter = {}) {
        return expired.all(Date.now(), filter.limit ?? 100).map((row) => row.run_id);
      },
      async takeOver(runId, lease) {
        const token = crypto.randomUUID();
        const now = Date.now();
        const params = {
          runId,
          owner: lease.owner,
          token,
          leaseUntil: now + lease.leaseMs,
          leaseMs: lease.leaseMs,
          now,
        };
        if (takeOver.run(params).changes === 0)
          throw runRefused(runId, 'it is not a running run with an expired lease');
        return { runId, owner: lease.owner, token, leaseUntil: new Date(now + lease.leaseMs).toISOString() };
      },
      async appendWith(lease, entry, write) {
        const store = write.store as Partial<SqliteStore>;
        // Only a SQLite store on this very connection can write in the log's transaction.
        if (store.database !== db || typeof store.prepareWrite !== 'function') return false;
        const apply = await store.prepareWrite(write);
        const body = await encodeLogEntry(entry, lease.runId, encryption);
        append.immediate(lease, entry, body, Date.now(), apply);
        return true;
      },
      async unsaved(filter = {}) {
        return unsaved.all(filter.limit ?? 100).map((row) => row.run_id);
      },
      async markSaved(runId, suspensionId) {
        markSaved.run(suspensionId, runId, suspensionId);
      },
      async size(runId) {
        const row = size.get(runId)!;
        return { entries: row.entries, bytes: row.bytes ?? 0 };
      },
      async close() {
        if (owned) db.close();
      },
    },
    'SQLite checkpoint log',
  );
}

function toRecord(row: RunRow): RunRecord {
  const record: RunRecord = { runId: row.run_id, agentName: row.agent_name, status: row.status };
  if (row.suspension_id) record.suspensionId = row.suspension_id;
  if (row.owner) record.owner = row.owner;
  if (row.lease_until !== null && row.status === 'running')
    record.leaseUntil = new Date(row.lease_until).toISOString();
  if (row.attempts > 0) record.attempts = row.attempts;
  if (row.error !== null && row.status === 'failed') record.error = row.error;
  return record;
}
