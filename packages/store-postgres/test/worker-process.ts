/**
 * A worker process for the multi-process test: `worker-process.ts <url> <schema> <id>`.
 * Prints `ready` once it takes jobs; on SIGTERM it stops gracefully and exits 0. A line `kill` or
 * `term` on stdin makes it send itself SIGKILL or SIGTERM inside its next `charge` call, after the
 * call was noted in the ledger and before the payment: a worker dying, or told to stop, mid-tool.
 */
import { createInterface } from 'node:readline';
import { onAbort } from '@agent-continuations/core';
import { durableTestAgent } from '@agent-continuations/testing/runtime';
import { createPostgresCheckpointLog } from '../src/checkpoints';
import { createWorker } from '../src/worker/create-worker';
import { postgresCrashLedger } from './crash-ledger';
import { openWorkerStore } from './worker-store';

const [url, schema, id] = process.argv.slice(2) as [string, string, string];
const ledger = await postgresCrashLedger(url, schema, id);
const log = createPostgresCheckpointLog({ connectionString: url, schema });
const store = await openWorkerStore(url, schema);
let signalInNextCharge: NodeJS.Signals | undefined;
createInterface({ input: process.stdin }).on('line', (line) => {
  signalInNextCharge = line.trim() === 'kill' ? 'SIGKILL' : 'SIGTERM';
});
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
          const signal = signalInNextCharge;
          signalInNextCharge = undefined;
          if (signal) {
            await ledger.killed(signal === 'SIGKILL' ? 'before-effect' : 'after-effect', ctx.idempotencyKey);
            process.kill(process.pid, signal);
            if (signal === 'SIGKILL') await new Promise(() => {});
          }
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
