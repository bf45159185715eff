/**
 * @agent-continuations/store-postgres: continuations, checkpoints and pg-boss workers on Postgres.
 */
// The continuation store.

// Checkpoints during a run, and scale-out workers.
export {
  createPostgresCheckpointLog,
  type PostgresCheckpointLog,
  type PostgresCheckpointLogOptions,
} from './checkpoints';
export { createPostgresStore, type PostgresStore, type PostgresStoreOptions } from './postgres-store';
export {
  type AgentContext,
  type AgentDefinition,
  createWorker,
  type Worker,
  type WorkerOptions,
} from './worker/create-worker';
export {
  createJobClient,
  DEFAULT_JOB_EXPIRY_SECONDS,
  HANDED_OFF,
  type JobClient,
  type JobClientOptions,
  type QueueOptions,
  type ResumeJob,
  type RunJob,
} from './worker/jobs';
