import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheckpointLogContract } from '@agent-continuations/testing';
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
