import { createContinuableAgent, defineTool, serializeContinuation } from '@agent-continuations/core';
import {
  type Counts,
  lastToolResults,
  reportResults,
  type Script,
  scriptedModel,
} from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

const script: Script = [
  {
    toolCalls: [
      { name: 'lookup_account', args: { account: 'A-1' } },
      { name: 'transfer', args: { to: 'bob', amount: 50 } },
    ],
  },
  reportResults,
];

function coreAgent(counts: Counts) {
  return createContinuableAgent({
    name: 'accounts',
    model: scriptedModel(script),
    tools: [
      defineTool({
        name: 'lookup_account',
        parameters: z.object({ account: z.string() }),
        execute: async ({ account }) => {
          counts.lookup = (counts.lookup ?? 0) + 1;
          return { account, balance: 120 };
        },
      }),
      defineTool({
        name: 'transfer',
        parameters: z.object({ to: z.string(), amount: z.number() }),
        needsApproval: true,
        execute: async ({ to, amount }) => {
          counts.transfer = (counts.transfer ?? 0) + 1;
          return { ok: true, to, amount };
        },
      }),
    ],
  });
}

/** The same two tools as LangChain tools. */
function lcTools(counts: Counts) {
  const lookup = tool(
    async ({ account }) => {
      counts.lookup = (counts.lookup ?? 0) + 1;
      return { account, balance: 120 };
    },
    { name: 'lookup_account', description: 'Look up', schema: z.object({ account: z.string() }) },
  );
  const transfer = tool(
    async ({ to, amount }) => {
      counts.transfer = (counts.transfer ?? 0) + 1;
      return { ok: true, to, amount };
    },
    { name: 'transfer', description: 'Transfer', schema: z.object({ to: z.string(), amount: z.number() }) },
  );
  return [lookup, transfer] as const;
}

function graphAgent(counts: Counts) {
  const [lookup, transfer] = lcTools(counts);
  const llm = new ScriptedChatModel(script);
  return fromGraph(
    createReactAgent({ llm, tools: requireApproval([lookup, transfer], ['transfer']), version: 'v2' }),
    {
      name: 'accounts',
    },
  );
}

describe('cross-framework resume', () => {
  it('a core continuation resumes in a LangGraph graph from the neutral messages alone', async () => {
    const counts: Counts = {};
    const first = await coreAgent(counts).run('check and pay');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.continuation.state).toBeUndefined();
    expect(counts).toEqual({ lookup: 1 });
    const done = await graphAgent(counts).resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    if (done.status !== 'completed') return;
    expect(counts).toEqual({ lookup: 1, transfer: 1 });
    expect(done.output).toBe(
      'done: lookup_account={"account":"A-1","balance":120} | transfer={"ok":true,"to":"bob","amount":50}',
    );
  });

  it('a LangGraph continuation resumes in the core engine, which ignores its state', async () => {
    const counts: Counts = {};
    const first = await graphAgent(counts).run('check and pay');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.continuation.agent.framework).toBe('langgraph');
    const done = await coreAgent(counts).resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    if (done.status !== 'completed') return;
    expect(counts).toEqual({ lookup: 1, transfer: 1 });
    expect(lastToolResults(done.messages.slice(0, -1)).map((r) => r.toolName)).toEqual([
      'lookup_account',
      'transfer',
    ]);
  });

  it('a LangGraph continuation without its state resumes from the neutral messages', async () => {
    const counts: Counts = {};
    const first = await graphAgent(counts).run('check and pay');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const { state: _state, ...bare } = first.continuation;
    const done = await graphAgent(counts).resume(bare, {
      [first.actions[0]!.id]: { type: 'reject', reason: 'no' },
    });
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ lookup: 1 });
  });

  it('a core continuation resumes in createAgent whose middleware asks again, answered by the same decision', async () => {
    const counts: Counts = {};
    const first = await coreAgent(counts).run('check and pay');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const [lookup, transfer] = lcTools(counts);
    const graph = createAgent({
      model: new ScriptedChatModel(script),
      tools: [lookup, transfer],
      middleware: [humanInTheLoopMiddleware({ interruptOn: { transfer: true } })],
    });
    const done = await fromGraph(graph, { name: 'accounts' }).resume(
      serializeContinuation(first.continuation),
      {
        [first.actions[0]!.id]: { type: 'approve', args: { to: 'bob', amount: 45 } },
      },
    );
    expect(done.status).toBe('completed');
    if (done.status === 'completed')
      expect(done.output).toContain('transfer={"ok":true,"to":"bob","amount":45}');
    expect(counts).toEqual({ lookup: 1, transfer: 1 });
  });

  it('a core agent nests under a LangGraph parent; its approval surfaces and resumes through both', async () => {
    const counts: Counts = {};
    const parent = () =>
      fromGraph(
        createReactAgent({
          llm: new ScriptedChatModel([
            { toolCalls: [{ name: 'accounts', args: { input: 'check and pay' } }] },
            reportResults,
          ]),
          tools: [agentTool(coreAgent(counts))],
          version: 'v2',
        }),
        { name: 'desk' },
      );
    const first = await parent().run('handle it');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const [action] = first.actions;
    expect(action!.path.map((segment) => [segment.agent, segment.toolName])).toEqual([
      ['desk', 'accounts'],
      ['accounts', 'transfer'],
    ]);
    expect(first.continuation.pending[0]).toMatchObject({
      kind: 'agent',
      child: { agent: { framework: 'core' } },
    });
    const done = await parent().resume(serializeContinuation(first.continuation), {
      [action!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ lookup: 1, transfer: 1 });
    if (done.status === 'completed') expect(done.output).toContain('accounts="done: lookup_account=');
  });
});
