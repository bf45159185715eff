/**
 * A file that counts each tool's executions: the side effects of the demo, visible across its
 * processes, so it can show that every call ran exactly once.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Ledger {
  record(tool: string): void;
  counts(): Record<string, number>;
}

export function fileLedger(dir: string): Ledger {
  const file = join(dir, 'ledger.json');
  const counts = (): Record<string, number> =>
    existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  return {
    record(tool) {
      const next = counts();
      next[tool] = (next[tool] ?? 0) + 1;
      writeFileSync(file, JSON.stringify(next));
    },
    counts,
  };
}
