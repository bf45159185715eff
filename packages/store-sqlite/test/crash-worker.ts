/**
 * A crash worker process on SQLite: `crash-worker.ts <file> <owner> <runs> <steps> <killAt|-> [nested] [approvals]`,
 * `nested` to run the plan in a sub-agent, `approvals` as comma-separated turns (e.g. `0,3`).
 */
import { crashWorkerMain } from '@agent-continuations/testing/runtime';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { sqliteCrashLedger } from './crash-ledger';

const [file, owner, runs, steps, killAt, nested, approvals] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string | undefined,
  string | undefined,
];
const log = createSqliteCheckpointLog({ database: file });
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
});
await log.close();
