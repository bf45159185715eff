import { serializeContinuation } from '@agent-continuations/core';
import { type Counts, reportResults } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

/** ops -> team (a StateGraph) -> worker (createReactAgent v2) -> restart, which needs approval. */
function build(counts: Counts) {
  const restart = tool(
    async ({ host }) => {
      counts.restart = (counts.restart ?? 0) + 1;
      return `restarted ${host}`;
    },
    { name: 'restart', description: 'Restart a host', schema: z.object({ host: z.string() }) },
  );
  const llm = new ScriptedChatModel([
    { toolCalls: [{ name: 'restart', args: { host: 'web-1' } }] },
    reportResults,
  ]);
  const worker = createReactAgent({ llm, tools: requireApproval([restart]), version: 'v2' });
  const team = new StateGraph(MessagesAnnotation)
    .addNode('worker', worker)
    .addEdge(START, 'worker')
    .addEdge('worker', END)
    .compile();
  const ops = new StateGraph(MessagesAnnotation)
    .addNode('team', team)
    .addEdge(START, 'team')
    .addEdge('team', END)
    .compile();
  return fromGraph(ops, { name: 'ops' });
}

describe('declared subgraphs', () => {
  it('nest one pending level per namespace, with the real tool in the path, and resume', async () => {
    const counts: Counts = {};
    const first = await build(counts).run('restart web-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const [action] = first.actions;
    expect(action!.path.map((segment) => [segment.agent, segment.toolName])).toEqual([
      ['ops', 'team'],
      ['team', 'worker'],
      ['worker', 'restart'],
    ]);
    expect(action!.args).toEqual({ host: 'web-1' });
    expect(action!.id).toBe('team/worker/call_1_0');
    const child = first.continuation.pending[0];
    expect(child?.kind).toBe('agent');

    const done = await build(counts).resume(serializeContinuation(first.continuation), {
      [action!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.output).toBe('done: restart="restarted web-1"');
    expect(counts.restart).toBe(1);

    // Without its state, the same decision answers the nested action when the graph asks again.
    const { state: _state, ...bare } = first.continuation;
    const again = await build(counts).resume(bare, { [action!.id]: { type: 'approve' } });
    expect(again.status).toBe('completed');
    expect(counts.restart).toBe(2);
  });

  it('a graph a tool runs itself nests under that tool call; the finished model turn is not repeated', async () => {
    const counts: Counts = {};
    const build = () => {
      const restart = tool(
        async ({ host }) => {
          counts.restart = (counts.restart ?? 0) + 1;
          return `restarted ${host}`;
        },
        { name: 'restart', description: 'Restart a host', schema: z.object({ host: z.string() }) },
      );
      const innerModel = new ScriptedChatModel([
        { toolCalls: [{ name: 'restart', args: { host: 'web-1' }, id: 'inner_1' }] },
        reportResults,
      ]);
      const inner = createReactAgent({ llm: innerModel, tools: requireApproval([restart]), version: 'v2' });
      const delegate = tool(
        async ({ task }) => {
          const out = await inner.invoke({ messages: [{ role: 'user', content: task }] });
          return String(out.messages.at(-1)?.content);
        },
        {
          name: 'delegate',
          description: 'Hand a task to the worker',
          schema: z.object({ task: z.string() }),
        },
      );
      const llm = new ScriptedChatModel([
        { toolCalls: [{ name: 'delegate', args: { task: 'restart web-1' } }] },
        reportResults,
      ]);
      return {
        agent: fromGraph(createReactAgent({ llm, tools: [delegate], version: 'v2' }), { name: 'ops' }),
        innerModel,
      };
    };
    const first = await build().agent.run('restart web-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const [action] = first.actions;
    expect(action!.id).toBe('call_1_0/inner_1');
    expect(action!.path.map((segment) => [segment.agent, segment.toolName])).toEqual([
      ['ops', 'delegate'],
      ['delegate', 'restart'],
    ]);
    const second = build();
    const done = await second.agent.resume(serializeContinuation(first.continuation), {
      [action!.id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    expect(counts.restart).toBe(1);
    // The worker's first model turn is in the saved state; only its last turn runs again.
    expect(second.innerModel.requests).toHaveLength(1);
  });

  it('a plain interrupt() inside a tool is an input action on that tool call', async () => {
    const ask = tool(
      async ({ question }) => {
        const answer = interrupt({ question });
        return `answer: ${JSON.stringify(answer)}`;
      },
      { name: 'ask', description: 'Ask a human', schema: z.object({ question: z.string() }) },
    );
    const build = () =>
      fromGraph(
        createReactAgent({
          llm: new ScriptedChatModel([
            { toolCalls: [{ name: 'ask', args: { question: 'Which region?' } }] },
            reportResults,
          ]),
          tools: [ask],
          version: 'v2',
        }),
        { name: 'planner' },
      );
    const first = await build().run('plan');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.actions.map((a) => [a.id, a.kind, a.toolName, a.request])).toEqual([
      ['call_1_0', 'input', 'ask', { question: 'Which region?' }],
    ]);
    const done = await build().resume(serializeContinuation(first.continuation), {
      call_1_0: { type: 'input', value: 'eu-west' },
    });
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.output).toBe('done: ask="answer: \\"eu-west\\""');
  });
});
