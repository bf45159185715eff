import { isContinuationError, parseContinuation, serializeContinuation } from '@agent-continuations/core';
import { type Counts, lastToolResults, reportResults } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool, fromGraph } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

function build() {
  const ran: unknown[] = [];
  const counts = { status: 0, restart: 0 };
  const status = tool(
    async ({ host }) => {
      counts.status++;
      return { host, up: false };
    },
    { name: 'status', description: 'Host status', schema: z.object({ host: z.string() }) },
  );
  const restart = tool(
    async (args) => {
      counts.restart++;
      ran.push(args);
      return `restarted ${args.host}`;
    },
    { name: 'restart', description: 'Restart a host', schema: z.object({ host: z.string() }) },
  );
  const model = new ScriptedChatModel([
    {
      toolCalls: [
        { name: 'status', args: { host: 'web-1' } },
        { name: 'restart', args: { host: 'web-1' } },
        { name: 'restart', args: { host: 'web-2' } },
      ],
    },
    (request) =>
      `done: ${lastToolResults(request.messages)
        .map((r) => `${r.toolName}=${JSON.stringify(r.output)}`)
        .join(' | ')}`,
  ]);
  const graph = createAgent({
    model,
    tools: [status, restart],
    middleware: [humanInTheLoopMiddleware({ interruptOn: { restart: true } })],
  });
  return { agent: fromGraph(graph, { name: 'ops' }), counts, ran };
}

describe('createAgent with the human-in-the-loop middleware', () => {
  it("maps the middleware's request to one approval action per call, answered by interrupt id", async () => {
    const first = build();
    const result = await first.agent.run('restart the web tier');
    expect(result.status).toBe('suspended');
    if (result.status !== 'suspended') return;
    expect(result.actions.map((a) => [a.id, a.kind, a.toolName, a.args])).toEqual([
      ['call_1_1', 'approval', 'restart', { host: 'web-1' }],
      ['call_1_2', 'approval', 'restart', { host: 'web-2' }],
    ]);
    expect(first.counts).toEqual({ status: 0, restart: 0 });
    const text = serializeContinuation(result.continuation);

    // The middleware answers its request as a whole: a decision for only one call is refused.
    const partial = await build()
      .agent.resume(text, { call_1_1: { type: 'approve' } })
      .catch((error: unknown) => error);
    expect(isContinuationError(partial, 'INVALID_DECISION')).toBe(true);

    const second = build();
    const done = await second.agent.resume(parseContinuation(text), {
      call_1_1: { type: 'approve', by: 'ann' },
      call_1_2: { type: 'approve', args: { host: 'web-3' }, by: 'ann' },
    });
    expect(done.status).toBe('completed');
    if (done.status !== 'completed') return;
    expect(second.ran).toEqual([{ host: 'web-1' }, { host: 'web-3' }]);
    expect(second.counts).toEqual({ status: 1, restart: 2 });
    expect(done.output).toContain('restart="restarted web-3"');
  });

  it('a reject decision becomes the middleware reject with the reason', async () => {
    const first = build();
    const result = await first.agent.run('restart the web tier');
    if (result.status !== 'suspended') throw new Error('expected a suspension');
    const second = build();
    const done = await second.agent.resume(serializeContinuation(result.continuation), {
      call_1_1: { type: 'reject', reason: 'web-1 is serving traffic' },
      call_1_2: { type: 'reject', reason: 'not now' },
    });
    expect(second.counts.restart).toBe(0);
    expect(done.status).toBe('completed');
    if (done.status === 'completed') expect(done.output).toContain('web-1 is serving traffic');
  });

  for (const depth of [1, 2, 3]) {
    it(`depth ${depth}: createAgent + middleware at every level, resumed by fresh agents from JSON`, async () => {
      const counts: Counts = {};
      const chain = () => {
        const pay = tool(
          async ({ to }) => {
            counts.pay = (counts.pay ?? 0) + 1;
            return `paid ${to}`;
          },
          { name: 'pay', description: 'Pay someone', schema: z.object({ to: z.string() }) },
        );
        let agent = fromGraph(
          createAgent({
            model: new ScriptedChatModel([
              { toolCalls: [{ name: 'pay', args: { to: 'bob' } }] },
              reportResults,
            ]),
            tools: [pay],
            middleware: [humanInTheLoopMiddleware({ interruptOn: { pay: true } })],
          }),
          { name: `level${depth}` },
        );
        for (let level = depth - 1; level >= 1; level--) {
          const toolName = `ask_level${level + 1}`;
          agent = fromGraph(
            createAgent({
              model: new ScriptedChatModel([
                { toolCalls: [{ name: toolName, args: { input: 'pay bob' } }] },
                reportResults,
              ]),
              tools: [agentTool(agent, { name: toolName })],
              middleware: [humanInTheLoopMiddleware({ interruptOn: {} })],
            }),
            { name: `level${level}` },
          );
        }
        return agent;
      };
      const first = await chain().run('pay bob');
      if (first.status !== 'suspended') throw new Error('expected a suspension');
      const [action] = first.actions;
      expect(action!.path.map((segment) => segment.agent)).toEqual(
        Array.from({ length: depth }, (_, i) => `level${i + 1}`),
      );
      expect(action!.toolName).toBe('pay');
      expect(counts.pay ?? 0).toBe(0);
      const done = await chain().resume(
        JSON.parse(JSON.stringify(serializeContinuation(first.continuation))),
        {
          [action!.id]: { type: 'approve' },
        },
      );
      expect(done.status).toBe('completed');
      expect(counts.pay).toBe(1);
      if (done.status === 'completed')
        expect(done.output).toContain(depth === 1 ? 'pay="paid bob"' : 'ask_level2=');
    });
  }
});
