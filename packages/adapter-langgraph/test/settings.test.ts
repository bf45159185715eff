/**
 * Issue 12, LangGraph: what the wrapped graph already did keeps working, or is refused loudly.
 * The run config (`configurable`) reaches nodes and tools; the completed result carries the final
 * graph state and createReactAgent's `structuredResponse`; a graph without a messages channel is
 * refused when wrapped.
 */
import { isContinuationError, serializeContinuation } from '@agent-continuations/core';
import { type Counts, reportResults, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent, ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

const server = setupScriptedOpenAIServer({ scripts: {} });

describe('the run config', () => {
  it('`configurable` given to run and resume reaches the graph nodes and the tools', async () => {
    const seen: unknown[] = [];
    const counts: Counts = {};
    const build = () => {
      const refund = tool(
        async ({ order }, config: RunnableConfig) => {
          counts.refund = (counts.refund ?? 0) + 1;
          return `refunded ${order} for ${String(config.configurable?.userId)}`;
        },
        { name: 'refund', description: 'Refund', schema: z.object({ order: z.string() }) },
      );
      const tools = requireApproval([refund]);
      const bound = new ScriptedChatModel([
        { toolCalls: [{ name: 'refund', args: { order: 'o-1' } }] },
        reportResults,
      ]).bindTools(tools);
      const graph = new StateGraph(MessagesAnnotation)
        .addNode('agent', async (state, config) => {
          seen.push(config.configurable?.userId);
          return { messages: [await bound.invoke(state.messages)] };
        })
        .addNode('tools', new ToolNode(tools))
        .addEdge(START, 'agent')
        .addConditionalEdges('agent', toolsCondition, ['tools', END])
        .addEdge('tools', 'agent')
        .compile();
      return fromGraph(graph, { name: 'refunds' });
    };
    const first = await build().run('refund o-1', { configurable: { userId: 'u-7' } });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const done = await build().resume(
      serializeContinuation(first.continuation),
      { [first.actions[0]!.id]: { type: 'approve' } },
      { configurable: { userId: 'u-7' } },
    );
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.output).toBe('done: refund="refunded o-1 for u-7"');
    expect(seen).toEqual(['u-7', 'u-7']);
    expect(counts).toEqual({ refund: 1 });
  });
});

describe('callbacks and tags', () => {
  it("given to run and resume, reach LangChain's callback system as natively", async () => {
    const started: string[][] = [];
    class Tracer extends BaseCallbackHandler {
      name = 'tracer';
      override async handleChatModelStart(
        _llm: unknown,
        _messages: unknown,
        _runId: string,
        _parent?: string,
        _extra?: unknown,
        tags?: string[],
      ) {
        started.push(tags ?? []);
      }
    }
    const counts: Counts = {};
    const refund = tool(
      async () => {
        counts.refund = (counts.refund ?? 0) + 1;
        return 'ok';
      },
      { name: 'refund', description: 'Refund', schema: z.object({}) },
    );
    const build = () =>
      fromGraph(
        createReactAgent({
          llm: new ScriptedChatModel([{ toolCalls: [{ name: 'refund', args: {} }] }, reportResults]),
          tools: requireApproval([refund]),
          version: 'v2',
        }),
        { name: 'refunds' },
      );
    const options = { callbacks: [new Tracer()], tags: ['tenant:acme'] };
    const first = await build().run('refund', options);
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    await build().resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }, options);
    expect(started).toHaveLength(2);
    expect(started.every((tags) => tags.includes('tenant:acme'))).toBe(true);
    expect(counts).toEqual({ refund: 1 });
  });
});

