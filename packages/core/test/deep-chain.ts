/**
 * Agents nested `depth` deep for the cost tests: `level0` delegates to `level1` and so on; the
 * deepest asks approval to `pay` (counted in `paid`). `wrap` sees every sub-agent before its
 * parent gets it, e.g. to count what the parent asks of it.
 */
import {
  agentTool,
  type ContinuableAgent,
  createContinuableAgent,
  defineTool,
} from '@agent-continuations/core';
import { reportResults, scriptedModel } from '@agent-continuations/testing/runtime';
import { z } from 'zod';

export function deepChain(
  depth: number,
  counts: { paid: number },
  wrap: (agent: ContinuableAgent) => ContinuableAgent,
): ContinuableAgent {
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
    const child = wrap(agent);
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
