import { type JsonValue, type Message, serializeContinuation, toolCallsOf } from '@agent-continuations/core';
import {
  type Counts,
  reportResults,
  type Script,
  setupScriptedOpenAIServer,
  transferTool,
} from '@agent-continuations/testing';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

const script: Script = [
  {
    toolCalls: [
      { id: 'dup', name: 'transfer', args: { to: 'bob', amount: 500 } },
      { id: 'dup', name: 'transfer', args: { to: 'eve', amount: 700 } },
      { id: '', name: 'transfer', args: { to: 'ann', amount: 900 } },
    ],
  },
  reportResults,
];

const server = setupScriptedOpenAIServer({ scripts: {} });

const models: Record<string, (name: string) => BaseChatModel> = {
  'the scripted chat model': () => new ScriptedChatModel(script),
  'ChatOpenAI over HTTP': (name) => {
    server.setScript(name, script);
    return new ChatOpenAI({
      model: name,
      apiKey: 'test',
      maxRetries: 0,
      configuration: { baseURL: server.baseURL },
    });
  },
};

describe.each(Object.keys(models))('repeated and empty tool-call ids from %s', (modelName) => {
  for (const kind of ['react', 'create-agent', 'custom'] as const) {
    it(`become distinct actions (${kind}); each approved call runs once with its own arguments`, async () => {
      const counts: Counts = {};
      const ran: JsonValue[] = [];
      const name = `dup-${kind}-${modelName.length}`;
      const llm = models[modelName]!(name);
      const make = () =>
        fromGraph(buildGraph(kind, llm, conformanceTools([transferTool(counts, ran)]), 'Pay.'), { name });
      const first = await make().run('pay three');
      if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
      expect(first.actions.map((action) => [action.id, action.args])).toEqual([
        ['dup', { to: 'bob', amount: 500 }],
        ['dup~2', { to: 'eve', amount: 700 }],
        ['call', { to: 'ann', amount: 900 }],
      ]);
      const ids = (messages: readonly Message[]) =>
        messages.flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId));
      expect(ids(first.continuation.messages)).toEqual(['dup', 'dup~2', 'call']);
      const decisions = Object.fromEntries(
        first.actions.map((action) => [action.id, { type: 'approve' as const }]),
      );
      const done = await make().resume(serializeContinuation(first.continuation), decisions);
      if (done.status !== 'completed') throw new Error(`expected completion, got ${done.status}`);
      expect(counts.transfer).toBe(3);
      expect(ran).toEqual([
        { to: 'bob', amount: 500 },
        { to: 'eve', amount: 700 },
        { to: 'ann', amount: 900 },
      ]);
      for (const to of ['bob', 'eve', 'ann']) expect(done.output).toContain(to);
      const results = done.messages
        .filter((message) => message.role === 'tool')
        .flatMap((message) =>
          (message.content as Array<{ toolCallId: string }>).map((part) => part.toolCallId),
        );
      expect(results).toEqual(['dup', 'dup~2', 'call']);
      if (llm instanceof ChatOpenAI) {
        // The model got the calls back under the ids their results answer.
        const last = server.requests.filter((request) => request.body?.model === name).at(-1)!;
        const sent = (
          last.body.messages as Array<{ tool_calls?: Array<{ id: string }>; tool_call_id?: string }>
        )
          .flatMap((message) => [
            ...(message.tool_calls ?? []).map((call) => call.id),
            message.tool_call_id ?? [],
          ])
          .flat();
        expect(sent).toEqual(['dup', 'dup~2', 'call', 'dup', 'dup~2', 'call']);
      }
    });
  }
});
