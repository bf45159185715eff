/**
 * Resume a stored continuation under a claim, so that two workers (or a double-clicked button)
 * never resume it twice.
 */
import { ContinuationError, isContinuationError, type ModelCallError } from './errors';
import type { Continuation } from './format';
import type { ContinuableAgent, Decisions, RunOptions, RunResult } from './protocol';
import type { Claim, ClaimOptions, ContinuationStore, SaveOptions } from './store';
import type { AgentStream } from './stream';

/** Options of {@link resumeStored} and {@link streamStored}. */
export interface ResumeStoredOptions extends RunOptions, ClaimOptions {
  /** How to save the next continuation when the run suspends again. */
  save?: SaveOptions;
}

/** Decisions, or a function that makes them from the stored continuation (e.g. from its actions). */
export type StoredDecisions = Decisions | ((continuation: Continuation) => Decisions);

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
  decisions: StoredDecisions = {},
  options: ResumeStoredOptions = {},
): Promise<RunResult<Output>> {
  const { claim, continuation, decided } = await claimChecked(store, agent, id, decisions, options);
  // From here on tools may run: the claim is completed whatever happens, so nothing runs twice.
  try {
    return await settle(store, agent.resume(continuation, decided, options), options);
  } finally {
    await store.complete(claim);
  }
}

/** An agent that can stream a resume, like the engine's agents. */
export interface StreamingAgent<Output> {
  stream(
    input: { continuation: Continuation; decisions?: Decisions },
    options?: RunOptions,
  ): AgentStream<Output>;
  checkDecisions?(continuation: Continuation, decisions: Decisions): Promise<void>;
}

/**
 * {@link resumeStored} for a streamed resume: claims `id`, checks the decisions, and returns the
 * run's stream. When the run ends (however it ends) the next continuation or the last good state
 * is saved and the claim is completed, before the stream's `result` settles.
 *
 * @example
 * ```ts
 * const run = await streamStored(store, agent, ref.id, (continuation) =>
 *   decisionsFromUIMessages(messages, listActions(continuation), { by: user.email }),
 * );
 * return toUIMessageStreamResponse(run);
 * ```
 */
export async function streamStored<Output>(
  store: ContinuationStore,
  agent: StreamingAgent<Output>,
  id: string,
  decisions: StoredDecisions = {},
  options: ResumeStoredOptions = {},
): Promise<AgentStream<Output>> {
  const { claim, continuation, decided } = await claimChecked(store, agent, id, decisions, options);
  let run: AgentStream<Output>;
  try {
    run = agent.stream({ continuation, decisions: decided }, options);
  } catch (error) {
    await store.complete(claim);
    throw error;
  }
  const result = settle(store, run.result, options).finally(() => store.complete(claim));
  // The iterator reports a failure; an unobserved `result` must not crash the process.
  result.catch(() => {});
  return { result, [Symbol.asyncIterator]: () => run[Symbol.asyncIterator]() };
}

async function claimChecked(
  store: ContinuationStore,
  agent: { checkDecisions?(continuation: Continuation, decisions: Decisions): Promise<void> },
  id: string,
  decisions: StoredDecisions,
  options: ClaimOptions,
): Promise<{ claim: Claim; continuation: Continuation; decided: Decisions }> {
  const claim = await store.claim(id, options);
  try {
    const stored = await store.load(id);
    if (!stored) throw new ContinuationError('NOT_FOUND', `Continuation "${id}" disappeared from the store.`);
    const decided = typeof decisions === 'function' ? decisions(stored.continuation) : decisions;
    await agent.checkDecisions?.(stored.continuation, decided);
    return { claim, continuation: stored.continuation, decided };
  } catch (error) {
    // Nothing ran: another worker may take it.
    await store.release(claim);
    throw error;
  }
}

/** Save what comes next: the new suspension, or the last good state of a failed model call. */
async function settle<Output>(
  store: ContinuationStore,
  running: Promise<RunResult<Output>>,
  options: ResumeStoredOptions,
): Promise<RunResult<Output>> {
  try {
    const result = await running;
    if (result.status === 'suspended') await store.save(result.continuation, options.save);
    return result;
  } catch (error) {
    // Decided calls already ran: keep the state after them, to resume once the model is back.
    if (isContinuationError(error, 'MODEL_ERROR') && (error as ModelCallError).continuation) {
      await store.save((error as ModelCallError).continuation, options.save);
    }
    throw error;
  }
}
