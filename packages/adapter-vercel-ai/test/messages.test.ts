import type { Message } from '@agent-continuations/core';
import { messageSchema } from '@agent-continuations/core/zod';
import type { Script } from '@agent-continuations/testing';
import { type ModelMessage, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { continuable, toModelMessages, toNeutralMessages } from '../src/index';
import { scriptedLanguageModel } from './support/scripted-language-model';

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]);
const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** One conversation with every part type the AI SDK has, with provider options here and there. */
const conversation: ModelMessage[] = [
  { role: 'system', content: 'You are terse.', providerOptions: cache },
  { role: 'user', content: 'plain text' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Look at these', providerOptions: cache },
      { type: 'image', image: new URL('https://example.com/cat.png') },
      { type: 'image', image: png, mediaType: 'image/png' },
      {
        type: 'image',
        image: 'aGVsbG8=',
        mediaType: 'image/jpeg',
        providerOptions: { openai: { imageDetail: 'low' } },
      },
      { type: 'file', data: png, mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'file', data: 'data:text/plain;base64,aGk=', mediaType: 'text/plain' },
    ],
    providerOptions: { openai: { user: 'u-1' } },
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'thinking', providerOptions: { anthropic: { signature: 'sig-1' } } },
      { type: 'text', text: 'Calling tools.' },
      { type: 'file', data: 'aGVsbG8=', mediaType: 'image/png' },
      {
        type: 'tool-call',
        toolCallId: 'web-1',
        toolName: 'web_search',
        input: { q: 'cats' },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: 'web-1',
        toolName: 'web_search',
        output: { type: 'json', value: { hits: 3 } },
      },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'lookup',
        input: { id: 7 },
        providerOptions: { openai: { itemId: 'fc_1' } },
      },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'transfer', input: { amount: 5 } },
      { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c2' },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'lookup', input: { id: 8 } },
      { type: 'tool-call', toolCallId: 'c4', toolName: 'lookup', input: { id: 9 } },
      { type: 'tool-call', toolCallId: 'c5', toolName: 'lookup', input: { id: 10 } },
      { type: 'tool-call', toolCallId: 'c6', toolName: 'lookup', input: { id: 11 } },
      { type: 'tool-call', toolCallId: 'c7', toolName: 'lookup', input: { id: 12 } },
      { type: 'tool-call', toolCallId: 'c8', toolName: 'lookup', input: { id: 13 } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'lookup',
        output: { type: 'json', value: { name: 'Ann' } },
      },
      { type: 'tool-approval-response', approvalId: 'a1', approved: false, reason: 'too risky' },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'transfer',
        output: { type: 'execution-denied', reason: 'too risky' },
      },
      { type: 'tool-result', toolCallId: 'c3', toolName: 'lookup', output: { type: 'text', value: 'Bob' } },
      {
        type: 'tool-result',
        toolCallId: 'c4',
        toolName: 'lookup',
        output: { type: 'json', value: 'a string as json' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c5',
        toolName: 'lookup',
        output: { type: 'error-text', value: 'not found' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c6',
        toolName: 'lookup',
        output: { type: 'error-json', value: { code: 404 } },
      },
      {
        type: 'tool-result',
        toolCallId: 'c7',
        toolName: 'lookup',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'a picture:' },
            { type: 'image-data', data: 'aGVsbG8=', mediaType: 'image/png' },
          ],
        },
      },
      {
        type: 'tool-result',
        toolCallId: 'c8',
        toolName: 'lookup',
        output: { type: 'json', value: { n: 1 }, providerOptions: { openai: { x: 1 } } },
        providerOptions: cache,
      },
    ],
  },
  { role: 'assistant', content: 'All done.' },
];

