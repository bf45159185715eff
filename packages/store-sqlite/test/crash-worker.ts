/**
 * A crash worker process on SQLite: `crash-worker.ts <file> <owner> <runs> <steps> <killAt|-> [nested] [approvals] [stored]`,
 * `nested` to run the plan in a sub-agent, `approvals` as comma-separated turns (e.g. `0,3`),
 * `stored` to keep suspensions in a store on the log's connection and approve them with `resumeStored`.
 */
import { crashWorkerMain } from '@agent-continuations/testing/runtime';
import Database from 'better-sqlite3';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { createSqliteStore } from '../src/sqlite-store';
import { sqliteCrashLedger } from './crash-ledger';

const [file, owner, runs, steps, killAt, nested, approvals, stored] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined,
  string | undefined,
  string | undefined,
];
// One connection for the store and the log: their writes share a transaction.
const database = new Database(file);
const log = createSqliteCheckpointLog({ database });
const store = stored === 'stored' ? createSqliteStore({ database }) : undefined;
await crashWorkerMain({
  log,
  ledger: sqliteCrashLedger(file, owner),
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
await store?.close();
await log.close();
database.close();
