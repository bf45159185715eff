import { runCheckpointLogContract, runEncryptedCheckpointLogContract } from '@agent-continuations/testing';
import pg from 'pg';
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

runEncryptedCheckpointLogContract('postgres', async () => {
  const { schema, drop } = scratchSchema('ckptenc');
  const pool = new pg.Pool({ connectionString: PG_URL });
  const logs: Array<ReturnType<typeof createPostgresCheckpointLog>> = [];
  return {
    open: (encryption) => {
      const log = createPostgresCheckpointLog({ pool, schema, ...(encryption ? { encryption } : {}) });
      logs.push(log);
      return log;
    },
    rawEntries: async () =>
      (
        await pool.query<{ body: string }>(`SELECT body FROM ${schema}.checkpoint_entries ORDER BY seq`)
      ).rows.map((row) => row.body),
    cleanup: async () => {
      await pool.end();
      await drop();
    },
  };
});