describe('the completed result', () => {
  it("carries the final graph state and createReactAgent's structuredResponse (responseFormat)", async () => {
    server.setScript('weather', [
      { toolCalls: [{ name: 'forecast', args: { city: 'Oslo' } }] },
      'It will snow in Oslo.',
      '{"city":"Oslo","conditions":"snow"}',
    ]);
    const forecast = tool(async ({ city }) => `${city}: snow`, {
      name: 'forecast',
      description: 'Forecast',
      schema: z.object({ city: z.string() }),
    });
    const llm = new ChatOpenAI({
      model: 'weather',
      apiKey: 'test',
      maxRetries: 0,
      configuration: { baseURL: server.baseURL },
    });
    const graph = createReactAgent({
      llm,
      tools: [forecast],
      version: 'v2',
      responseFormat: z.object({ city: z.string(), conditions: z.string() }),
    });
    const result = await fromGraph(graph, { name: 'weather' }).run('weather in Oslo?');
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(result.output).toBe('It will snow in Oslo.');
    expect(result.structuredResponse).toEqual({ city: 'Oslo', conditions: 'snow' });
    expect(Object.keys(result.state).sort()).toEqual(['messages', 'structuredResponse']);
    expect((result.state.messages as unknown[]).length).toBe(4);
  });

  it('carries the extra channels of a custom graph', async () => {
    const State = Annotation.Root({
      ...MessagesAnnotation.spec,
      mood: Annotation<string>(),
    });
    const llm = new ScriptedChatModel(['hello']);
    const graph = new StateGraph(State)
      .addNode('agent', async (state) => ({ messages: [await llm.invoke(state.messages)], mood: 'glad' }))
      .addEdge(START, 'agent')
      .addEdge('agent', END)
      .compile();
    const result = await fromGraph(graph, { name: 'greeter' }).run('hi');
    if (result.status !== 'completed') throw new Error('expected completion');
    expect(result.state.mood).toBe('glad');
    expect(result.structuredResponse).toBeUndefined();
  });
});

describe('a graph without a messages channel', () => {
  it('is refused when wrapped, naming the channel, instead of completing empty', () => {
    const State = Annotation.Root({ question: Annotation<string>(), answer: Annotation<string>() });
    const graph = new StateGraph(State)
      .addNode('respond', async (state) => ({ answer: `echo ${state.question}` }))
      .addEdge(START, 'respond')
      .addEdge('respond', END)
      .compile();
    let error: unknown;
    try {
      fromGraph(graph, { name: 'echo' });
    } catch (caught) {
      error = caught;
    }
    expect(isContinuationError(error, 'INVALID_OPERATION')).toBe(true);
    expect(String((error as Error).message)).toContain('"messages"');
    expect(String((error as Error).message)).toContain('messagesKey');
    // A channel of another name works when named.
    const Chat = Annotation.Root({ chat: MessagesAnnotation.spec.messages });
    const named = new StateGraph(Chat)
      .addNode('agent', async () => ({ chat: [] }))
      .addEdge(START, 'agent')
      .addEdge('agent', END)
      .compile();
    expect(() => fromGraph(named, { name: 'chat', messagesKey: 'chat' })).not.toThrow();
  });
});

describe('agentTool options', () => {
  it("take the core's shape (inputSchema, toInput), with LangChain's `schema` as an alias", async () => {
    const seen: unknown[] = [];
    const child = {
      name: 'echo',
      framework: 'test',
      run: async (input: unknown) => {
        seen.push(input);
        return {
          status: 'completed' as const,
          output: 'ok',
          messages: [],
          runId: 'r',
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
          step: 0,
          decisions: [],
        };
      },
      resume: async () => {
        throw new Error('not resumed');
      },
    };
    const made = agentTool(child, {
      inputSchema: z.object({ city: z.string() }),
      toInput: (args: { city: string }) => `weather in ${args.city}`,
    });
    const aliased = agentTool(child, { name: 'echo2', schema: z.object({ town: z.string() }) });
    const llm = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'echo', args: { city: 'Oslo' } },
          { name: 'echo2', args: { town: 'Bergen', input: 'x' } },
        ],
      },
      reportResults,
    ]);
    const result = await fromGraph(createReactAgent({ llm, tools: [made, aliased], version: 'v2' }), {
      name: 'desk',
    }).run('go');
    expect(result.status).toBe('completed');
    expect(seen).toContain('weather in Oslo');
    expect(
      llm.requests[0]!.tools.map((spec) =>
        Object.keys((spec.inputSchema as { properties: object }).properties),
      ),
    ).toEqual([['city'], ['town']]);
  });
});
