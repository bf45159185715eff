import { createContinuableAgent, defineTool, serializeContinuation } from '@agent-continuations/core';
import {
  lastToolResults,
  type Script,
  type ScriptedOpenAIServer,
  scriptedModel,
  startScriptedOpenAIServer,
  suspended,
} from '@agent-continuations/testing';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, createAgent, tool } from '../src/index';

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const transferParameters = z.object({ to: z.string(), amount: z.number() });
const transferScript: Script = [
  { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 5 } }] },
  (request) => `sent: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
];

describe('the openai adapter with agents of another framework', () => {
  it('calls a core-engine agent as a tool; its approval surfaces through the parent and resumes it', async () => {
    let transfers = 0;
    const child = createContinuableAgent({
      name: 'payments',
      model: scriptedModel(transferScript),
      tools: [
        defineTool({
          name: 'transfer',
          parameters: transferParameters,
          needsApproval: true,
          execute: (args) => {
            transfers += 1;
            return { ok: true, ...args };
          },
        }),
      ],
    });
    server = await startScriptedOpenAIServer({
      scripts: {
        'parent-model': [
          { toolCalls: [{ name: 'payments', args: { input: 'pay bob 5' } }] },
          (request) => `parent saw: ${String(lastToolResults(request.messages)[0]?.output)}`,
        ],
      },
    });
    const parent = createAgent({
      client: new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 }),
      model: 'parent-model',
      name: 'assistant',
      tools: [agentTool(child)],
    });
    const first = suspended(await parent.run('Pay bob'));
    expect(first.actions[0]!.path.map((segment) => segment.agent)).toEqual(['assistant', 'payments']);
    expect(first.continuation.pending[0]).toMatchObject({
      kind: 'agent',
      child: { agent: { framework: 'core' } },
    });
    const done = await parent.resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(done).toMatchObject({
      status: 'completed',
      output: 'parent saw: sent: {"ok":true,"to":"bob","amount":5}',
    });
    expect(transfers).toBe(1);
  });

  it('resumes a continuation made by the core engine, sending its neutral transcript on the wire', async () => {
    let transfers = 0;
    const transfer = () =>
      tool({
        name: 'transfer',
        parameters: transferParameters,
        needsApproval: true,
        execute: (args) => {
          transfers += 1;
          return { ok: true, ...args };
        },
      });
    const core = createContinuableAgent({
      name: 'payments',
      model: scriptedModel(transferScript),
      tools: [transfer()],
    });
    const first = suspended(await core.run('pay bob 5'));

    server = await startScriptedOpenAIServer({ scripts: { 'payments-model': transferScript } });
    const openai = createAgent({
      client: new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 }),
      model: 'payments-model',
      name: 'payments',
      tools: [transfer()],
      api: 'responses',
    });
    const done = await openai.resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(done).toMatchObject({ status: 'completed', output: 'sent: {"ok":true,"to":"bob","amount":5}' });
    expect(transfers).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.input).toEqual([
      { role: 'user', content: 'pay bob 5' },
      { type: 'function_call', call_id: 'call_1_0', name: 'transfer', arguments: '{"to":"bob","amount":5}' },
      { type: 'function_call_output', call_id: 'call_1_0', output: '{"ok":true,"to":"bob","amount":5}' },
    ]);
  });
});
