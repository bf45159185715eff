/**
 * The example's "payroll database": salary changes in a SQLite table whose primary key is the
 * tool call's idempotency key, so a change is applied once even if the tool runs again after a
 * crash.
 */
import type Database from 'better-sqlite3';

export interface SalaryChange {
  employeeId: string;
  salary: number;
}

export interface Ledger {
  /** Apply a change once per key; a repeat with the same key returns the first record. */
  record(key: string, change: SalaryChange): SalaryChange & { applied: number };
  /** How many changes were applied. */
  applied(): number;
}

/** A ledger in `database` (the same file as the continuation store). */
export function sqliteLedger(database: Database.Database): Ledger {
  database.exec(`CREATE TABLE IF NOT EXISTS salary_changes (
    idempotency_key TEXT PRIMARY KEY,
    employee_id TEXT NOT NULL,
    salary INTEGER NOT NULL,
    applied INTEGER NOT NULL
  )`);
  const insert = database.prepare(
    `INSERT INTO salary_changes (idempotency_key, employee_id, salary, applied)
     VALUES (?, ?, ?, (SELECT COUNT(*) + 1 FROM salary_changes))
     ON CONFLICT (idempotency_key) DO NOTHING`,
  );
  const select = database.prepare<[string], { employeeId: string; salary: number; applied: number }>(
    'SELECT employee_id AS employeeId, salary, applied FROM salary_changes WHERE idempotency_key = ?',
  );
  const count = database.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM salary_changes');
  return {
    record(key, change) {
      insert.run(key, change.employeeId, change.salary);
      return select.get(key)!;
    },
    applied: () => count.get()!.n,
  };
}
