import { runRuntimeSuite } from '@agent-continuations/testing';
import Database from 'better-sqlite3';
import { createSqliteCheckpointLog, createSqliteStore } from '../src';

runRuntimeSuite('sqlite', () => {
  // The store and the log share one database, so a suspension and its log entry commit together.
  const database = new Database(':memory:');
  return {
    store: createSqliteStore({ database }),
    log: createSqliteCheckpointLog({ database }),
    cleanup: async () => {
      database.close();
    },
  };
});
