/**
 * Whether a store agrees with a checkpoint log on what waits for a person: a run the log holds
 * suspended has exactly its last suspension waiting in the store, and a run that ended has none.
 * A record of a suspension the log moved past is an approval that no one can act on.
 */
import type { CheckpointLog, ContinuationStore } from '@agent-continuations/core';

/**
 * The runs (of `runIds`) on which the store's waiting records are not the log's suspensions, one
 * line each; empty when they agree. Runs still running (or failed) in the log are not judged.
 *
 * @example
 * ```ts
 * await recover(log, agents, { store });
 * expect(await waitingDisagreements(store, log, runIds)).toEqual([]);
 * ```
 */
export async function waitingDisagreements(
  store: ContinuationStore,
  log: CheckpointLog,
  runIds: readonly string[],
): Promise<string[]> {
  const lines: string[] = [];
  for (const runId of runIds) {
    const record = await log.status(runId);
    const ended = record?.status === 'completed' || record?.status === 'rejected';
    if (!ended && record?.status !== 'suspended') continue;
    const expected = ended ? [] : [record.suspensionId];
    const { items } = await store.list({ runId, status: 'suspended' });
    const waiting = items.map((item) => item.id);
    if (waiting.length !== expected.length || waiting.some((id) => !expected.includes(id))) {
      const log = ended ? `says ${record.status}` : `waits at ${record.suspensionId}`;
      lines.push(`run ${runId}: the store lists ${JSON.stringify(waiting)} as waiting while the log ${log}`);
    }
  }
  return lines;
}
