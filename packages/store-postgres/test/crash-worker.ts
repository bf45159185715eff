/**
 * A crash worker process on Postgres: `crash-worker.ts <url> <schema> <owner> <runs> <steps> <killAt|-> [nested] [approvals]`,
 * `nested` to run the plan in a sub-agent, `approvals` as comma-separated turns (e.g. `0,4`).
 */
import { crashWorkerMain } from '@agent-continuations/testing/runtime';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { postgresCrashLedger } from './crash-ledger';

const [url, schema, owner, runs, steps, killAt, nested, approvals] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string | undefined,
  string | undefined,
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
  nested: nested === 'nested',
  ...(approvals ? { approvals: approvals.split(',').map(Number) } : {}),
});
await ledger.close();
await log.close();
