import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '@agent-continuations/testing';
import { createSqliteStore } from '../src';

runStoreContract(
  'sqlite',
  ({ encryption }) => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-sqlite-'));
    const path = join(dir, 'store.db');
    const store = createSqliteStore({ path, encryption });
    return {
      store,
      connect: (context) => createSqliteStore({ path, encryption: context.encryption }),
      raw: async (id) => {
        const row = store.database.prepare(`SELECT * FROM ${store.table} WHERE id = ?`).get(id);
        return row === undefined ? undefined : JSON.stringify(row);
      },
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { encryption: true },
);
