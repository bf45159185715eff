/**
 * The checkpoint log and the store on one Postgres pool: a suspension's log entry and its stored
 * continuation are written in one transaction.
 */
import { runSharedDatabaseContract } from '@agent-continuations/testing';
import pg from 'pg';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createPostgresStore } from '../src/postgres-store';
import { PG_URL, scratchSchema } from './pg-fixtures';

runSharedDatabaseContract('postgres', () => {
  const scratch = scratchSchema('tx');
  const pool = new pg.Pool({ connectionString: PG_URL });
  return {
    store: createPostgresStore({ pool, schema: scratch.schema }),
    log: createPostgresCheckpointLog({ pool, schema: scratch.schema }),
    close: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
});
