/**
 * Every continuation a run emits is built here: the run's facts, one suspension's contents, a
 * fresh id and time.
 */
import { type AgentRef, type AuditEntry, type Continuation, CURRENT_VERSION, FORMAT } from '../format/format';
import type { JsonObject } from '../format/json';

/** The facts of a run that every continuation of it carries. */
export interface RunFacts {
  runId: string;
  agent: AgentRef;
  metadata: JsonObject;
  /** The audit trail so far. */
  audit: readonly AuditEntry[];
}

/** What one suspension holds besides the run's facts. */
export type ContinuationParts = Pick<
  Continuation,
  'messages' | 'pending' | 'done' | 'step' | 'usage' | 'suspendedBy'
> & { state?: Continuation['state'] };

/**
 * A new continuation (fresh id, current time, the current format version) of the run `facts`
 * describes. Every continuation the engine and the adapters emit is made here.
 *
 * @example
 * ```ts
 * const continuation = newContinuation(
 *   { runId, agent: { name: 'ops', framework: 'mine' }, metadata: {}, audit: [] },
 *   { messages, pending, done: [], step: 1, usage, suspendedBy: { type: 'actions', kinds: ['approval'] } },
 * );
 * ```
 */
export function newContinuation(
  facts: RunFacts,
  parts: ContinuationParts,
  /** A fixed id and time instead of fresh ones (a log's replay names its states by step). */
  at?: { id: string; createdAt: string },
): Continuation {
  const continuation: Continuation = {
    format: FORMAT,
    version: CURRENT_VERSION,
    id: at?.id ?? crypto.randomUUID(),
    runId: facts.runId,
    agent: { ...facts.agent },
    messages: parts.messages,
    pending: parts.pending,
    done: parts.done,
    step: parts.step,
    usage: parts.usage,
    suspendedBy: parts.suspendedBy,
    metadata: facts.metadata,
    decisions: [...facts.audit],
    createdAt: at?.createdAt ?? new Date().toISOString(),
  };
  if (parts.state !== undefined) continuation.state = parts.state;
  return continuation;
}
