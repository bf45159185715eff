/**
 * Resuming a deep tree costs work linear in its depth: each level's resume checks (the agent can
 * resume it, the decisions fit it) run once per resume, with the whole tree, and a level does not
 * take a checkpoint of the levels below it at each of their steps. Counted, not timed.
 */
import {
  type ContinuableAgent,
  type Continuation,
  listActions,
  serializeContinuation,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { deepChain } from './deep-chain';

interface Counts {
  checks: number;
  checkpoints: number;
  paid: number;
}

function chain(depth: number, counts: Counts): ContinuableAgent {
  return deepChain(depth, counts, (agent) => counted(agent, counts));
}

/** The same agent, counting the checks its parent asks of it and the checkpoints it is asked for. */
function counted(agent: ContinuableAgent, counts: Counts): ContinuableAgent {
  const checkDecisions = agent.checkDecisions!;
  return {
    ...agent,
    checkDecisions: (continuation, decisions, options) => {
      counts.checks++;
      return checkDecisions(continuation, decisions, options);
    },
    resume: (continuation, decisions, options = {}) =>
      agent.resume(continuation, decisions, {
        ...options,
        onEvent: (event) => {
          if (event.type === 'suspend' || event.type === 'complete') return options.onEvent?.(event);
          const checkpoint = event.checkpoint;
          return options.onEvent?.({
            ...event,
            checkpoint: () => {
              counts.checkpoints++;
              return checkpoint();
            },
          });
        },
      }),
  };
}

async function resumeCost(depth: number): Promise<Counts> {
  const counts: Counts = { checks: 0, checkpoints: 0, paid: 0 };
  const suspended = await chain(depth, counts).run('go');
  if (suspended.status !== 'suspended') throw new Error(`expected a suspension, got ${suspended.status}`);
  const continuation: Continuation = suspended.continuation;
  const text = serializeContinuation(continuation);
  const id = listActions(continuation)[0]!.id;
  const before = { ...counts };
  const result = await chain(depth, counts).resume(text, { [id]: { type: 'approve' } });
  expect(result.status).toBe('completed');
  return {
    checks: counts.checks - before.checks,
    checkpoints: counts.checkpoints - before.checkpoints,
    paid: counts.paid - before.paid,
  };
}

describe('resuming a deep tree', () => {
  it('checks each level once per resume and takes no checkpoint nobody asked for', async () => {
    for (const depth of [4, 16]) {
      const cost = await resumeCost(depth);
      expect(cost.paid).toBe(1);
      // One check per sub-agent: its parent's, before anything ran; none again when it resumes.
      expect(cost.checks).toBe(depth - 1);
      expect(cost.checkpoints).toBe(0);
    }
  });
});
