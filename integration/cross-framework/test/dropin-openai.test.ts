/**
 * Drop-in fidelity of the OpenAI adapter: tools and settings written the way openai-node documents
 * them (`runTools` tools, `zodFunction`, `zodResponseFormat`, `zodTextFormat`), run natively and
 * through `createAgent`, compared on the requests sent, the number of model calls, the tool
 * executions and the final structured output.
 */
import { isContinuationError } from '@agent-continuations/core';
import { createAgent, type OpenAIAgentConfig } from '@agent-continuations/openai';
import { setupScriptedOpenAIServer, suspended } from '@agent-continuations/testing';
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import type {
  RunnableToolFunctionWithoutParse,
  RunnableToolFunctionWithParse,
} from 'openai/lib/RunnableFunction';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const server = setupScriptedOpenAIServer({ scripts: {} });
let client: OpenAI;

beforeAll(async () => {
  client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
});

/** The request bodies a model name received. */
const bodies = (model: string) =>
  server.requests.filter((request) => request.model === model).map((r) => r.body);

/** The same body without what differs between two runs by design (the model name). */
const comparable = (body: Record<string, unknown>) => {
  const { model: _model, ...rest } = body;
  return rest;
};

/** runTools tools as openai-node's docs write them: with `parse`, without, and from `zodFunction`. */
function runnableTools() {
  const ran: string[] = [];
  const weather: RunnableToolFunctionWithParse<{ city: string }> = {
    type: 'function',
    function: {
      name: 'weather',
      description: 'Get the weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      parse: JSON.parse,
      function: async ({ city }) => {
        ran.push(`weather:${city}`);
        return { city, celsius: 21 };
      },
    },
  };
  const time: RunnableToolFunctionWithoutParse = {
    type: 'function',
    function: {
      name: 'time',
      description: 'The local time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      function: (args: string) => {
        ran.push(`time:${(JSON.parse(args) as { city: string }).city}`);
        return '14:00';
      },
    },
  };
  const wind = zodFunction({
    name: 'wind',
    description: 'The wind speed in a city',
    parameters: z.object({ city: z.string() }),
    function: ({ city }) => {
      ran.push(`wind:${city}`);
      return { city, knots: 12 };
    },
  });
  return { ran, tools: [weather, time, wind] };
}

describe('runTools-shaped tools', () => {
  const script = (request: { messages: readonly { role: string }[] }) =>
    request.messages.some((message) => message.role === 'tool')
      ? 'Oslo: 21 degrees, 14:00, wind 12 knots.'
      : {
          toolCalls: [
            { name: 'weather', args: { city: 'Oslo' } },
            { name: 'time', args: { city: 'Oslo' } },
            { name: 'wind', args: { city: 'Oslo' } },
          ],
        };

  it('run as runTools runs them: same requests, same executions, same answer', async () => {
    server.setScript('runtools-native', script);
    server.setScript('runtools-wrapped', script);
    const native = runnableTools();
    const runner = client.chat.completions.runTools({
      model: 'runtools-native',
      messages: [
        { role: 'system', content: 'You report the weather.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      // runTools' types take runnable tools or zodFunction tools, not both; at run time it takes both.
      tools: native.tools as never,
    });
    const nativeAnswer = await runner.finalContent();

    const wrapped = runnableTools();
    const agent = createAgent({
      client,
      model: 'runtools-wrapped',
      name: 'weather',
      instructions: 'You report the weather.',
      tools: wrapped.tools,
    });
    const result = await agent.run('Weather in Oslo?');

    expect(result).toMatchObject({ status: 'completed', output: nativeAnswer });
    // The three calls run concurrently in both, so their order is not compared.
    expect([...wrapped.ran].sort()).toEqual([...native.ran].sort());
    expect([...wrapped.ran].sort()).toEqual(['time:Oslo', 'weather:Oslo', 'wind:Oslo']);
    const nativeBodies = bodies('runtools-native').map(comparable);
    const wrappedBodies = bodies('runtools-wrapped').map(comparable);
    expect(wrappedBodies).toHaveLength(nativeBodies.length);
    // The same tools and the same conversation (tool results included) reach the model.
    expect(wrappedBodies.map((body) => body.tools)).toEqual(nativeBodies.map((body) => body.tools));
    expect(wrappedBodies.map((body) => body.messages)).toEqual(nativeBodies.map((body) => body.messages));
  });

  it('stop at maxChatCompletions as a resumable suspension', async () => {
    const always = () => ({ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] });
    server.setScript('max-native', always);
    server.setScript('max-wrapped', always);
    const native = runnableTools();
    await client.chat.completions
      .runTools(
        {
          model: 'max-native',
          messages: [{ role: 'user', content: 'Weather, again and again' }],
          tools: native.tools as never,
        },
        { maxChatCompletions: 3 },
      )
      .done();
    const wrapped = runnableTools();
    const agent = createAgent({
      client,
      model: 'max-wrapped',
      name: 'weather',
      tools: wrapped.tools,
      maxChatCompletions: 3,
    });
    const first = suspended(await agent.run('Weather, again and again'));
    expect(bodies('max-native')).toHaveLength(3);
    expect(bodies('max-wrapped')).toHaveLength(3);
    expect(wrapped.ran).toEqual(native.ran);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['maxChatCompletions'] });
    suspended(await agent.resume(first.continuation, {}));
    expect(bodies('max-wrapped')).toHaveLength(6);
  });

  it('need approval when marked, and never become human tools', async () => {
    server.setScript('runtools-approval', script);
    const wrapped = runnableTools();
    const [weather, ...rest] = wrapped.tools;
    const agent = createAgent({
      client,
      model: 'runtools-approval',
      name: 'weather',
      tools: [{ ...weather!, needsApproval: true }, ...rest],
    });
    const first = suspended(await agent.run('Weather in Oslo?'));
    expect(first.actions.map((action) => [action.kind, action.toolName])).toEqual([['approval', 'weather']]);
    expect(wrapped.ran).toEqual(['time:Oslo', 'wind:Oslo']);
    const done = await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } });
    expect(done.status).toBe('completed');
    expect(wrapped.ran).toEqual(['time:Oslo', 'wind:Oslo', 'weather:Oslo']);
  });
});

