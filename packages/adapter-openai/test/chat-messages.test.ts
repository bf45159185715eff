import type { Message } from '@agent-continuations/core';
import { messageSchema } from '@agent-continuations/core/zod';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fromChatAssistant, fromChatMessages, toChatMessages } from '../src/index';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

/** Chat -> neutral -> chat gives back the same messages, and the neutral form is valid. */
function roundTrip(messages: ChatMessage[]): Message[] {
  const neutral = fromChatMessages(messages);
  for (const message of neutral) expect(() => messageSchema.parse(message)).not.toThrow();
  // Through JSON text, as a continuation travels.
  const revived = JSON.parse(JSON.stringify(neutral)) as Message[];
  expect(toChatMessages(revived)).toEqual(messages);
  return neutral;
}

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('chat messages <-> neutral messages', () => {
  it('text: system, developer with a name, user and assistant', () => {
    const neutral = roundTrip([
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Use EUR.', name: 'ops' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'system', content: [{ type: 'text', text: 'parts' }] },
    ]);
    expect(neutral.slice(2, 4)).toEqual([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Hello.' }],
      },
    ]);
  });

  it('images, audio and files in user messages', () => {
    const neutral = roundTrip([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          { type: 'file', file: { file_id: 'file-123' } },
        ],
      },
    ]);
    const parts = neutral[0]!.content as Exclude<Message['content'], string>;
    expect(parts.map((part) => part.type)).toEqual(['text', 'image', 'image', 'file', 'file', 'file']);
    expect(parts[2]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(parts[3]).toMatchObject({ type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' });
    expect(parts[4]).toMatchObject({ type: 'file', mediaType: 'application/pdf', filename: 'a.pdf' });
  });

  it('parallel tool calls and their results, with tool names paired by id', () => {
    const neutral = roundTrip([
      { role: 'user', content: 'Balances?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'lookup', '{"id":"A1"}'), call('c2', 'lookup', '{"id":"B2"}')],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"balance":10}' },
      { role: 'tool', tool_call_id: 'c2', content: 'Account closed' },
      { role: 'assistant', content: 'A1 has 10; B2 is closed.' },
    ]);
    expect(neutral[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', args: { id: 'A1' } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'lookup', args: { id: 'B2' } },
      ],
    });
    expect(neutral[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', output: { balance: 10 } },
        { type: 'tool-result', toolCallId: 'c2', toolName: 'lookup', output: 'Account closed' },
      ],
    });
  });

  it('keeps argument and output text the model or tool wrote, even when it is not canonical or not JSON', () => {
    const neutral = roundTrip([
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'lookup', '{ "id": "A1" }'), call('c2', 'lookup', '{"id": "A1"')],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{ "balance": 10 }' },
      { role: 'tool', tool_call_id: 'c2', content: '"quoted"' },
    ]);
    const parts = neutral[0]!.content as Exclude<Message['content'], string>;
    expect(parts[0]).toMatchObject({ args: { id: 'A1' } });
    // Malformed JSON stays a string, so the tool's validation rejects it.
    expect(parts[1]).toMatchObject({ args: '{"id": "A1"' });
  });

  it('refusals, as a field and as content parts', () => {
    const neutral = roundTrip([
      { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Partly: ' },
          { type: 'refusal', refusal: 'no.' },
        ],
      },
    ]);
    expect(neutral[0]).toMatchObject({
      content: [
        { type: 'text', text: 'I cannot help with that.', providerMetadata: { openai: { refusal: true } } },
      ],
    });
  });

  it('keeps nothing for what carries no information, so continuations stay small', () => {
    const completion = {
      role: 'assistant',
      content: 'Hi.',
      refusal: null,
      annotations: [],
    } as OpenAI.Chat.ChatCompletionMessage;
    expect(fromChatAssistant(completion)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi.' }],
    });
  });

  it('reasoning sent as reasoning_content by OpenAI-compatible servers', () => {
    const message = {
      role: 'assistant',
      content: 'Yes.',
      reasoning_content: 'Check the balance first.',
    } as ChatMessage;
    const neutral = roundTrip([message]);
    expect((neutral[0]!.content as { type: string }[])[0]).toMatchObject({
      type: 'reasoning',
      text: 'Check the balance first.',
    });
  });

  it('reasoning from another framework is not sent to the chat API, which has no field for it', () => {
    const chat = toChatMessages(
      [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hmm' },
            { type: 'text', text: 'Hi' },
          ],
        },
      ],
      'Be brief.',
    );
    expect(chat).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'assistant', content: 'Hi' },
    ]);
  });
});
