/**
 * The example's payroll table: salary changes in SQLite, keyed by the tool call's idempotency key,
 * so a change is applied once even if the tool were run again.
 */
import type Database from 'better-sqlite3';

/** One salary change. */
export interface SalaryChange {
  employeeId: string;
  salary: number;
}

/** Where `update_salary` writes. */
export interface Ledger {
  /** Apply `change` once per `key`; a repeat returns the change already applied. */
  record(key: string, change: SalaryChange): SalaryChange;
  /** Every change applied, oldest first. */
  changes(): SalaryChange[];
}

/**
 * A ledger in `database` (the continuation store's own SQLite file); `onChange` hears of each
 * change when it is applied.
 *
 * @example
 * ```ts
 * const ledger = sqliteLedger(store.database);
 * ledger.record('call_1', { employeeId: 'E-42', salary: 56_000 });
 * ```
 */
export function sqliteLedger(
  database: Database.Database,
  onChange: (change: SalaryChange) => void = () => {},
): Ledger {
  database.exec(`CREATE TABLE IF NOT EXISTS salary_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    idempotency_key TEXT NOT NULL UNIQUE,
    employee_id TEXT NOT NULL,
    salary INTEGER NOT NULL
  )`);
  const insert = database.prepare(
    'INSERT INTO salary_changes (idempotency_key, employee_id, salary) VALUES (?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING',
  );
  const byKey = database.prepare<[string], SalaryChange>(
    'SELECT employee_id AS employeeId, salary FROM salary_changes WHERE idempotency_key = ?',
  );
  const all = database.prepare<[], SalaryChange>(
    'SELECT employee_id AS employeeId, salary FROM salary_changes ORDER BY id',
  );
  return {
    record(key, change) {
      if (insert.run(key, change.employeeId, change.salary).changes > 0) onChange(change);
      return byKey.get(key)!;
    },
    changes: () => all.all(),
  };
}
