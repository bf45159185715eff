/**
 * A segment writes its private checkpointer once, when it ends, however many steps it ran: the
 * cost of a step does not grow with the transcript by a serialization of the whole state. A
 * stream of LangGraph's `checkpoints` still gets one chunk per step.
 */
import { serializeContinuation } from '@agent-continuations/core';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fromGraph, requireApproval } from '../src';
import { PrivateSaver } from '../src/private-saver';
import { ScriptedChatModel } from './scripted-chat-model';

/** `lookups` lookups, then a restart that waits for approval, then a text answer. */
function hosts(lookups: number) {
  const ran: string[] = [];
  const lookup = tool(
    async ({ host }) => {
      ran.push(`lookup ${host}`);
      return `${host} ok`;
    },
    { name: 'lookup', description: 'Look up', schema: z.object({ host: z.string() }) },
  );
  const restart = tool(
    async ({ host }) => {
      ran.push(`restart ${host}`);
      return `restarted ${host}`;
    },
    { name: 'restart', description: 'Restart', schema: z.object({ host: z.string() }) },
  );
  const llm = new ScriptedChatModel((request) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    if (turn < lookups) return { toolCalls: [{ name: 'lookup', args: { host: `web-${turn}` } }] };
    if (turn === lookups) return { toolCalls: [{ name: 'restart', args: { host: 'web-0' } }] };
    return 'done';
  });
  const graph = createReactAgent({
    llm,
    tools: requireApproval([lookup, restart], ['restart']),
    version: 'v2',
  });
  return { agent: fromGraph(graph, { name: 'hosts' }), ran };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the private checkpointer of a segment', () => {
  it('is written once per segment, for 5 steps as for 20', async () => {
    const puts = vi.spyOn(PrivateSaver.prototype, 'put');
    const counts: number[] = [];
    for (const lookups of [5, 20]) {
      puts.mockClear();
      const { agent, ran } = hosts(lookups);
      const first = await agent.run('check the hosts');
      if (first.status !== 'suspended') throw new Error('expected the restart approval');
      expect(ran).toHaveLength(lookups);
      counts.push(puts.mock.calls.length);
      // The one checkpoint holds everything a resume needs: the restart runs once, the lookups not again.
      const done = await agent.resume(serializeContinuation(first.continuation), {
        [first.actions[0]!.id]: { type: 'approve' },
      });
      expect(done.status).toBe('completed');
      expect(ran.filter((line) => line.startsWith('restart'))).toEqual(['restart web-0']);
      expect(ran).toHaveLength(lookups + 1);
    }
    expect(counts).toEqual([1, 1]);
  });

  it("still checkpoints every step when the caller streams LangGraph's checkpoints", async () => {
    const { agent } = hosts(3);
    const stream = agent.stream('check the hosts', { streamMode: 'checkpoints' });
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const result = await stream.result;
    expect(result.status).toBe('suspended');
    // One per step, each a checkpoint of its own, as LangGraph streams them with a checkpointer.
    const ids = chunks.map(
      (chunk) =>
        (chunk as { config: { configurable: { checkpoint_id: string } } }).config.configurable.checkpoint_id,
    );
    expect(ids.length).toBeGreaterThan(7);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
