/**
 * Resume a stored continuation under a claim, so that two workers (or a double-clicked button)
 * never resume it twice.
 */

import { ContinuationError, isContinuationError, type ModelCallError } from './errors';
import type { ContinuableAgent, Decisions, RunOptions, RunResult } from './protocol';
import type { ClaimOptions, ContinuationStore, SaveOptions } from './store';

/** Options of {@link resumeStored}. */
export interface ResumeStoredOptions extends RunOptions, ClaimOptions {
  /** How to save the next continuation when the run suspends again. */
  save?: SaveOptions;
}

/**
 * Claim `id`, resume it with `decisions`, save the next continuation if the run suspends again,
 * and mark `id` resumed. A second call for the same `id` fails with `CLAIM_CONFLICT` and runs
 * nothing. When checking the decisions fails, the claim is given back and nothing ran. When the
 * model call fails, the {@link ModelCallError}'s continuation (the last good state) is saved
 * under its own id before the error is rethrown, so no finished work is lost.
 *
 * @example
 * ```ts
 * const result = await resumeStored(store, agent, continuationId, {
 *   [actionId]: { type: 'approve', by: 'ann@example.com' },
 * });
 * ```
 */
export async function resumeStored<Output>(
  store: ContinuationStore,
  agent: ContinuableAgent<any, Output>,
  id: string,
  decisions: Decisions = {},
  options: ResumeStoredOptions = {},
): Promise<RunResult<Output>> {
  const claim = await store.claim(id, options);
  const stored = await store.load(id);
  if (!stored) {
    throw new ContinuationError('NOT_FOUND', `Continuation "${id}" disappeared from the store.`);
  }
  try {
    await agent.checkDecisions?.(stored.continuation, decisions);
  } catch (error) {
    await store.release(claim);
    throw error;
  }
  // From here on tools may run: the claim is completed whatever happens, so nothing runs twice.
  try {
    const result = await agent.resume(stored.continuation, decisions, options);
    if (result.status === 'suspended') await store.save(result.continuation, options.save);
    return result;
  } catch (error) {
    // A failed model call carries the last good state (decided calls already ran): keep it, so
    // the run can be resumed once the model is back, without running those calls again.
    if (isContinuationError(error, 'MODEL_ERROR') && (error as ModelCallError).continuation) {
      await store.save((error as ModelCallError).continuation, options.save);
    }
    throw error;
  } finally {
    await store.complete(claim);
  }
}
