/**
 * Cross-framework resume: a continuation made by this adapter resumes in the raw-openai adapter,
 * and one made there resumes here, given an agent of the same name with tools of the same names.
 * The next model call gets the whole transcript, and the approved transfer runs once.
 */
import { type ContinuableAgent, parseContinuation, serializeContinuation } from '@agent-continuations/core';
import { createAgent, tool as openaiTool } from '@agent-continuations/openai';
import { lastToolResults, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, tool } from '@openai/agents';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { continuable } from '../src/index';
import { sdkModel } from './harness';

const server = setupScriptedOpenAIServer({ scripts: {} });

const parameters = z.object({ to: z.string(), amount: z.number() });
type Counts = { transfer?: number };
const execute = (counts: Counts) => async (args: z.infer<typeof parameters>) => {
  counts.transfer = (counts.transfer ?? 0) + 1;
  return { sent: args.amount, to: args.to };
};

function agentsBank(api: 'chat' | 'responses', counts: Counts): ContinuableAgent {
  return continuable(
    new Agent({
      name: 'bank',
      instructions: 'You move money.',
      model: sdkModel(api, server, 'bank'),
      tools: [
        tool({
          name: 'transfer',
          description: 'Send money',
          parameters,
          needsApproval: true,
          execute: execute(counts),
        }),
      ],
    }),
  );
}

function openaiBank(api: 'chat' | 'responses', counts: Counts): ContinuableAgent {
  return createAgent({
    // The raw adapter takes openai 6 or 7; this package tests with 7, the raw adapter's types are 6's.
    client: new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 }) as never,
    model: 'bank',
    name: 'bank',
    instructions: 'You move money.',
    api,
    tools: [openaiTool({ name: 'transfer', parameters, needsApproval: true, execute: execute(counts) })],
  });
}

const makers = { 'openai-agents': agentsBank, openai: openaiBank } as const;
const pairs = [
  ['openai-agents', 'openai'],
  ['openai', 'openai-agents'],
] as const;

describe.each(['chat', 'responses'] as const)('handoff with the raw-openai adapter (%s)', (api) => {
  it.each(pairs)('made by %s, resumed by %s: the transfer runs once', async (from, to) => {
    server.setScript('bank', [
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
      (request) => `Done: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
    ]);
    const counts: Counts = {};
    const first = await makers[from](api, counts).run('Send 50 to bob');
    if (first.status !== 'suspended') throw new Error('expected an approval');
    const text = serializeContinuation(first.continuation);
    expect(parseContinuation(text).agent.framework).toBe(from);
    const before = server.requests.length;
    const done = await makers[to](api, counts).resume(text, {
      [first.actions[0]!.id]: { type: 'approve', by: 'ann' },
    });
    expect(done).toMatchObject({ status: 'completed', output: 'Done: {"sent":50,"to":"bob"}' });
    expect(counts).toEqual({ transfer: 1 });
    // The resuming adapter sent the user's message, the call and its result on the wire.
    const sent = JSON.stringify(server.requests.slice(before)[0]!.body);
    expect(sent).toContain('Send 50 to bob');
    expect(sent).toContain('{\\"sent\\":50,\\"to\\":\\"bob\\"}');
  });
});
