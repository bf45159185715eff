import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheckpointLogContract, runEncryptedCheckpointLogContract } from '@agent-continuations/testing';
import Database from 'better-sqlite3';
import { createSqliteCheckpointLog } from '../src/checkpoints';

runCheckpointLogContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-checkpoint-'));
  const log = createSqliteCheckpointLog({ database: join(dir, 'log.db') });
  return {
    log,
    cleanup: async () => {
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runEncryptedCheckpointLogContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-checkpoint-enc-'));
  const file = join(dir, 'log.db');
  const logs: Array<ReturnType<typeof createSqliteCheckpointLog>> = [];
  const raw = new Database(file);
  return {
    open: (encryption) => {
      const log = createSqliteCheckpointLog({ database: file, ...(encryption ? { encryption } : {}) });
      logs.push(log);
      return log;
    },
    rawEntries: async () =>
      raw
        .prepare<[], { body: string }>('SELECT body FROM checkpoint_entries ORDER BY seq')
        .all()
        .map((row) => row.body),
    cleanup: async () => {
      for (const log of logs) await log.close();
      raw.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
