/**
 * The human side of the multi-process test, in its own process: `worker-decider.ts <url> <schema>`.
 * Approves every action of every suspended continuation it finds, once per continuation.
 */
import PgBoss from 'pg-boss';
import { createJobClient } from '../src/worker/jobs';
import { openWorkerStore } from './worker-store';

const [url, schema] = process.argv.slice(2) as [string, string];
const store = await openWorkerStore(url, schema);
const boss = await new PgBoss({
  connectionString: url,
  schema: `${schema}_boss`,
  supervise: false,
  max: 2,
}).start();
const client = await createJobClient(boss);
const decided = new Set<string>();
let stopping = false;
process.once('SIGTERM', () => {
  stopping = true;
});
console.log('ready');
while (!stopping) {
  let cursor: string | undefined;
  do {
    const page = await store.list({ status: 'suspended', limit: 200, ...(cursor ? { cursor } : {}) });
    for (const item of page.items) {
      if (decided.has(item.id)) continue;
      const stored = await store.load(item.id);
      if (stored?.continuation.suspendedBy.type !== 'actions') continue;
      decided.add(item.id);
      const decisions = Object.fromEntries(
        stored.continuation.pending.map((entry) => [
          entry.toolCallId,
          { type: 'approve' as const, by: 'decider' },
        ]),
      );
      await client.submitDecisions(item.id, decisions);
    }
    cursor = page.cursor;
  } while (cursor && !stopping);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await boss.stop({ graceful: false });
await store.close?.();
process.exit(0);
