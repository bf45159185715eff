import { runRuntimeSuite } from '@agent-continuations/testing';
import pg from 'pg';
import { createPostgresCheckpointLog, createPostgresStore } from '../src';
import { PG_URL, scratchSchema } from './pg-fixtures';
import { requirePostgres } from './require-postgres';

await requirePostgres(PG_URL);

runRuntimeSuite('postgres', () => {
  // The store and the log on one pool and schema, so a suspension and its log entry commit together.
  const scratch = scratchSchema('runtime');
  const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
  return {
    store: createPostgresStore({ pool, schema: scratch.schema }),
    log: createPostgresCheckpointLog({ pool, schema: scratch.schema }),
    cleanup: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
});
