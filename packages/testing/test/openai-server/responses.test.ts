import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { lastToolResults, type ScriptedOpenAIServer, startScriptedOpenAIServer } from '../../src/index';

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools = [
  {
    type: 'function' as const,
    name: 'lookup',
    description: 'Look up',
    parameters: { type: 'object', properties: {} },
    strict: false,
  },
];
const script = [
  {
    reasoning: 'Two accounts.',
    text: 'Checking.',
    toolCalls: [
      { name: 'lookup', args: { id: 'A1' } },
      { name: 'lookup', args: { id: 'B2' } },
    ],
  },
  (request: { messages: readonly import('@agent-continuations/core').Message[] }) =>
    `Got ${lastToolResults(request.messages).length} results.`,
];

describe('scripted OpenAI server: responses', () => {
  it('returns reasoning, message and function_call items, and reads them back as one assistant turn', async () => {
    server = await startScriptedOpenAIServer({ scripts: { banker: script } });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const first = await client.responses.create({
      model: 'banker',
      instructions: 'Be exact.',
      input: 'balances',
      tools,
    });
    expect(first.status).toBe('completed');
    expect(first.output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'function_call',
    ]);
    expect(first.output_text).toBe('Checking.');
    expect(first.output.filter((item) => item.type === 'function_call')).toMatchObject([
      { call_id: 'call_1_0', name: 'lookup', arguments: '{"id":"A1"}' },
      { call_id: 'call_1_1', name: 'lookup', arguments: '{"id":"B2"}' },
    ]);
    expect(first.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });

    const second = await client.responses.create({
      model: 'banker',
      instructions: 'Be exact.',
      tools,
      input: [
        { role: 'user', content: 'balances' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_1_0', output: '{"balance":1}' },
        { type: 'function_call_output', call_id: 'call_1_1', output: '{"balance":2}' },
      ],
    });
    expect(second.output_text).toBe('Got 2 results.');
    const seen = server.requests[1]!.modelRequest!;
    expect(seen.instructions).toBe('Be exact.');
    expect(seen.messages).toEqual([
      { role: 'user', content: 'balances' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Two accounts.' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'call_1_0', toolName: 'lookup', args: { id: 'A1' } },
          { type: 'tool-call', toolCallId: 'call_1_1', toolName: 'lookup', args: { id: 'B2' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1_0', toolName: 'lookup', output: { balance: 1 } },
          { type: 'tool-result', toolCallId: 'call_1_1', toolName: 'lookup', output: { balance: 2 } },
        ],
      },
    ]);
  });

  it('streams events that the SDK stream helper assembles into the same response', async () => {
    server = await startScriptedOpenAIServer({ scripts: { banker: script } });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const stream = client.responses.stream({ model: 'banker', input: 'balances', tools });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const streamed = await stream.finalResponse();
    const plain = await client.responses.create({ model: 'banker', input: 'balances', tools });
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(
      types.filter((type) => type === 'response.function_call_arguments.delta').length,
    ).toBeGreaterThanOrEqual(2);
    expect(text).toBe('Checking.');
    // The stream helper adds `parsed` fields; ids differ per response.
    const strip = (items: unknown[]) =>
      JSON.parse(
        JSON.stringify(items, (key, value) =>
          ['id', 'parsed', 'parsed_arguments'].includes(key) ? undefined : value,
        ),
      );
    expect(strip(streamed.output)).toEqual(strip(plain.output));
    expect(streamed.usage?.total_tokens).toBe(15);
  });

  it('resolves item references to items it sent earlier', async () => {
    server = await startScriptedOpenAIServer({ scripts: { banker: script } });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const first = await client.responses.create({ model: 'banker', input: 'balances', tools });
    await client.responses.create({
      model: 'banker',
      tools,
      input: [
        { role: 'user', content: 'balances' },
        ...first.output.map((item) => ({ type: 'item_reference' as const, id: item.id! })),
        { type: 'function_call_output', call_id: 'call_1_0', output: '1' },
        { type: 'function_call_output', call_id: 'call_1_1', output: '2' },
      ],
    });
    const assistant = server.requests[1]!.modelRequest!.messages[1]!;
    expect(assistant.role).toBe('assistant');
    expect(Array.isArray(assistant.content) && assistant.content.map((part) => part.type)).toEqual([
      'reasoning',
      'text',
      'tool-call',
      'tool-call',
    ]);
  });

  it('continues a conversation by previous_response_id', async () => {
    server = await startScriptedOpenAIServer({ scripts: { banker: script } });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const first = await client.responses.create({ model: 'banker', input: 'balances', tools });
    const second = await client.responses.create({
      model: 'banker',
      previous_response_id: first.id,
      input: [
        { type: 'function_call_output', call_id: 'call_1_0', output: '1' },
        { type: 'function_call_output', call_id: 'call_1_1', output: '2' },
      ],
    });
    expect(second.output_text).toBe('Got 2 results.');
    expect(server.requests[1]!.modelRequest!.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
    await expect(
      client.responses.create({ model: 'banker', previous_response_id: 'resp_missing', input: 'x' }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
