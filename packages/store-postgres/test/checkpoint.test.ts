import { runCheckpointLogContract } from '@agent-continuations/testing';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { PG_URL, scratchSchema } from './pg-fixtures';

runCheckpointLogContract('postgres', async () => {
  const { schema, drop } = scratchSchema('ckpt');
  const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
  return {
    log,
    cleanup: async () => {
      await log.close();
      await drop();
    },
  };
});
