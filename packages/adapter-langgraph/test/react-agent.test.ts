import { serializeContinuation } from '@agent-continuations/core';
import { lastToolResults } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

function build(version: 'v1' | 'v2') {
  const counts = { lookup: 0, restart: 0 };
  const lookup = tool(
    async ({ host }) => {
      counts.lookup++;
      return { host, status: 'degraded' };
    },
    { name: 'lookup', description: 'Look up a host', schema: z.object({ host: z.string() }) },
  );
  const restart = tool(
    async ({ host }) => {
      counts.restart++;
      return `restarted ${host}`;
    },
    { name: 'restart', description: 'Restart a host', schema: z.object({ host: z.string() }) },
  );
  const llm = new ScriptedChatModel([
    {
      toolCalls: [
        { name: 'lookup', args: { host: 'web-1' } },
        { name: 'restart', args: { host: 'web-1' } },
      ],
    },
    (request) => `done: ${JSON.stringify(lastToolResults(request.messages).map((r) => r.output))}`,
  ]);
  const graph = createReactAgent({ llm, tools: requireApproval([lookup, restart], ['restart']), version });
  return { agent: fromGraph(graph, { name: 'ops' }), counts };
}

describe.each(['v1', 'v2'] as const)('createReactAgent %s', (version) => {
  it('suspends for approval, keeps the finished sibling, resumes from JSON in a fresh agent', async () => {
    const first = build(version);
    const result = await first.agent.run('Fix web-1');
    expect(result.status).toBe('suspended');
    if (result.status !== 'suspended') return;
    expect(result.actions.map((a) => [a.id, a.kind, a.toolName])).toEqual([
      ['call_1_1', 'approval', 'restart'],
    ]);
    expect(result.continuation.done).toEqual([
      { toolCallId: 'call_1_0', toolName: 'lookup', output: { host: 'web-1', status: 'degraded' } },
    ]);
    expect(first.counts).toEqual({ lookup: 1, restart: 0 });
    const text = serializeContinuation(result.continuation);
    // The state is plain JSON (objects, not JSON text inside strings).
    const state = JSON.parse(text).state;
    expect(typeof state.checkpoints[0].checkpoint).toBe('object');
    expect(Array.isArray(state.checkpoints[0].checkpoint.channel_values.messages)).toBe(true);
    // Each LangChain message is stored once, however often the checkpoint holds it.
    const [user] = state.checkpoints[0].checkpoint.channel_values.messages;
    expect(Object.keys(user)).toEqual(['__ac_message']);
    expect(state.messages[user.__ac_message].kwargs.content).toBe('Fix web-1');
    expect(text.split('"Fix web-1"').length - 1).toBe(2);

    const second = build(version);
    const done = await second.agent.resume(text, { call_1_1: { type: 'approve' } });
    expect(done.status).toBe('completed');
    if (done.status !== 'completed') return;
    expect(second.counts).toEqual({ lookup: 0, restart: 1 });
    expect(done.output).toBe('done: [{"host":"web-1","status":"degraded"},"restarted web-1"]');
  });
});
