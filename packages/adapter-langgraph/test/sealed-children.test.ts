/**
 * A sealed LangGraph parent holding a sealed sub-agent that suspends twice: each suspension goes
 * out as JSON text, comes back with approvals, and the child resumes from the very continuation it
 * sealed (a LangGraph child's own state holds values LangGraph would revive from a checkpoint).
 */
import {
  type ContinuableAgent,
  createContinuableAgent,
  type Decisions,
  defineTool,
  listActions,
  type RunResult,
} from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { graphHarness } from './harness';

const seal = { secret: 'sealed-children-secret' };

function approveAll(result: RunResult<unknown>): Decisions {
  expect(result.status).toBe('suspended');
  const { continuation } = result as { continuation: Parameters<typeof listActions>[0] };
  return Object.fromEntries(listActions(continuation).map((action) => [action.id, { type: 'approve' }]));
}

/** Run the parent, then approve each suspension through JSON text until it ends. */
async function approveThrough(parent: ContinuableAgent<string, unknown>) {
  const statuses: string[] = [];
  let result: RunResult<unknown> = await parent.run('go');
  statuses.push(result.status);
  while (result.status === 'suspended' && statuses.length < 5) {
    const text = JSON.stringify(result.continuation);
    result = await parent.resume(text, approveAll(result));
    statuses.push(result.status);
  }
  return { result, statuses };
}

async function sealedParent(child: ContinuableAgent<string, unknown>) {
  return graphHarness('custom').createAgent({
    name: 'sealed-parent',
    instructions: 'Delegate.',
    seal,
    tools: [{ kind: 'agent', name: 'child', description: 'The paying sub-agent.', agent: child }],
    script: [{ toolCalls: [{ name: 'child', args: { input: 'pay' } }] }, 'done'],
  }) as Promise<ContinuableAgent<string, unknown>>;
}

describe('a sealed sub-agent that suspends twice, under a sealed LangGraph parent', () => {
  it('a LangGraph child: approve, approve, completes, each payment once', async () => {
    const paid: string[] = [];
    const child = await graphHarness('custom').createAgent({
      name: 'sealed-child',
      instructions: 'Pay twice.',
      seal,
      tools: [
        {
          kind: 'function',
          name: 'pay',
          description: 'Pay someone.',
          parameters: z.object({ n: z.string() }),
          needsApproval: true,
          execute: async ({ n }: { n: string }) => {
            paid.push(n);
            return n;
          },
        },
      ],
      script: [
        { toolCalls: [{ name: 'pay', args: { n: 'a' } }] },
        { toolCalls: [{ name: 'pay', args: { n: 'b' } }] },
        'paid',
      ],
    });
    const { result, statuses } = await approveThrough(await sealedParent(child as never));
    expect(statuses).toEqual(['suspended', 'suspended', 'completed']);
    expect(result.status).toBe('completed');
    expect(paid).toEqual(['a', 'b']);
  });

  it('a core engine child: approve, approve, completes, each tool once', async () => {
    const counts = { first: 0, second: 0 };
    const child = createContinuableAgent({
      name: 'engine-child',
      seal,
      model: scriptedModel([
        { toolCalls: [{ name: 'first', args: {} }] },
        { toolCalls: [{ name: 'second', args: {} }] },
        'paid',
      ]),
      tools: [
        defineTool({
          name: 'first',
          parameters: z.object({}),
          needsApproval: true,
          execute: async () => ++counts.first,
        }),
        defineTool({
          name: 'second',
          parameters: z.object({}),
          needsApproval: true,
          execute: async () => ++counts.second,
        }),
      ],
    });
    const { result, statuses } = await approveThrough(await sealedParent(child));
    expect(statuses).toEqual(['suspended', 'suspended', 'completed']);
    expect(result.status).toBe('completed');
    expect(counts).toEqual({ first: 1, second: 1 });
  });
});
