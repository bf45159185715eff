/**
 * Issue 10 item 4: a continuation made by the core engine that waits on a top-level approval and
 * on a nested one (a sub-agent that suspended), resumed by each kind of LangGraph agent with both
 * decided, while the sub-agent then suspends again. Every approved tool runs once.
 */
import {
  agentTool as coreAgentTool,
  createContinuableAgent,
  defineTool,
  serializeContinuation,
} from '@agent-continuations/core';
import { type Counts, reportResults, type Script, scriptedModel } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

const bump = (counts: Counts, name: string) => {
  counts[name] = (counts[name] ?? 0) + 1;
};

/** The billing sub-agent (core engine): asks to charge 10, then to charge 20, then reports. */
function billing(counts: Counts) {
  return createContinuableAgent({
    name: 'billing',
    model: scriptedModel([
      { toolCalls: [{ name: 'charge', args: { amount: 10 } }] },
      { toolCalls: [{ name: 'charge', args: { amount: 20 } }] },
      reportResults,
    ]),
    tools: [
      defineTool({
        name: 'charge',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: async ({ amount }) => {
          bump(counts, `charge ${amount}`);
          return { charged: amount };
        },
      }),
    ],
  });
}

const parentScript: Script = [
  {
    toolCalls: [
      { name: 'refund', args: { order: 'o-1' } },
      { name: 'billing', args: { input: 'charge the customer' } },
    ],
  },
  reportResults,
];

function coreParent(counts: Counts) {
  return createContinuableAgent({
    name: 'support',
    model: scriptedModel(parentScript),
    tools: [
      defineTool({
        name: 'refund',
        parameters: z.object({ order: z.string() }),
        needsApproval: true,
        execute: async ({ order }) => {
          bump(counts, 'refund');
          return { refunded: order };
        },
      }),
      coreAgentTool(billing(counts)),
    ],
  });
}

type Kind = 'react-v1' | 'react-v2' | 'create-agent';

function graphParent(kind: Kind, counts: Counts) {
  const refund = tool(
    async ({ order }) => {
      bump(counts, 'refund');
      return { refunded: order };
    },
    { name: 'refund', description: 'Refund an order', schema: z.object({ order: z.string() }) },
  );
  const tools = [...requireApproval([refund]), agentTool(billing(counts))];
  const llm = new ScriptedChatModel(parentScript);
  const graph =
    kind === 'create-agent'
      ? createAgent({ model: llm, tools })
      : createReactAgent({ llm, tools, version: kind === 'react-v1' ? 'v1' : 'v2' });
  return fromGraph(graph, { name: 'support' });
}

describe('a core continuation with a top-level and a nested decision, resumed by LangGraph', () => {
  for (const kind of ['react-v1', 'react-v2', 'create-agent'] as const) {
    it(`${kind}: each approved tool runs once while the sub-agent suspends again`, async () => {
      const counts: Counts = {};
      const first = await coreParent(counts).run('refund and charge');
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      expect(first.actions.map((action) => action.toolName).sort()).toEqual(['charge', 'refund']);
      const decisions = Object.fromEntries(
        first.actions.map((action) => [action.id, { type: 'approve' as const }]),
      );
      const second = await graphParent(kind, counts).resume(
        serializeContinuation(first.continuation),
        decisions,
      );
      expect(counts).toEqual({ refund: 1, 'charge 10': 1 });
      if (second.status !== 'suspended') throw new Error(`expected a suspension, got ${second.status}`);
      expect(second.actions.map((action) => [action.toolName, action.args])).toEqual([
        ['charge', { amount: 20 }],
      ]);
      const done = await graphParent(kind, counts).resume(serializeContinuation(second.continuation), {
        [second.actions[0]!.id]: { type: 'approve' },
      });
      expect(counts).toEqual({ refund: 1, 'charge 10': 1, 'charge 20': 1 });
      expect(done.status).toBe('completed');
      if (done.status === 'completed') {
        expect(done.output).toContain('refund={"refunded":"o-1"}');
        expect(done.output).toContain('billing="done: charge={\\"charged\\":20}"');
      }
    });
  }
});
