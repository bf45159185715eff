/**
 * The checkpoint log and the store on one SQLite database: a suspension's log entry and its stored
 * continuation are written in one transaction.
 */
import { runSharedDatabaseContract } from '@agent-continuations/testing';
import Database from 'better-sqlite3';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { createSqliteStore } from '../src/sqlite-store';

runSharedDatabaseContract('sqlite', () => {
  const database = new Database(':memory:');
  return {
    store: createSqliteStore({ database }),
    log: createSqliteCheckpointLog({ database }),
    close: () => database.close(),
  };
});
