/**
 * The replay guard of `runtime.resumeOnce` and `runtime.streamOnce`, for a continuation that comes
 * back from outside the store (a chat that carries it, a queue): verified with the runtime's seal,
 * saved in the store only when its id is new, then resumed under the store's claim as a stored
 * one is. A second use of the same continuation (another tab, a replayed request) finds its record
 * claimed or resumed and fails with `CLAIM_CONFLICT` before anything runs.
 */

import { listActions } from '../engine/actions';
import { ContinuationError } from '../errors';
import { openContinuation } from '../format/codec';
import type { Continuation } from '../format/format';
import type { ContinuationStore, SaveOptions } from '../stores/store';
import type { SealConfig } from '../trust/seal';

/** What {@link admitOnce} is given besides the store and the continuation. */
export interface AdmitOptions {
  /** The runtime's seal, which the continuation must verify with. */
  seal: SealConfig | undefined;
  /** How the runtime saves suspensions. */
  save: SaveOptions | undefined;
  /** The runtime's agent of that name; throws `NOT_FOUND` for one it does not have. */
  agent: (name: string) => unknown;
}

/**
 * Verify `input` with the runtime's seal and save it in `store` unless a record has its id (that
 * record is kept as it is: what came from outside never replaces it); returns the id to resume
 * under a claim. Nothing is saved for a continuation of an agent the runtime does not have. Past
 * the earliest deadline of its actions it is refused with `EXPIRED`, and a record saved here
 * expires then, so it may be deleted from that time on.
 */
export async function admitOnce(
  store: ContinuationStore,
  input: Continuation | string,
  { seal, save = {}, agent }: AdmitOptions,
): Promise<string> {
  if (!seal) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      "resumeOnce and streamOnce take a continuation from outside and verify it with the runtime's seal: give createRuntime a `seal`.",
    );
  }
  if (!store.saveIfAbsent) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      "The runtime's store has no saveIfAbsent(), so it cannot tell a continuation's second use from its first.",
    );
  }
  const continuation = await openContinuation(input, seal);
  agent(continuation.agent.name);
  const deadline = earliestDeadline(continuation);
  if (deadline !== undefined && deadline <= Date.now()) {
    throw new ContinuationError(
      'EXPIRED',
      `Continuation "${continuation.id}" expired at ${new Date(deadline).toISOString()}, the deadline of its actions.`,
    );
  }
  const given = save.expiresAt === undefined ? undefined : new Date(save.expiresAt).getTime();
  const expiresAt = Math.min(given ?? Number.POSITIVE_INFINITY, deadline ?? Number.POSITIVE_INFINITY);
  // An invalid `save.expiresAt` (NaN) goes on to the store, which refuses it.
  const saveAs = Number.isFinite(expiresAt) ? { ...save, expiresAt: new Date(expiresAt) } : save;
  await store.saveIfAbsent(continuation, saveAs);
  return continuation.id;
}

/** The earliest deadline of the continuation's actions, as epoch milliseconds; undefined for none. */
function earliestDeadline(continuation: Continuation): number | undefined {
  const deadlines = listActions(continuation)
    .map((action) => action.deadline)
    .filter((deadline): deadline is string => deadline !== undefined)
    .map((deadline) => Date.parse(deadline));
  return deadlines.length === 0 ? undefined : Math.min(...deadlines);
}
