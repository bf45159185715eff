/**
 * @agent-continuations/store-sqlite: the embedded store of continuations and checkpoints.
 */
// Checkpoints during a run.
export {
  createSqliteCheckpointLog,
  type SqliteCheckpointLog,
  type SqliteCheckpointLogOptions,
} from './checkpoints';
