/**
 * A crash worker process on Postgres: `crash-worker.ts <url> <schema> <owner> <runs> <steps> <killAt|-> [nested] [approvals] [stored]`,
 * `nested` to run the plan in a sub-agent, `approvals` as comma-separated turns (e.g. `0,4`),
 * `stored` to keep suspensions in a store on the log's pool and approve them with `resumeStored`.
 */
import { crashWorkerMain } from '@agent-continuations/testing/runtime';
import pg from 'pg';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createPostgresStore } from '../src/postgres-store';
import { postgresCrashLedger } from './crash-ledger';

const [url, schema, owner, runs, steps, killAt, nested, approvals, stored] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string | undefined,
  string | undefined,
  string | undefined,
];
// One pool for the store and the log: their writes share a transaction.
const pool = new pg.Pool({ connectionString: url });
pool.on('error', () => {});
const log = createPostgresCheckpointLog({ pool, schema });
const store = stored === 'stored' ? createPostgresStore({ pool, schema }) : undefined;
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
  ...(store ? { store } : {}),
});
await ledger.close();
await store?.close();
await log.close();
await pool.end();
