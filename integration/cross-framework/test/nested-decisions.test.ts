/**
 * A parent decision and a nested decision in one resume, by every adapter: a parent whose turn
 * asked for a refund (approval) and a billing sub-agent (whose charge needs approval) is resumed
 * with both decisions by a parent built in each framework; the sub-agent then asks for a second
 * charge, and a last resume approves it. Each approved call runs exactly once, whoever drives.
 */
import { parseContinuation, serializeContinuation } from '@agent-continuations/core';
import {
  type Counts,
  reportResults,
  setupScriptedOpenAIServer,
  suspended,
} from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { countedTool } from '../src/counted-tools';
import { type AgentSpec, buildAgent, FRAMEWORKS, type Framework } from '../src/frameworks';

const server = setupScriptedOpenAIServer({
  scripts: {
    'nested-parent': [
      {
        toolCalls: [
          { name: 'refund', args: { amount: 5 } },
          { name: 'billing', args: { input: 'charge the customer twice' } },
        ],
      },
      reportResults,
    ],
    'nested-billing': [
      { toolCalls: [{ name: 'charge', args: { amount: 10 } }] },
      { toolCalls: [{ name: 'charge', args: { amount: 20 } }] },
      reportResults,
    ],
  },
});

const charge = (counts: Counts) =>
  countedTool(
    counts,
    {
      name: 'charge',
      description: 'Charge the customer',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
    },
    ({ amount }) => {
      counts[`charge ${amount}`] = (counts[`charge ${amount}`] ?? 0) + 1;
      return { charged: amount };
    },
  );

const refund = (counts: Counts) =>
  countedTool(
    counts,
    {
      name: 'refund',
      description: 'Refund the customer',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
    },
    ({ amount }) => ({ refunded: amount }),
  );

function parent(framework: Framework, child: Framework, counts: Counts) {
  const billing: AgentSpec = {
    name: 'billing',
    model: 'nested-billing',
    instructions: 'You charge customers.',
    tools: [charge(counts)],
  };
  return buildAgent(
    framework,
    {
      name: 'support',
      model: 'nested-parent',
      instructions: 'You help customers.',
      tools: [
        refund(counts),
        {
          kind: 'agent',
          name: 'billing',
          description: 'Billing questions',
          agent: buildAgent(child, billing, server.baseURL),
        },
      ],
    },
    server.baseURL,
  );
}

const cases = FRAMEWORKS.flatMap((child) => FRAMEWORKS.map((resumer) => [child, resumer] as const));

it.each(cases)(
  'a billing sub-agent in %s, both decisions resumed by %s: each approved call once',
  async (child, resumer) => {
    const counts: Counts = {};
    const first = suspended(await parent('openai-chat', child, counts).run('Refund 5, then charge.'));
    expect(first.actions.map((action) => action.toolName)).toEqual(['refund', 'charge']);
    const decisions = Object.fromEntries(
      first.actions.map((action) => [action.id, { type: 'approve' as const }]),
    );

    const text = serializeContinuation(first.continuation);
    const second = suspended(await parent(resumer, child, counts).resume(parseContinuation(text), decisions));
    expect(counts).toEqual({ refund: 1, charge: 1, 'charge 10': 1 });
    expect(second.actions.map((action) => [action.toolName, action.args])).toEqual([
      ['charge', { amount: 20 }],
    ]);

    const again = serializeContinuation(second.continuation);
    const done = await parent(resumer, child, counts).resume(parseContinuation(again), {
      [second.actions[0]!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ refund: 1, charge: 2, 'charge 10': 1, 'charge 20': 1 });
  },
);