describe('structured output', () => {
  const Weather = z.object({ city: z.string(), celsius: z.number() });
  const script = [
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    JSON.stringify({ city: 'Oslo', celsius: 21 }),
  ];

  it('chat: response_format is sent, and the completed output is what parse() returns', async () => {
    server.setScript('chat-format-native', [JSON.stringify({ city: 'Oslo', celsius: 21 })]);
    server.setScript('chat-format-wrapped', [JSON.stringify({ city: 'Oslo', celsius: 21 })]);
    const native = await client.chat.completions.parse({
      model: 'chat-format-native',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const agent = createAgent({
      client,
      model: 'chat-format-wrapped',
      name: 'weather',
      modelSettings: { response_format: zodResponseFormat(Weather, 'weather') },
    });
    const result = await agent.run('Weather in Oslo?');
    expect(result).toMatchObject({ status: 'completed', output: native.choices[0]!.message.parsed });
    expect(bodies('chat-format-wrapped').map((body) => body.response_format)).toEqual(
      bodies('chat-format-native').map((body) => body.response_format),
    );
  });

  it.each(['chat', 'responses'] as const)('%s: carried across a suspension', async (api) => {
    const model = `format-across-${api}`;
    server.setScript(model, script);
    const ran: string[] = [];
    const config: OpenAIAgentConfig = {
      client,
      model,
      name: 'weather',
      api,
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
          needsApproval: true,
          execute: ({ city }: { city: string }) => ran.push(city) && { city, celsius: 21 },
        },
      ],
      modelSettings:
        api === 'chat'
          ? { response_format: zodResponseFormat(Weather, 'weather') }
          : { text: { format: zodTextFormat(Weather, 'weather') } },
    };
    const first = suspended(await createAgent(config).run('Weather in Oslo?'));
    const done = await createAgent(config).resume(JSON.parse(JSON.stringify(first.continuation)), {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    expect(done).toMatchObject({ status: 'completed', output: { city: 'Oslo', celsius: 21 } });
    expect(ran).toEqual(['Oslo']);
    const sent = bodies(model).map((body) => (api === 'chat' ? body.response_format : body.text.format));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0]).toMatchObject(
      api === 'chat' ? { type: 'json_schema' } : { type: 'json_schema', name: 'weather' },
    );
  });

  it('responses: the completed output is what responses.parse() returns', async () => {
    server.setScript('responses-format-native', [JSON.stringify({ city: 'Oslo', celsius: 21 })]);
    server.setScript('responses-format-wrapped', [JSON.stringify({ city: 'Oslo', celsius: 21 })]);
    const native = await client.responses.parse({
      model: 'responses-format-native',
      input: 'Weather in Oslo?',
      text: { format: zodTextFormat(Weather, 'weather') },
    });
    const result = await createAgent({
      client,
      model: 'responses-format-wrapped',
      name: 'weather',
      api: 'responses',
      modelSettings: { text: { format: zodTextFormat(Weather, 'weather') } },
    }).run('Weather in Oslo?');
    expect(result).toMatchObject({ status: 'completed', output: native.output_parsed });
  });
});

describe('settings the adapter cannot honour', () => {
  const base = {
    client: new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'test' }),
    model: 'm',
    name: 'x',
  };
  it.each([
    ['maxChatCompletion', { maxChatCompletion: 3 }],
    ['modelSettings.stream', { modelSettings: { stream: true } }],
    ['modelSettings.n', { modelSettings: { n: 2 } }],
    ['modelSettings.messages', { modelSettings: { messages: [] } }],
    ['modelSettings.tools', { modelSettings: { tools: [] } }],
    ['modelSettings.model', { modelSettings: { model: 'other' } }],
    [
      'modelSettings.previous_response_id',
      { api: 'responses', modelSettings: { previous_response_id: 'r1' } },
    ],
    ['modelSettings.instructions', { api: 'responses', modelSettings: { instructions: 'hi' } }],
    ['modelSettings.tool_choice', { modelSettings: { tool_choice: 'required' } }],
    [
      'modelSettings.tool_choice',
      { modelSettings: { tool_choice: { type: 'function', function: { name: 'weather' } } } },
    ],
  ])('refuses %s when the agent is made, naming it', (name, extra) => {
    let error: unknown;
    try {
      createAgent({ ...base, ...(extra as object) } as OpenAIAgentConfig);
    } catch (caught) {
      error = caught;
    }
    expect(isContinuationError(error, 'INVALID_OPERATION'), String(error)).toBe(true);
    expect((error as Error).message).toContain(name.split('.').at(-1));
  });
});
