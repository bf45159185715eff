/**
 * The example's "payroll database": salary changes keyed by idempotency key, in a JSON file, so
 * that the count of changes survives across processes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface Ledger {
  /** Record a change once per key; a repeat with the same key returns the first record. */
  record(
    key: string,
    change: { employeeId: string; salary: number },
  ): { employeeId: string; salary: number; applied: number };
  /** How many times any change was applied. */
  applied(): number;
}

export function fileLedger(path: string): Ledger {
  const read = (): Record<string, { employeeId: string; salary: number; applied: number }> =>
    existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  return {
    record(key, change) {
      const entries = read();
      const existing = entries[key];
      if (existing) return existing;
      const entry = { ...change, applied: Object.keys(entries).length + 1 };
      entries[key] = entry;
      writeFileSync(path, JSON.stringify(entries, null, 2));
      return entry;
    },
    applied: () => Object.keys(read()).length,
  };
}
