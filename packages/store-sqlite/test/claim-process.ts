/**
 * One claimer process of the multi-process test: opens the store file, says `ready`, waits for
 * `go` on stdin, then tries to claim every id and prints what it won.
 */
import { isContinuationError } from '@agent-continuations/core';
import { createSqliteStore } from '../src';

const [path, count, seed] = process.argv.slice(2) as [string, string, string];
const store = createSqliteStore({ path });
const ids = Array.from({ length: Number(count) }, (_, i) => `c${i}`);
// Each process walks the ids from another starting point, so they collide on every id.
const offset = Number(seed) % ids.length;
const order = [...ids.slice(offset), ...ids.slice(0, offset)];

process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  const won: string[] = [];
  const errors: string[] = [];
  await Promise.all(
    order.map(async (id) => {
      try {
        await store.claim(id, { owner: `process-${seed}` });
        won.push(id);
      } catch (error) {
        if (!isContinuationError(error, 'CLAIM_CONFLICT')) errors.push(String(error));
      }
    }),
  );
  await store.close();
  process.stdout.write(`${JSON.stringify({ won, errors })}\n`);
  process.exit(0);
});
