/**
 * A crash worker process on SQLite: `crash-worker.ts <file> <owner> <runs> <steps> <killAt|->`.
 */
import { crashWorkerMain } from '@agent-continuations/testing';
import { createSqliteCheckpointLog } from '../src/checkpoints';
import { sqliteCrashLedger } from './crash-ledger';

const [file, owner, runs, steps, killAt] = process.argv.slice(2) as [string, string, string, string, string];
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
});
await log.close();
