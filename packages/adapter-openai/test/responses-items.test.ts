import type { Message } from '@agent-continuations/core';
import { messageSchema } from '@agent-continuations/core/zod';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fromResponsesItems, toResponsesItems } from '../src/index';

type Item = OpenAI.Responses.ResponseInputItem;

/** Items -> neutral -> items gives back the same items, and the neutral form is valid. */
function roundTrip(items: Item[]): Message[] {
  const neutral = fromResponsesItems(items);
  for (const message of neutral) expect(() => messageSchema.parse(message)).not.toThrow();
  const revived = JSON.parse(JSON.stringify(neutral)) as Message[];
  expect(toResponsesItems(revived)).toEqual(items);
  return neutral;
}

const outputMessage = (id: string, text: string): Item => ({
  type: 'message',
  id,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

describe('responses items <-> neutral messages', () => {
  it('text: system, developer, user and an assistant output message', () => {
    const neutral = roundTrip([
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Use EUR.' },
      { role: 'user', content: 'Hi' },
      outputMessage('msg_1', 'Hello.'),
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And?' }] },
    ]);
    expect(neutral.map((message) => message.role)).toEqual(['system', 'system', 'user', 'assistant', 'user']);
    expect(neutral[3]).toMatchObject({ content: [{ type: 'text', text: 'Hello.' }] });
  });

  it('images and files', () => {
    const neutral = roundTrip([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look' },
          { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'high' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4A==', detail: 'auto' },
          { type: 'input_image', file_id: 'file-1', detail: 'low' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
          { type: 'input_file', file_url: 'https://example.com/b.pdf' },
        ],
      },
    ]);
    const parts = neutral[0]!.content as Exclude<Message['content'], string>;
    expect(parts.map((part) => part.type)).toEqual(['text', 'image', 'image', 'image', 'file', 'file']);
    expect(parts[2]).toMatchObject({ image: 'data:image/jpeg;base64,/9j/4A==', mediaType: 'image/jpeg' });
  });

  it('reasoning, text and parallel function calls of one turn form one assistant message; outputs one tool message', () => {
    const neutral = roundTrip([
      { role: 'user', content: 'Balances?' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [
          { type: 'summary_text', text: 'Two accounts.' },
          { type: 'summary_text', text: 'Look both up.' },
        ],
        encrypted_content: 'gAAAA-opaque',
      },
      outputMessage('msg_1', 'Checking.'),
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'c1',
        name: 'lookup',
        arguments: '{"id":"A1"}',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: 'fc_2',
        call_id: 'c2',
        name: 'lookup',
        arguments: '{"id":"B2"}',
        status: 'completed',
      },
      { type: 'function_call_output', call_id: 'c1', output: '{"balance":10}' },
      { type: 'function_call_output', call_id: 'c2', output: 'closed' },
    ]);
    expect(neutral).toHaveLength(3);
    const assistant = neutral[1]!.content as Exclude<Message['content'], string>;
    expect(assistant.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call']);
    expect(assistant[0]).toMatchObject({ type: 'reasoning', text: 'Two accounts.\nLook both up.' });
    expect(assistant[2]).toMatchObject({ toolCallId: 'c1', toolName: 'lookup', args: { id: 'A1' } });
    expect(neutral[2]).toMatchObject({
      role: 'tool',
      content: [
        { toolCallId: 'c1', toolName: 'lookup', output: { balance: 10 } },
        { toolCallId: 'c2', toolName: 'lookup', output: 'closed' },
      ],
    });
  });

  it('refusals, several content parts of one message, and annotations', () => {
    roundTrip([
      {
        type: 'message',
        id: 'msg_2',
        role: 'assistant',
        status: 'completed',
        content: [
          {
            type: 'output_text',
            text: 'See the docs.',
            annotations: [
              {
                type: 'url_citation',
                url: 'https://example.com',
                title: 'Docs',
                start_index: 0,
                end_index: 3,
              },
            ],
          },
          { type: 'refusal', refusal: 'I will not do the rest.' },
        ],
      },
      outputMessage('msg_3', 'Another message of the same turn.'),
    ]);
  });

  it('malformed or non-canonical argument text and output lists', () => {
    const neutral = roundTrip([
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"id": "A1"' },
      { type: 'function_call', call_id: 'c2', name: 'lookup', arguments: '{ "id": "B2" }' },
      { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'bad input' }] },
      { type: 'function_call_output', call_id: 'c2', output: '{ "balance": 3 }' },
    ]);
    expect((neutral[0]!.content as { args?: unknown }[]).map((part) => part.args)).toEqual([
      '{"id": "A1"',
      { id: 'B2' },
    ]);
  });

  it('neutral text from another framework becomes an assistant message; reasoning without an item id is left out', () => {
    expect(
      toResponsesItems([
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hmm' },
            { type: 'text', text: 'Hi' },
          ],
        },
      ]),
    ).toEqual([
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
      },
    ]);
  });
});
