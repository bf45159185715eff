/**
 * A crash worker process on Postgres: `crash-worker.ts <url> <schema> <owner> <runs> <steps> <killAt|->`.
 */
import { crashWorkerMain } from '@agent-continuations/testing';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { postgresCrashLedger } from './crash-ledger';

const [url, schema, owner, runs, steps, killAt] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const log = createPostgresCheckpointLog({ connectionString: url, schema });
const ledger = await postgresCrashLedger(url, schema, owner);
await crashWorkerMain({
  log,
  ledger,
  runs: Number(runs),
  steps: Number(steps),
  ...(killAt === '-' ? {} : { killAt: Number(killAt) }),
  leaseMs: 300,
  concurrency: 8,
  owner,
});
await ledger.close();
await log.close();
