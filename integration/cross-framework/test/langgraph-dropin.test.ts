/**
 * Issue 12, LangGraph drop-in: agents written the way the LangGraph and LangChain docs write them,
 * run natively and wrapped by changing only the wrap line, over `ChatOpenAI` and the scripted
 * OpenAI server. Checked against each other: the model requests sent (system prompt, tools,
 * response format, transcript), the number of model calls, the tool executions, the stream's
 * update kinds, the structured output, and what the run config reached.
 */
import { fromGraph } from '@agent-continuations/langgraph';
import { type RecordedRequest, type Script, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import type { BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const server = setupScriptedOpenAIServer({ scripts: {} });

/** The same script under two model names: one for the native run, one for the wrapped run. */
function twoModels(name: string, script: Script) {
  server.setScript(`${name}:native`, script);
  server.setScript(`${name}:wrapped`, script);
  const llm = (side: 'native' | 'wrapped') =>
    new ChatOpenAI({
      model: `${name}:${side}`,
      apiKey: 'test',
      maxRetries: 0,
      configuration: { baseURL: server.baseURL },
    });
  const sent = (side: 'native' | 'wrapped') =>
    server.requests
      .filter((request: RecordedRequest) => request.model === `${name}:${side}`)
      .map((request) => {
        const { model: _model, ...body } = request.body as Record<string, unknown>;
        return body;
      });
  return { llm, sent };
}

describe('createReactAgent with a prompt, a tool that reads the run config, and responseFormat', () => {
  const script: Script = [
    { toolCalls: [{ name: 'get_weather', args: { city: 'sf' } }] },
    "It's 60 degrees and foggy in San Francisco.",
    '{"city":"sf","conditions":"foggy","temperature":60}',
  ];
  const responseFormat = z.object({ city: z.string(), conditions: z.string(), temperature: z.number() });

  function build(side: 'native' | 'wrapped', models: ReturnType<typeof twoModels>, runs: string[]) {
    const getWeather = tool(
      async ({ city }, config: RunnableConfig) => {
        runs.push(`${city}:${String(config.configurable?.units)}`);
        return city === 'sf' ? "It's 60 degrees and foggy." : "It's 90 degrees and sunny.";
      },
      {
        name: 'get_weather',
        description: 'Call to get the current weather.',
        schema: z.object({ city: z.string().describe('The city') }),
      },
    );
    return createReactAgent({
      llm: models.llm(side),
      tools: [getWeather],
      prompt: 'You are a helpful weather assistant.',
      responseFormat,
    });
  }

  it('sends the same requests, runs the tools alike, and returns the same structured response', async () => {
    const models = twoModels('weather', script);
    const nativeRuns: string[] = [];
    const wrappedRuns: string[] = [];
    const config = { configurable: { units: 'imperial' } };
    const native = await build('native', models, nativeRuns).invoke(
      { messages: [{ role: 'user', content: 'what is the weather in sf?' }] },
      config,
    );
    const agent = fromGraph(build('wrapped', models, wrappedRuns), { name: 'weather' });
    const wrapped = await agent.run('what is the weather in sf?', config);
    if (wrapped.status !== 'completed') throw new Error(`expected completion, got ${wrapped.status}`);

    expect(models.sent('wrapped')).toEqual(models.sent('native'));
    expect(models.sent('native')).toHaveLength(3);
    expect(models.sent('native')[0]).toMatchObject({
      messages: [{ role: 'system', content: 'You are a helpful weather assistant.' }, { role: 'user' }],
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
    });
    expect(models.sent('native')[2]).toHaveProperty('response_format');
    expect(wrappedRuns).toEqual(nativeRuns);
    expect(nativeRuns).toEqual(['sf:imperial']);
    expect(wrapped.structuredResponse).toEqual(native.structuredResponse);
    expect(wrapped.output).toBe((native.messages.at(-1) as BaseMessage).text);
  });

  it("streams the same kinds of updates as the graph's own stream", async () => {
    const models = twoModels('weather-stream', script);
    const kinds = async (chunks: AsyncIterable<unknown>) => {
      const found: string[] = [];
      for await (const chunk of chunks) found.push(...Object.keys(chunk as object));
      return found;
    };
    const native = await kinds(
      await build('native', models, []).stream(
        { messages: [{ role: 'user', content: 'what is the weather in sf?' }] },
        { streamMode: 'updates' },
      ),
    );
    const stream = fromGraph(build('wrapped', models, []), { name: 'weather' }).stream(
      'what is the weather in sf?',
      { streamMode: 'updates' },
    );
    expect(await kinds(stream)).toEqual(native);
    expect(native).toEqual(['agent', 'tools', 'agent', 'generate_structured_response']);
    expect((await stream.result).status).toBe('completed');
  });
});

describe('createAgent with the human-in-the-loop middleware and a checkpointer, as the docs write it', () => {
  const script: Script = [
    { toolCalls: [{ name: 'send_email', args: { to: 'ann@example.com', body: 'Hi' } }] },
    'Sent.',
  ];

  function build(side: 'native' | 'wrapped', models: ReturnType<typeof twoModels>, sent: string[]) {
    const sendEmail = tool(
      async ({ to }) => {
        sent.push(to);
        return `email sent to ${to}`;
      },
      {
        name: 'send_email',
        description: 'Send an email',
        schema: z.object({ to: z.string(), body: z.string() }),
      },
    );
    return createAgent({
      model: models.llm(side),
      tools: [sendEmail],
      systemPrompt: 'You write emails.',
      middleware: [
        humanInTheLoopMiddleware({
          interruptOn: { send_email: { allowedDecisions: ['approve', 'reject'], description: 'Check it' } },
        }),
      ],
      checkpointer: new MemorySaver(),
    });
  }

  it('approving sends the same requests and runs the tool once, as the native Command resume does', async () => {
    const models = twoModels('email', script);
    const nativeSent: string[] = [];
    const graph = build('native', models, nativeSent);
    const config = { configurable: { thread_id: 't-1' } };
    const paused = await graph.invoke({ messages: [{ role: 'user', content: 'email ann' }] }, config);
    expect(paused.__interrupt__).toHaveLength(1);
    const native = await graph.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);

    const wrappedSent: string[] = [];
    const first = await fromGraph(build('wrapped', models, wrappedSent), { name: 'email' }).run('email ann');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.actions.map((action) => [action.kind, action.toolName, action.args])).toEqual([
      ['approval', 'send_email', { to: 'ann@example.com', body: 'Hi' }],
    ]);
    const done = await fromGraph(build('wrapped', models, wrappedSent), { name: 'email' }).resume(
      JSON.stringify(first.continuation),
      { [first.actions[0]!.id]: { type: 'approve' } },
    );
    if (done.status !== 'completed') throw new Error('expected completion');

    expect(models.sent('wrapped')).toEqual(models.sent('native'));
    expect(models.sent('native')).toHaveLength(2);
    expect(wrappedSent).toEqual(nativeSent);
    expect(nativeSent).toEqual(['ann@example.com']);
    expect(done.output).toBe((native.messages.at(-1) as BaseMessage).text);
  });
});
