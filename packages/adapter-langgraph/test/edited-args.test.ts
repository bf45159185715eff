/**
 * Issue 10 (also in the core): after an approval with edited arguments, the model reads the
 * arguments that ran in the transcript (the audit trail keeps the ones it asked for), in parallel
 * calls, after a resume from a core continuation, and for a call answered from the record.
 */
import {
  createContinuableAgent,
  defineTool,
  type Message,
  serializeContinuation,
} from '@agent-continuations/core';
import { type Counts, reportResults, type Script, scriptedModel } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

const script: Script = [
  {
    toolCalls: [
      { name: 'transfer', args: { to: 'bob', amount: 50 } },
      { name: 'transfer', args: { to: 'eve', amount: 70 } },
    ],
  },
  reportResults,
];

function transfer(counts: Counts) {
  return tool(
    async ({ to, amount }) => {
      counts.transfer = (counts.transfer ?? 0) + 1;
      return { to, amount };
    },
    { name: 'transfer', description: 'Transfer', schema: z.object({ to: z.string(), amount: z.number() }) },
  );
}

/** The tool-call arguments of the turn the model was sent last. */
function sentCalls(llm: ScriptedChatModel): unknown[] {
  const messages: readonly Message[] = llm.requests.at(-1)!.messages;
  const turn = [...messages].reverse().find((message) => message.role === 'assistant')!;
  return (turn.content as Array<{ type: string; args?: unknown }>)
    .filter((part) => part.type === 'tool-call')
    .map((part) => part.args);
}

describe('approved with edited arguments: the model reads the arguments that ran', () => {
  for (const kind of ['react-v1', 'react-v2', 'create-agent'] as const) {
    it(`${kind}: two parallel calls, both edited`, async () => {
      const counts: Counts = {};
      const build = (llm: ScriptedChatModel) => {
        const tools = requireApproval([transfer(counts)]);
        const graph =
          kind === 'create-agent'
            ? createAgent({ model: llm, tools })
            : createReactAgent({ llm, tools, version: kind === 'react-v1' ? 'v1' : 'v2' });
        return fromGraph(graph, { name: 'payer' });
      };
      const first = await build(new ScriptedChatModel(script)).run('pay both');
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      const llm = new ScriptedChatModel(script);
      const done = await build(llm).resume(serializeContinuation(first.continuation), {
        call_1_0: { type: 'approve', args: { to: 'bob', amount: 45 } },
        call_1_1: { type: 'approve', args: { to: 'eve', amount: 60 } },
      });
      if (done.status !== 'completed') throw new Error('expected completion');
      expect(sentCalls(llm)).toEqual([
        { to: 'bob', amount: 45 },
        { to: 'eve', amount: 60 },
      ]);
      expect(done.decisions.map((entry) => [entry.args, entry.editedArgs])).toEqual([
        [
          { to: 'bob', amount: 50 },
          { to: 'bob', amount: 45 },
        ],
        [
          { to: 'eve', amount: 70 },
          { to: 'eve', amount: 60 },
        ],
      ]);
      expect(counts).toEqual({ transfer: 2 });
    });
  }

  it('one edited now, the other decided later: the turn keeps the edit', async () => {
    const counts: Counts = {};
    const build = (llm = new ScriptedChatModel(script)) =>
      fromGraph(createReactAgent({ llm, tools: requireApproval([transfer(counts)]), version: 'v2' }), {
        name: 'payer',
      });
    const first = await build().run('pay both');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const second = await build().resume(serializeContinuation(first.continuation), {
      call_1_0: { type: 'approve', args: { to: 'bob', amount: 45 } },
    });
    if (second.status !== 'suspended') throw new Error('expected a suspension');
    const llm = new ScriptedChatModel(script);
    const done = await build(llm).resume(serializeContinuation(second.continuation), {
      call_1_1: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    expect(sentCalls(llm)).toEqual([
      { to: 'bob', amount: 45 },
      { to: 'eve', amount: 70 },
    ]);
    expect(counts).toEqual({ transfer: 2 });
  });

  it('a core continuation resumed by LangGraph with an edit', async () => {
    const counts: Counts = {};
    const core = createContinuableAgent({
      name: 'payer',
      model: scriptedModel(script),
      tools: [
        defineTool({
          name: 'transfer',
          parameters: z.object({ to: z.string(), amount: z.number() }),
          needsApproval: true,
          execute: async (args) => args,
        }),
      ],
    });
    const first = await core.run('pay both');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const llm = new ScriptedChatModel(script);
    const graph = createReactAgent({ llm, tools: requireApproval([transfer(counts)]), version: 'v2' });
    const done = await fromGraph(graph, { name: 'payer' }).resume(serializeContinuation(first.continuation), {
      call_1_0: { type: 'approve', args: { to: 'bob', amount: 45 } },
      call_1_1: { type: 'reject', reason: 'no' },
    });
    expect(done.status).toBe('completed');
    expect(sentCalls(llm)).toEqual([
      { to: 'bob', amount: 45 },
      { to: 'eve', amount: 70 },
    ]);
    expect(counts).toEqual({ transfer: 1 });
  });
});
