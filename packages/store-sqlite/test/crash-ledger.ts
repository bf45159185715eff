/**
 * The crash kit's ledger on SQLite, in the same file as the checkpoint log: one ordered event
 * table, and a payments table whose unique key makes `charge` exactly-once.
 */
import type { CrashLedger, CrashLedgerReport } from '@agent-continuations/testing';
import Database from 'better-sqlite3';

export function sqliteCrashLedger(file: string, owner: string): CrashLedger & { close(): void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS ledger_events (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT, tool TEXT, key TEXT, owner TEXT, point TEXT);
    CREATE TABLE IF NOT EXISTS payments (idempotency_key TEXT PRIMARY KEY);
  `);
  const event = db.prepare(
    'INSERT INTO ledger_events (kind, tool, key, owner, point) VALUES (?, ?, ?, ?, ?)',
  );
  const pay = db.prepare('INSERT INTO payments (idempotency_key) VALUES (?) ON CONFLICT DO NOTHING');
  const rows = (kind: string) =>
    db.prepare('SELECT * FROM ledger_events WHERE kind = ? ORDER BY id').all(kind) as never[];
  return {
    async attempt(tool, key) {
      event.run('attempt', tool, key, owner, null);
    },
    async pay(key) {
      return pay.run(key).changes === 1;
    },
    async notify(key) {
      event.run('notify', 'notify', key, owner, null);
    },
    async recorded(key) {
      event.run('recorded', null, key, owner, null);
    },
    async killed(point, key) {
      event.run('kill', null, key, owner, point);
    },
    async report(): Promise<CrashLedgerReport> {
      return {
        attempts: rows('attempt'),
        recorded: rows('recorded'),
        notifications: rows('notify'),
        kills: rows('kill'),
        payments: db.prepare('SELECT idempotency_key AS key FROM payments').all() as never[],
      };
    },
    close: () => db.close(),
  };
}
