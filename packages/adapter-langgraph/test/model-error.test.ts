/**
 * Issue 10 item 5: a model call that fails after an approved tool ran throws the core's
 * `ModelCallError` with the last good state; resuming it retries the model call and the tool does
 * not run again. Over `ChatOpenAI` and the scripted HTTP server (a 500), and over a chat model that
 * throws; through `resumeStored`, the store keeps that state instead of marking the run completed.
 */
import {
  type Continuation,
  createMemoryStore,
  isContinuationError,
  ModelCallError,
  resumeStored,
  serializeContinuation,
} from '@agent-continuations/core';
import {
  type Counts,
  reportResults,
  type Script,
  setupScriptedOpenAIServer,
} from '@agent-continuations/testing';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

const script: Script = [{ toolCalls: [{ name: 'transfer', args: { to: 'bob' } }] }, reportResults];

type Kind = 'react-v1' | 'react-v2' | 'create-agent';

function agent(kind: Kind, llm: BaseChatModel, counts: Counts) {
  const transfer = tool(
    async ({ to }) => {
      counts.transfer = (counts.transfer ?? 0) + 1;
      return `paid ${to}`;
    },
    { name: 'transfer', description: 'Transfer', schema: z.object({ to: z.string() }) },
  );
  const tools = requireApproval([transfer]);
  const graph =
    kind === 'create-agent'
      ? createAgent({ model: llm, tools })
      : createReactAgent({ llm, tools, version: kind === 'react-v1' ? 'v1' : 'v2' });
  return fromGraph(graph, { name: 'payer' });
}

async function modelError(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isContinuationError(error, 'MODEL_ERROR'))
    throw new Error(`expected MODEL_ERROR, got ${String(error)}`);
  return error as ModelCallError;
}

const server = setupScriptedOpenAIServer({ scripts: {} });

describe('a model call that fails after an approved tool ran', () => {
  for (const kind of ['react-v1', 'react-v2', 'create-agent'] as const) {
    it(`${kind} over ChatOpenAI: a 500 throws ModelCallError; resuming it retries the call, the tool ran once`, async () => {
      const model = `payer-${kind}`;
      server.setScript(model, script);
      const llm = () =>
        new ChatOpenAI({ model, apiKey: 'test', maxRetries: 0, configuration: { baseURL: server.baseURL } });
      const counts: Counts = {};
      const first = await agent(kind, llm(), counts).run('pay bob');
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      server.fail(1, { status: 500, message: 'upstream broke' });
      const error = await modelError(
        agent(kind, llm(), counts).resume(serializeContinuation(first.continuation), {
          [first.actions[0]!.id]: { type: 'approve' },
        }),
      );
      expect(error).toBeInstanceOf(ModelCallError);
      expect(counts).toEqual({ transfer: 1 });
      const saved: Continuation = error.continuation;
      expect(saved.pending).toEqual([]);
      expect(saved.suspendedBy).toEqual({ type: 'checkpoint' });
      expect(saved.messages.at(-1)).toMatchObject({
        role: 'tool',
        content: [{ toolName: 'transfer', output: 'paid bob' }],
      });
      const done = await agent(kind, llm(), counts).resume(serializeContinuation(saved));
      expect(done.status).toBe('completed');
      if (done.status === 'completed') expect(done.output).toBe('done: transfer="paid bob"');
      expect(counts).toEqual({ transfer: 1 });
    });
  }

  it('a chat model that throws: the same, and resumeStored keeps the last good state in the store', async () => {
    let failures = 1;
    const flaky = [
      script[0]!,
      (request: Parameters<typeof reportResults>[0]) => {
        if (failures-- > 0) throw new Error('provider overloaded (503)');
        return reportResults(request);
      },
    ];
    const counts: Counts = {};
    const store = createMemoryStore();
    const first = await agent('react-v2', new ScriptedChatModel(flaky), counts).run('pay bob');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    await store.save(first.continuation);
    const id = first.continuation.id;
    const error = await modelError(
      resumeStored(store, agent('react-v2', new ScriptedChatModel(flaky), counts), id, {
        [first.actions[0]!.id]: { type: 'approve' },
      }),
    );
    expect(error.message).toContain('provider overloaded (503)');
    expect(counts).toEqual({ transfer: 1 });
    const [record] = (await store.list({ status: 'suspended' })).items;
    if (!record) throw new Error('expected the last good state in the store');
    const done = await resumeStored(
      store,
      agent('react-v2', new ScriptedChatModel(flaky), counts),
      record.id,
    );
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ transfer: 1 });
  });
});
