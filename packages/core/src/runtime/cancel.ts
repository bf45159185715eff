/**
 * Ending a whole run from where it waits: every pending action rejected with the person's reason,
 * nothing run, the stored record `cancelled`, and the log (when there is one) told the run ended.
 */

import type { CheckpointLog } from '../durable/checkpoint';
import { fenceByStep, leaseOptions } from '../durable/durable';
import { listActions } from '../engine/actions';
import { ContinuationError } from '../errors';
import type { AuditEntry } from '../format/format';
import { type ContinuationStore, DEFAULT_LEASE_MS } from '../stores/store';

/** Options of `runtime.cancel`. */
export interface CancelOptions {
  /** Who ends the run: the record's `resumedBy`, and the `by` of every rejection. */
  by?: string;
  /** Why: the record's `reason`, and the reason of every rejection. */
  reason?: string;
}

/** A run ended by `runtime.cancel`. */
export interface CancelledRun {
  status: 'cancelled';
  /** The stored suspension the run was ended at. */
  continuationId: string;
  runId: string;
  agent: string;
  /** Every action that was waiting, rejected with the reason (nothing ran). */
  rejected: AuditEntry[];
  by?: string;
  reason?: string;
}

/**
 * Cancel the run waiting at stored continuation `id`: claimed (so that a resume racing it, or a
 * second cancel, fails with `CLAIM_CONFLICT` and nothing is decided twice), its record completed as
 * `cancelled`, and, with a log, the run's segment ended there. A record the log has moved past is
 * refused with `CLAIM_CONFLICT`: its run is no longer waiting there.
 */
export async function cancelStored(
  store: ContinuationStore,
  log: CheckpointLog | undefined,
  id: string,
  options: CancelOptions & { owner: string },
): Promise<CancelledRun> {
  const stored = await store.load(id);
  if (!stored) throw new ContinuationError('NOT_FOUND', `No continuation "${id}" in the store.`);
  const { continuation } = stored;
  const by = options.by ?? options.owner;
  const claim = await store.claim(id, { owner: by });
  const at = new Date().toISOString();
  const rejected = listActions(continuation).map(
    (action): AuditEntry => ({
      actionId: action.id,
      type: 'reject',
      toolName: action.toolName,
      toolCallId: action.toolCallId,
      at,
      by,
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      args: action.args,
    }),
  );
  try {
    if (log) {
      // Refuses (`CLAIM_CONFLICT`) a suspension the log moved past: the run went on without the store.
      const known = await fenceByStep(log, continuation);
      const lease = await log.begin(
        {
          type: 'start',
          runId: continuation.runId,
          agentName: continuation.agent.name,
          at,
          ...(known ? { fromId: continuation.id } : { from: continuation }),
          // No decisions: a recovery that found this segment unfinished would resume the run to the
          // same suspension (the cancel did not happen), never go on past the rejections.
          decisions: {},
          claim,
        },
        leaseOptions({ owner: by, leaseMs: DEFAULT_LEASE_MS }),
      );
      await log.append(lease, { type: 'end', status: 'rejected' });
    }
  } catch (error) {
    await store.release(claim).catch(() => {});
    throw error;
  }
  await store.complete(claim, { cancelled: options.reason === undefined ? {} : { reason: options.reason } });
  await log?.markSaved?.(continuation.runId, continuation.runId);
  return {
    status: 'cancelled',
    continuationId: id,
    runId: continuation.runId,
    agent: continuation.agent.name,
    rejected,
    by,
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  };
}
