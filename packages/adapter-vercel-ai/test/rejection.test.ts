/**
 * A rejected call reaches the AI SDK's model as the SDK's own denied execution: read from the
 * core's `rejected` mark, and, in continuations written before the mark, from the core's rejection
 * text. The neutral messages and the SDK's agree both ways.
 */
import type { Continuation, Message } from '@agent-continuations/core';
import { rejectionMessage } from '@agent-continuations/core/adapter-kit';
import { suspended } from '@agent-continuations/testing';
import { type ModelMessage, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { continuable, toModelMessages, toNeutralMessages } from '../src/index';
import { isUnmarkedRejection } from '../src/rejection';
import { type ScriptedLanguageModel, scriptedLanguageModel } from './support/scripted-language-model';

/** Bob's and eve's transfers in one turn, each needing approval. */
function payments() {
  const ran: string[] = [];
  const model = scriptedLanguageModel([
    {
      toolCalls: [
        { name: 'transfer', args: { to: 'bob', amount: 10 } },
        { name: 'transfer', args: { to: 'eve', amount: 20 } },
      ],
    },
    'Done.',
  ]);
  const transfer = tool({
    inputSchema: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async ({ to }) => {
      ran.push(to);
      return { sent: to };
    },
  });
  const agent = continuable(new ToolLoopAgent({ model, tools: { transfer } }), { name: 'payments' });
  return { agent, model, ran };
}

/** The outputs of the tool results in the provider prompt of the model's `call`th call, by call id. */
function promptOutputs(model: ScriptedLanguageModel, call: number): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const message of model.doGenerateCalls[call]!.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result') outputs[part.toolCallId] = part.output;
  }
  return outputs;
}

/** Bob's transfer rejected, eve's still waiting: `done` holds the rejection. */
async function bobRejected() {
  const setup = payments();
  const first = suspended(await setup.agent.run('Pay bob and eve'));
  const [bob, eve] = first.actions;
  const half = suspended(
    await setup.agent.resume(first.continuation, { [bob!.id]: { type: 'reject', reason: 'unknown payee' } }),
  );
  return { ...setup, half: half.continuation, bob: bob!, eve: eve! };
}

const denied = { type: 'execution-denied', reason: rejectionMessage('unknown payee') };

describe('a rejected call, as the AI SDK model reads it', () => {
  it('is a denied execution, read from the core mark', async () => {
    const { agent, model, ran, half, bob, eve } = await bobRejected();
    expect(half.done[0]).toMatchObject({ toolCallId: bob.toolCallId, rejected: true });
    const done = await agent.resume(half, { [eve.id]: { type: 'approve' } });
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['eve']);
    expect(promptOutputs(model, 1)).toEqual({
      [bob.toolCallId]: denied,
      [eve.toolCallId]: { type: 'json', value: { sent: 'eve' } },
    });
  });

  it('is a denied execution in a continuation written before the mark, read from its text', async () => {
    const { agent, model, half, bob, eve } = await bobRejected();
    // What an older release saved: the same rejection without the mark.
    const older: Continuation = {
      ...half,
      done: half.done.map(({ rejected: _, ...entry }) => entry),
    };
    const done = await agent.resume(older, { [eve.id]: { type: 'approve' } });
    expect(done.status).toBe('completed');
    if (done.status !== 'completed') return;
    const results = done.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));
    expect(results[0]).not.toHaveProperty('rejected');
    expect(promptOutputs(model, 1)[bob.toolCallId]).toEqual(denied);
  });
});

describe('rejections between neutral and AI SDK messages', () => {
  const neutral: Message[] = [
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'transfer',
          output: rejectionMessage('no'),
          isError: true,
          rejected: true,
        },
      ],
    },
  ];
  const sdk: ModelMessage[] = [
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'transfer',
          output: { type: 'execution-denied', reason: rejectionMessage('no') },
        },
      ],
    },
  ];

  it('a marked rejection is a denied execution, and a denied execution a marked rejection', () => {
    expect(toModelMessages(neutral)).toEqual(sdk);
    expect(toNeutralMessages(sdk)).toEqual(neutral);
  });

  it('a denied execution without a reason keeps its own form', () => {
    const bare: ModelMessage[] = [
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'transfer',
            output: { type: 'execution-denied' },
          },
        ],
      },
    ];
    const [message] = toNeutralMessages(bare);
    expect(message).toMatchObject({ content: [{ isError: true, rejected: true }] });
    expect(toModelMessages([message!])).toEqual(bare);
  });

  it('only an unmarked error result with the exact rejection text is read as an older rejection', () => {
    const part = (neutral[0] as Extract<Message, { role: 'tool' }>).content[0]!;
    const { rejected: _, ...older } = part;
    expect(isUnmarkedRejection(older)).toBe(true);
    expect(isUnmarkedRejection({ ...older, output: rejectionMessage() })).toBe(true);
    expect(isUnmarkedRejection(part)).toBe(false);
    expect(isUnmarkedRejection({ ...older, isError: false })).toBe(false);
    expect(isUnmarkedRejection({ ...older, output: `${rejectionMessage('no')} Really.` })).toBe(false);
    expect(isUnmarkedRejection({ ...older, output: { error: rejectionMessage('no') } })).toBe(false);
  });
});
