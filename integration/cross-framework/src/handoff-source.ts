/**
 * The suspending side of a handoff: run the scenario on `framework` until it waits on the transfer
 * approval, after a first approval granted in the same process.
 */
import { serializeContinuation } from '@agent-continuations/core';
import type { Counts } from '@agent-continuations/testing';
import { buildAgent, type Framework } from './frameworks';
import { HANDOFF_METADATA, HANDOFF_PROMPT, handoffAgent, sourceDecisions } from './handoff-scenario';

/** A suspension to hand over, and what ran before it. */
export interface HandoffSource {
  framework: Framework;
  model: string;
  /** The continuation as saved: JSON text. */
  continuation: string;
  counts: Counts;
}

/** Run the scenario on `framework` up to the transfer approval. */
export async function suspendInSource(
  framework: Framework,
  baseURL: string,
  model: string,
): Promise<HandoffSource> {
  const counts: Counts = {};
  const agent = buildAgent(framework, handoffAgent(counts, model), baseURL);
  const first = await agent.run(HANDOFF_PROMPT, { metadata: HANDOFF_METADATA });
  if (first.status !== 'suspended')
    throw new Error(`${framework}: expected a suspension, got ${first.status}`);
  const second = await agent.resume(first.continuation, sourceDecisions(first.actions[0]!.id));
  if (second.status !== 'suspended')
    throw new Error(`${framework}: expected a suspension, got ${second.status}`);
  return { framework, model, continuation: serializeContinuation(second.continuation), counts };
}
