/**
 * A continuation from the run's facts and one suspension's contents.
 */
import {
  type AgentRef,
  type AuditEntry,
  type Continuation,
  CURRENT_VERSION,
  FORMAT,
  type JsonObject,
} from '@agent-continuations/core';

/** The facts of a run that every continuation of it carries. */
export interface RunFacts {
  runId: string;
  agent: AgentRef;
  metadata: JsonObject;
  audit: AuditEntry[];
}

/** A new continuation (fresh id and time) of the run `facts` describes. */
export function continuationOf(
  facts: RunFacts,
  parts: Pick<Continuation, 'messages' | 'pending' | 'done' | 'step' | 'usage' | 'suspendedBy'> & {
    state?: Continuation['state'];
  },
): Continuation {
  return {
    format: FORMAT,
    version: CURRENT_VERSION,
    id: crypto.randomUUID(),
    runId: facts.runId,
    agent: { ...facts.agent },
    messages: parts.messages,
    pending: parts.pending,
    done: parts.done,
    step: parts.step,
    usage: parts.usage,
    suspendedBy: parts.suspendedBy,
    ...(parts.state === undefined ? {} : { state: parts.state }),
    metadata: facts.metadata,
    decisions: [...facts.audit],
    createdAt: new Date().toISOString(),
  };
}
