/**
 * Resuming a deep tree costs work linear in its depth: each level's resume checks (the agent can
 * resume it, the decisions fit it) run once per resume, with the whole tree, and a level does not
 * take a checkpoint of the levels below it at each of their steps. Counted, not timed.
 */
import {
  agentTool,
  type ContinuableAgent,
  type Continuation,
  createContinuableAgent,
  defineTool,
  listActions,
  serializeContinuation,
} from '@agent-continuations/core';
import { reportResults, scriptedModel } from '@agent-continuations/testing/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

interface Counts {
  checks: number;
  checkpoints: number;
  paid: number;
}

/** Agents nested `depth` deep, the deepest asking approval to pay; every level counts its checks. */
function chain(depth: number, counts: Counts): ContinuableAgent {
  const pay = defineTool({
    name: 'pay',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      counts.paid++;
      return { paid: amount };
    },
  });
  let agent: ContinuableAgent = createContinuableAgent({
    name: `level${depth - 1}`,
    model: scriptedModel([{ toolCalls: [{ name: 'pay', args: { amount: 10 } }] }, reportResults]),
    tools: [pay],
  });
  for (let level = depth - 2; level >= 0; level--) {
    const child = counted(agent, counts);
    agent = createContinuableAgent({
      name: `level${level}`,
      model: scriptedModel([
        { toolCalls: [{ name: `level${level + 1}`, args: { input: 'go on' } }] },
        reportResults,
      ]),
      tools: [agentTool(child)],
    });
  }
  return agent;
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
