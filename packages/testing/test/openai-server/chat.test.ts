import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { lastToolResults, type ScriptedOpenAIServer, startScriptedOpenAIServer } from '../../src/index';

let server: ScriptedOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientFor = (s: ScriptedOpenAIServer, maxRetries = 0) =>
  new OpenAI({ baseURL: s.baseURL, apiKey: 'test', maxRetries });

describe('scripted OpenAI server: chat completions', () => {
  it('never repeats a response id across server instances (as in a new process)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const instance = await startScriptedOpenAIServer({ scripts: { greeter: ['Hi.'] } });
      const completion = await clientFor(instance).chat.completions.create({
        model: 'greeter',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      ids.push(completion.id);
      await instance.close();
    }
    expect(new Set(ids).size).toBe(2);
  });

  it('answers a scripted text turn with usage, and shows the script the neutral request', async () => {
    server = await startScriptedOpenAIServer({ scripts: { greeter: ['Hello there, Ann.'] } });
    const completion = await clientFor(server).chat.completions.create({
      model: 'greeter',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi, I am Ann' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Hello there, Ann.' });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.modelRequest).toMatchObject({
      instructions: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi, I am Ann' }],
      step: 0,
    });
  });

  it('sends parallel tool calls and converts the results back, with tool names, for the next turn', async () => {
    server = await startScriptedOpenAIServer({
      scripts: {
        banker: [
          {
            toolCalls: [
              { name: 'lookup', args: { id: 'A1' } },
              { name: 'lookup', args: { id: 'B2' } },
            ],
          },
          (request) =>
            `Balances: ${lastToolResults(request.messages)
              .map((r) => JSON.stringify(r.output))
              .join(', ')}`,
        ],
      },
    });
    const client = clientFor(server);
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'lookup',
          description: 'Look up',
          parameters: { type: 'object', properties: { id: { type: 'string' } } },
        },
      },
    ];
    const first = await client.chat.completions.create({
      model: 'banker',
      messages: [{ role: 'user', content: 'two' }],
      tools,
    });
    const message = first.choices[0]!.message;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(message.tool_calls).toEqual([
      { id: 'call_1_0', type: 'function', function: { name: 'lookup', arguments: '{"id":"A1"}' } },
      { id: 'call_1_1', type: 'function', function: { name: 'lookup', arguments: '{"id":"B2"}' } },
    ]);
    const second = await client.chat.completions.create({
      model: 'banker',
      messages: [
        { role: 'user', content: 'two' },
        message,
        { role: 'tool', tool_call_id: 'call_1_0', content: '{"balance":10}' },
        { role: 'tool', tool_call_id: 'call_1_1', content: 'closed' },
      ],
      tools,
    });
    expect(second.choices[0]!.message.content).toBe('Balances: {"balance":10}, "closed"');
    expect(server.requests[1]!.modelRequest!.tools).toEqual([
      { name: 'lookup', description: 'Look up', inputSchema: tools[0]!.function.parameters },
    ]);
    expect(server.requests[1]!.modelRequest!.messages[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call_1_0', toolName: 'lookup', output: { balance: 10 } },
        { type: 'tool-result', toolCallId: 'call_1_1', toolName: 'lookup', output: 'closed' },
      ],
    });
  });

  it('streams text, reasoning and tool calls that the SDK stream helper assembles like the plain reply', async () => {
    const script = [
      {
        reasoning: 'Think first.',
        text: 'Let me check both.',
        toolCalls: [
          { name: 'lookup', args: { id: 'A1' } },
          { name: 'lookup', args: { id: 'B2' } },
        ],
      },
    ];
    server = await startScriptedOpenAIServer({ scripts: { banker: script } });
    const client = clientFor(server);
    const params = { model: 'banker', messages: [{ role: 'user' as const, content: 'go' }] };
    const stream = client.chat.completions.stream({ ...params, stream_options: { include_usage: true } });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const streamed = await stream.finalChatCompletion();
    const plain = await client.chat.completions.create(params);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Let me check both.');
    expect(streamed.choices[0]!.message.content).toBe(plain.choices[0]!.message.content);
    expect(streamed.choices[0]!.message.tool_calls).toEqual(plain.choices[0]!.message.tool_calls);
    expect(streamed.choices[0]!.finish_reason).toBe('tool_calls');
    expect(streamed.usage).toMatchObject({ total_tokens: 15 });
    expect((plain.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe(
      'Think first.',
    );
  });

  it('routes requests to scripts by model name', async () => {
    server = await startScriptedOpenAIServer({ scripts: { alpha: ['from alpha'], beta: ['from beta'] } });
    const client = clientFor(server);
    const ask = async (model: string) =>
      (await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }))
        .choices[0]!.message.content;
    expect(await ask('beta')).toBe('from beta');
    expect(await ask('alpha')).toBe('from alpha');
    await expect(ask('gamma')).rejects.toMatchObject({ status: 404 });
  });

  it('fails the next requests on demand; the client retries through them', async () => {
    server = await startScriptedOpenAIServer({ scripts: { m: ['ok'] } });
    server.fail(2, { status: 500 });
    const reply = await clientFor(server, 2).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(reply.choices[0]!.message.content).toBe('ok');
    expect(server.requests.map((r) => r.status)).toEqual([500, 500, 200]);

    server.fail(3, { status: 429 });
    await expect(
      clientFor(server, 2).chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    expect(server.requests.map((r) => r.status)).toEqual([500, 500, 200, 429, 429, 429]);
  });

  it('sends raw argument text when told to, e.g. malformed JSON', async () => {
    server = await startScriptedOpenAIServer({
      scripts: { m: [{ toolCalls: [{ name: 'lookup', args: { id: 'A1' } }] }] },
      rawArguments: () => '{"id": "A1"',
    });
    const reply = await clientFor(server).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    const call = reply.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.arguments).toBe('{"id": "A1"');
  });

  it('answers a script error with HTTP 400, which clients do not retry', async () => {
    server = await startScriptedOpenAIServer({ scripts: { m: ['only one turn'] } });
    await expect(
      clientFor(server, 2).chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: 'only one turn' },
          { role: 'user', content: 'again' },
        ],
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(server.requests).toHaveLength(1);
  });
});
