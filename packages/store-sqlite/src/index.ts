/**
 * @agent-continuations/store-sqlite: the embedded store of continuations and checkpoints.
 */
// The continuation store.

// Checkpoints during a run.
export {
  createSqliteCheckpointLog,
  type SqliteCheckpointLog,
  type SqliteCheckpointLogOptions,
} from './checkpoints';
export { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite-store';
