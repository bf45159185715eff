import { serializeContinuation } from '@agent-continuations/core';
import { type Counts, reportResults } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
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
  });
});
