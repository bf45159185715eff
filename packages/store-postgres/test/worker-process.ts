/**
 * A worker process for the multi-process test: `worker-process.ts <url> <schema> <id>`.
 * Prints `ready` once it takes jobs; on SIGTERM it stops gracefully and exits 0.
 */
import { onAbort } from '@agent-continuations/core';
import { durableTestAgent } from '@agent-continuations/testing';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createWorker } from '../src/worker/create-worker';
import { postgresCrashLedger } from './crash-ledger';
import { openWorkerStore } from './worker-store';

const [url, schema, id] = process.argv.slice(2) as [string, string, string];
const ledger = await postgresCrashLedger(url, schema, id);
const log = createPostgresCheckpointLog({ connectionString: url, schema });
const store = await openWorkerStore(url, schema);
const worker = createWorker({
  store,
  checkpoints: log,
  connectionString: url,
  bossOptions: { schema: `${schema}_boss`, maintenanceIntervalSeconds: 1, max: 4 },
  retryDelay: 1,
  expireInSeconds: 5,
  id,
  batchSize: 25,
  pollingIntervalSeconds: 0.5,
  leaseMs: 1500,
  recoverIntervalMs: 500,
  agents: {
    durable: ({ shutdown }) =>
      durableTestAgent({
        suspendWhen: [onAbort(shutdown)],
        charge: async (_args, ctx) => {
          await ledger.attempt('charge', ctx.idempotencyKey);
          return (await ledger.pay(ctx.idempotencyKey)) ? 'paid' : 'already paid';
        },
        notify: async (_args, ctx) => {
          await ledger.attempt('notify', ctx.idempotencyKey);
          await ledger.notify(ctx.idempotencyKey);
          return 'sent';
        },
      }),
  },
  onError: (error) => console.error(`[${id}]`, error),
});
process.once('SIGTERM', () => {
  void worker.stop().then(async () => {
    await Promise.all([ledger.close(), log.close(), store.close?.()]);
    process.exit(0);
  });
});
await worker.start();
console.log('ready');
