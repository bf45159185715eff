import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliSuite } from './cli-suite';

const dir = mkdtempSync(join(tmpdir(), 'ac-cli-sqlite-'));

cliSuite('SQLite', {
  url: (name) => `sqlite:${join(dir, `${name}.db`)}`,
  cleanup: async () => rmSync(dir, { recursive: true, force: true }),
});
