/**
 * Issue 12: a wrapped graph streams in LangGraph's own stream modes, runs and resumes alike, and
 * ends with the run's result. Issue 10 item 7: a sub-agent's steps and tool results reach the
 * parent's observers and its stream (the `custom` mode), each tagged with its path.
 */
import { type RunEvent, serializeContinuation } from '@agent-continuations/core';
import { type Counts, reportResults } from '@agent-continuations/testing';
import type { BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

function refunds(counts: Counts) {
  const refund = tool(
    async ({ order }) => {
      counts.refund = (counts.refund ?? 0) + 1;
      return `refunded ${order}`;
    },
    { name: 'refund', description: 'Refund', schema: z.object({ order: z.string() }) },
  );
  const llm = new ScriptedChatModel([
    { toolCalls: [{ name: 'refund', args: { order: 'o-1' } }] },
    reportResults,
  ]);
  return fromGraph(createReactAgent({ llm, tools: requireApproval([refund]), version: 'v2' }), {
    name: 'refunds',
  });
}

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("stream() in LangGraph's stream modes", () => {
  it('streams a run as `updates` and its resume as `values` + `messages`, each ending with the result', async () => {
    const counts: Counts = {};
    const first = refunds(counts).stream('refund o-1', { streamMode: 'updates' });
    const updates = (await collect(first)) as Array<Record<string, unknown>>;
    expect(updates.some((chunk) => 'agent' in chunk)).toBe(true);
    const suspended = await first.result;
    if (suspended.status !== 'suspended') throw new Error('expected a suspension');
    expect(counts.refund ?? 0).toBe(0);

    const second = refunds(counts).stream(
      {
        continuation: serializeContinuation(suspended.continuation),
        decisions: { [suspended.actions[0]!.id]: { type: 'approve' } },
      },
      { streamMode: ['values', 'messages'] },
    );
    const chunks = (await collect(second)) as Array<[string, unknown]>;
    const modes = new Set(chunks.map(([mode]) => mode));
    expect(modes).toEqual(new Set(['values', 'messages']));
    const lastValues = chunks.filter(([mode]) => mode === 'values').at(-1)![1] as { messages: BaseMessage[] };
    expect(lastValues.messages.at(-1)!.text).toBe('done: refund="refunded o-1"');
    const [, [message, metadata]] = chunks.find(([mode]) => mode === 'messages') as [
      string,
      [BaseMessage, { langgraph_node?: string }],
    ];
    expect(message).toBeDefined();
    expect(['agent', 'tools']).toContain(metadata.langgraph_node);
    const done = await second.result;
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ refund: 1 });
  });
});

describe("a sub-agent's events", () => {
  function desk(counts: Counts) {
    const charge = tool(
      async ({ amount }) => {
        counts.charge = (counts.charge ?? 0) + 1;
        return `charged ${amount}`;
      },
      { name: 'charge', description: 'Charge', schema: z.object({ amount: z.number() }) },
    );
    const billing = fromGraph(
      createReactAgent({
        llm: new ScriptedChatModel([{ toolCalls: [{ name: 'charge', args: { amount: 5 } }] }, reportResults]),
        tools: [charge],
        version: 'v2',
      }),
      { name: 'billing' },
    );
    return fromGraph(
      createReactAgent({
        llm: new ScriptedChatModel([
          { toolCalls: [{ name: 'billing', args: { input: 'charge 5' } }] },
          reportResults,
        ]),
        tools: [agentTool(billing)],
        version: 'v2',
      }),
      { name: 'desk' },
    );
  }

  it("reach the parent's observers with their path, and a checkpoint of the whole tree", async () => {
    const counts: Counts = {};
    const events: RunEvent[] = [];
    const result = await desk(counts).run('charge 5', { onEvent: (event) => void events.push(event) });
    expect(result.status).toBe('completed');
    const nested = events.filter((event) => 'path' in event && event.path);
    expect(nested.map((event) => [event.type, (event as { path?: string[] }).path])).toEqual([
      ['model-call', ['call_1_0']],
      ['tool-result', ['call_1_0']],
      ['model-call', ['call_1_0']],
    ]);
    const toolResult = nested.find((event) => event.type === 'tool-result');
    if (toolResult?.type !== 'tool-result') throw new Error('expected a tool result');
    expect(toolResult.output).toBe('charged 5');
    const tree = toolResult.checkpoint();
    expect(tree.agent.name).toBe('desk');
    expect(tree.pending[0]).toMatchObject({
      kind: 'agent',
      toolName: 'billing',
      child: { agent: { name: 'billing' } },
    });
    // The parent's own events carry no path.
    expect(events.filter((event) => event.type === 'tool-result' && !event.path)).toHaveLength(1);
  });

  it("appear in the parent's stream, in LangGraph's `custom` mode, tagged with their path", async () => {
    const counts: Counts = {};
    const stream = desk(counts).stream('charge 5', { streamMode: ['updates', 'custom'] });
    const chunks = (await collect(stream)) as Array<[string, unknown]>;
    const custom = chunks.filter(([mode]) => mode === 'custom').map(([, chunk]) => chunk);
    expect(custom).toContainEqual({
      type: 'tool-result',
      toolCallId: 'call_1_0',
      toolName: 'charge',
      output: 'charged 5',
      isError: false,
      path: ['call_1_0'],
    });
    expect(custom).toContainEqual({ type: 'step', step: 1, path: ['call_1_0'] });
    expect((await stream.result).status).toBe('completed');
    expect(counts).toEqual({ charge: 1 });
  });
});