describe('ModelMessage <-> neutral messages', () => {
  it('round-trips every part type, provider options included, also through JSON text', () => {
    const neutral = toNeutralMessages(conversation);
    for (const message of neutral) expect(messageSchema.safeParse(message).success).toBe(true);
    expect(toModelMessages(neutral)).toEqual(conversation);
    const stored = JSON.parse(JSON.stringify(neutral)) as Message[];
    expect(toModelMessages(stored)).toEqual(conversation);
  });

  it('gives other frameworks plain neutral parts, with provider options in providerMetadata', () => {
    const neutral = toNeutralMessages(conversation);
    const assistant = neutral[3]!;
    expect(assistant.role).toBe('assistant');
    const calls = (assistant.content as Exclude<typeof assistant.content, string>).filter(
      (part) => part.type === 'tool-call',
    );
    // The provider-executed call is not one the engine should run; approval parts are not calls.
    expect(calls.map((call) => call.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8']);
    expect(calls[0]!.providerMetadata).toEqual({ openai: { itemId: 'fc_1' } });
    expect(calls[0]!.args).toEqual({ id: 7 });
    const results = neutral[4]!.content as Array<{ output: unknown; isError?: boolean }>;
    expect(results.map((result) => [result.output, result.isError ?? false])).toEqual([
      [{ name: 'Ann' }, false],
      ['too risky', true],
      ['Bob', false],
      ['a string as json', false],
      ['not found', true],
      [{ code: 404 }, true],
      [
        [
          { type: 'text', text: 'a picture:' },
          { type: 'image-data', data: 'aGVsbG8=', mediaType: 'image/png' },
        ],
        false,
      ],
      [{ n: 1 }, false],
    ]);
    const user = neutral[2]!.content as Array<{ type: string; image?: string; data?: string }>;
    expect(user[1]!.image).toBe('https://example.com/cat.png');
    expect(user[2]!.image).toBe(btoa(String.fromCharCode(...png)));
  });

  it('converts neutral messages made elsewhere without adding anything', () => {
    const neutral: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'lookup', args: { id: 1 } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'x', toolName: 'lookup', output: 'Ann' }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'y', toolName: 'lookup', output: { e: 1 }, isError: true },
        ],
      },
    ];
    const model = toModelMessages(neutral);
    expect(model[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'x', toolName: 'lookup', input: { id: 1 } }],
    });
    expect(model[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'x', toolName: 'lookup', output: { type: 'text', value: 'Ann' } },
      ],
    });
    expect((model[3]!.content as Array<{ output: unknown }>)[0]!.output).toEqual({
      type: 'error-json',
      value: { e: 1 },
    });
    expect(toNeutralMessages(model)).toEqual(neutral);
  });

  it('resumes a run started from an AI SDK conversation with that history intact', async () => {
    const history: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Earlier question', providerOptions: cache }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hmm', providerOptions: { anthropic: { signature: 's' } } },
          { type: 'text', text: 'Earlier answer' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Pay for this invoice' },
          {
            type: 'image',
            image: png,
            mediaType: 'image/png',
            providerOptions: { openai: { imageDetail: 'high' } },
          },
        ],
      },
    ];
    const script: Script = [
      'unused',
      { toolCalls: [{ name: 'pay', args: { amount: 12 } }] },
      'Paid.',
    ] as const;
    const build = () => {
      const model = scriptedLanguageModel(script);
      const agent = continuable(
        new ToolLoopAgent({
          model,
          tools: {
            pay: tool({
              inputSchema: z.object({ amount: z.number() }),
              needsApproval: true,
              execute: async () => 'ok',
            }),
          },
        }),
        { name: 'payer' },
      );
      return { model, agent };
    };
    const first = build();
    const suspended = await first.agent.run(history);
    if (suspended.status !== 'suspended') throw new Error('expected a suspension');
    const firstPrompt = first.model.doGenerateCalls[0]!.prompt;

    const second = build();
    const done = await second.agent.resume(JSON.stringify(suspended.continuation), {
      [suspended.actions[0]!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    const resumedPrompt = second.model.doGenerateCalls[0]!.prompt;
    // The history the model sees after a resume in a fresh agent is the one it saw first, part for part.
    expect(resumedPrompt.slice(0, firstPrompt.length)).toEqual(firstPrompt);
    expect(firstPrompt[0]!.content).toEqual([
      { type: 'text', text: 'Earlier question', providerOptions: cache },
    ]);
    expect(JSON.stringify(firstPrompt)).toContain('"imageDetail":"high"');
    expect(toModelMessages(suspended.continuation.messages).slice(0, 3)).toEqual(history);
  });
});
