/**
 * The run's `deadlines` policy reaches every adapter and every depth: a support agent built in each
 * framework, with a billing sub-agent built in each framework, suspends on a refund (its own) and a
 * charge (the sub-agent's); each action carries the deadline the policy gave it, and a resume
 * that decides one action keeps the other's deadline.
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
import { buildAgent, FRAMEWORKS, type Framework } from '../src/frameworks';

const server = setupScriptedOpenAIServer({
  scripts: {
    'deadline-parent': [
      {
        toolCalls: [
          { name: 'refund', args: { amount: 5 } },
          { name: 'billing', args: { input: 'charge the customer' } },
        ],
      },
      reportResults,
    ],
    'deadline-billing': [{ toolCalls: [{ name: 'charge', args: { amount: 10 } }] }, reportResults],
  },
});

const MINUTE = 60_000;

function approvalTool(counts: Counts, name: string) {
  return countedTool(
    counts,
    {
      name,
      description: `${name} the customer`,
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
    },
    ({ amount }) => ({ [name]: amount }),
  );
}

function support(framework: Framework, child: Framework, counts: Counts) {
  const billing = buildAgent(
    child,
    {
      name: 'billing',
      model: 'deadline-billing',
      instructions: 'You charge.',
      tools: [approvalTool(counts, 'charge')],
    },
    server.baseURL,
  );
  return buildAgent(
    framework,
    {
      name: 'support',
      model: 'deadline-parent',
      instructions: 'You help.',
      tools: [
        approvalTool(counts, 'refund'),
        { kind: 'agent', name: 'billing', description: 'Billing questions', agent: billing },
      ],
    },
    server.baseURL,
  );
}

const cases = FRAMEWORKS.flatMap((parent) => FRAMEWORKS.map((child) => [parent, child] as const));

it.each(cases)(
  'a %s agent over a %s sub-agent stamps the run policy on every action',
  async (parent, child) => {
    const counts: Counts = {};
    const before = Date.now();
    const first = suspended(
      await support(parent, child, counts).run('Refund 5, then charge.', {
        deadlines: ({ toolName }) => (toolName === 'charge' ? 10 * MINUTE : 30 * MINUTE),
      }),
    );
    const due = Object.fromEntries(
      first.actions.map((action) => [action.toolName, Date.parse(action.deadline!)]),
    );
    expect(due.refund! - before).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(due.refund! - Date.now()).toBeLessThanOrEqual(30 * MINUTE);
    expect(due.charge! - before).toBeGreaterThanOrEqual(10 * MINUTE);
    expect(due.charge! - Date.now()).toBeLessThanOrEqual(10 * MINUTE);

    const refund = first.actions.find((action) => action.toolName === 'refund')!;
    const second = suspended(
      await support(parent, child, counts).resume(
        parseContinuation(serializeContinuation(first.continuation)),
        {
          [refund.id]: { type: 'approve' },
        },
      ),
    );
    expect(second.actions.map((action) => [action.toolName, action.deadline])).toEqual([
      ['charge', new Date(due.charge!).toISOString()],
    ]);
    expect(counts).toEqual({ refund: 1 });
  },
);
