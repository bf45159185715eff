/**
 * A worker process of the fault suite, built as the README builds one (the store, the log and
 * pg-boss each open their own pool from a connection string):
 * `fault-worker.ts <database url> <ledger url> <ledger schema> <id>`. Its tools pay into a ledger
 * on another server (the shared one), which the faults do not touch. Prints `ready` once it takes
 * jobs; on SIGTERM it stops, prints how many errors it survived, and exits 0. With
 * `FAULT_DIE_AFTER_FETCH=1` it SIGKILLs itself at its first job, after fetching its batch and
 * before beginning any of it.
 */
import { durableTestAgent } from '@agent-continuations/testing/runtime';
import { createPostgresCheckpointLog } from '../../src/checkpoints';
import { createPostgresStore } from '../../src/postgres-store';
import { createWorker } from '../../src/worker/create-worker';
import { postgresCrashLedger } from '../crash-ledger';

const [url, ledgerUrl, ledgerSchema, id] = process.argv.slice(2) as [string, string, string, string];
const ledger = await postgresCrashLedger(ledgerUrl, ledgerSchema, id);
const store = createPostgresStore({ connectionString: url });
const log = createPostgresCheckpointLog({ connectionString: url });
// A job's first look at the log comes before its run begins.
const checkpoints =
  process.env.FAULT_DIE_AFTER_FETCH === '1'
    ? {
        ...log,
        status: async () => {
          process.kill(process.pid, 'SIGKILL');
          return new Promise<never>(() => {});
        },
      }
    : log;
let errors = 0;
const worker = createWorker({
  store,
  checkpoints,
  connectionString: url,
  bossOptions: { max: 4 },
  id,
  batchSize: 10,
  pollingIntervalSeconds: 0.5,
  retryDelay: 1,
  leaseMs: 2_000,
  recoverIntervalMs: 500,
  agents: {
    durable: durableTestAgent({
      charge: async (_args, ctx) => {
        await ledger.attempt('charge', ctx.idempotencyKey);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return (await ledger.pay(ctx.idempotencyKey)) ? 'paid' : 'already paid';
      },
      notify: async (_args, ctx) => {
        await ledger.attempt('notify', ctx.idempotencyKey);
        return 'sent';
      },
    }),
  },
  onError: () => {
    errors++;
  },
});
process.once('SIGTERM', () => {
  void worker.stop().then(async () => {
    console.log(`errors ${errors}`);
    await Promise.all([ledger.close(), log.close(), store.close()]);
    process.exit(0);
  });
});
await worker.start();
console.log('ready');
