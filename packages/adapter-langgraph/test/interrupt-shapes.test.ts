/**
 * Issue 12, LangGraph: human-in-the-loop written the framework's own ways keeps its shape.
 * LangGraph's `HumanInterrupt` / `HumanResponse` (a tool wrapped as the docs wrap it, or a review
 * node) becomes an approval whose decisions come back as `HumanResponse`s; a generic reject reaches
 * a plain `interrupt()` in a documented shape (or the graph's own, through `interruptResume`); the
 * middleware's `description` and `allowedDecisions` are kept and enforced before anything runs; an
 * `interrupt()` inside a tool names the tool call; createReactAgent v1 with two interrupting calls
 * suspends instead of losing the run.
 */
import {
  checkDecisions,
  createMemoryStore,
  createRuntime,
  isContinuationError,
  serializeContinuation,
} from '@agent-continuations/core';
import { rejectionMessage } from '@agent-continuations/core/adapter-kit';
import { type Counts, lastToolResults, reportResults, type Script } from '@agent-continuations/testing';
import type { RunnableConfig } from '@langchain/core/runnables';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import { Command, END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import {
  createReactAgent,
  type HumanInterrupt,
  type HumanResponse,
  ToolNode,
  toolsCondition,
} from '@langchain/langgraph/prebuilt';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { actionPolicies, fromGraph, requireApproval } from '../src';
import { ScriptedChatModel } from './scripted-chat-model';

function refundTool(counts: Counts) {
  return tool(
    async ({ order, amount }) => {
      counts.refund = (counts.refund ?? 0) + 1;
      return `refunded ${amount} on ${order}`;
    },
    { name: 'refund', description: 'Refund', schema: z.object({ order: z.string(), amount: z.number() }) },
  );
}

/** The LangGraph docs' way to add human review to any tool: a HumanInterrupt, a HumanResponse back. */
function addHumanInTheLoop(original: StructuredToolInterface): StructuredToolInterface {
  return tool(
    async (args: Record<string, unknown>, config: RunnableConfig) => {
      const request: HumanInterrupt = {
        action_request: { action: original.name, args },
        config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: false },
        description: 'Please review the refund',
      };
      const [response] = interrupt<HumanInterrupt[], HumanResponse[]>([request]);
      if (response!.type === 'accept') return original.invoke(args, config);
      if (response!.type === 'edit') {
        const edited = response!.args as { args: Record<string, unknown> };
        return original.invoke(edited.args, config);
      }
      if (response!.type === 'response') return String(response!.args);
      throw new Error(`Unknown response type: ${response!.type}`);
    },
    { name: original.name, description: original.description, schema: original.schema as z.ZodObject },
  ) as unknown as StructuredToolInterface;
}

const refundScript = [{ toolCalls: [{ name: 'refund', args: { order: 'o-1', amount: 30 } }] }, reportResults];

describe("LangGraph's HumanInterrupt in a tool (createReactAgent v1)", () => {
  const build = (counts: Counts, llm = new ScriptedChatModel(refundScript)) =>
    fromGraph(createReactAgent({ llm, tools: [addHumanInTheLoop(refundTool(counts))], version: 'v1' }), {
      name: 'refunds',
    });

  it('is an approval on the tool call; a reject reaches the tool as a response it understands', async () => {
    const counts: Counts = {};
    const first = await build(counts).run('refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.actions.map((a) => [a.id, a.kind, a.toolName, a.args])).toEqual([
      ['call_1_0', 'approval', 'refund', { order: 'o-1', amount: 30 }],
    ]);
    expect(actionPolicies(first.continuation)).toEqual({
      call_1_0: { description: 'Please review the refund', allowedDecisions: ['approve', 'edit', 'reject'] },
    });
    // The same policy rides on the action a UI lists.
    expect(first.actions[0]).toMatchObject({
      description: 'Please review the refund',
      allowedDecisions: ['approve', 'edit', 'reject'],
    });
    const llm = new ScriptedChatModel(refundScript);
    const done = await build(counts, llm).resume(serializeContinuation(first.continuation), {
      call_1_0: { type: 'reject', reason: 'too much' },
    });
    expect(done.status).toBe('completed');
    expect(counts.refund ?? 0).toBe(0);
    expect(lastToolResults(llm.requests.at(-1)!.messages)[0]?.output).toBe(rejectionMessage('too much'));
  });

  it('an approval with edited arguments comes back as an edit', async () => {
    const counts: Counts = {};
    const first = await build(counts).run('refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const done = await build(counts).resume(first.continuation, {
      call_1_0: { type: 'approve', args: { order: 'o-1', amount: 20 } },
    });
    if (done.status !== 'completed') throw new Error('expected completion');
    expect(done.output).toBe('done: refund="refunded 20 on o-1"');
    expect(counts).toEqual({ refund: 1 });
  });
});

describe('a plain interrupt()', () => {
  /** A custom graph whose review node asks with interrupt() and routes with Command({ goto }). */
  function reviewGraph(counts: Counts, seen: unknown[], llm: ScriptedChatModel) {
    const tools = [refundTool(counts)];
    const bound = llm.bindTools(tools);
    return new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode(
        'review',
        (state) => {
          const answer = interrupt<{ question: string }, { type?: string; message?: string }>({
            question: 'Send this refund?',
          });
          seen.push(answer);
          if (answer.type === 'reject') {
            const last = state.messages.at(-1) as { tool_calls?: Array<{ id?: string; name: string }> };
            const call = last.tool_calls![0]!;
            return new Command({
              goto: 'agent',
              update: {
                messages: [
                  { role: 'tool', content: answer.message!, tool_call_id: call.id!, name: call.name },
                ],
              },
            });
          }
          return new Command({ goto: 'tools' });
        },
        { ends: ['agent', 'tools'] },
      )
      .addNode('tools', new ToolNode(tools))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', (state) => (toolsCondition(state) === END ? END : 'review'), [
        'review',
        END,
      ])
      .addEdge('tools', 'agent')
      .compile();
  }

  it('gets a generic reject as { type: "reject", reason, message } by default', async () => {
    const counts: Counts = {};
    const seen: unknown[] = [];
    const first = await fromGraph(reviewGraph(counts, seen, new ScriptedChatModel(refundScript)), {
      name: 'review',
    }).run('refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.actions[0]).toMatchObject({ kind: 'input', request: { question: 'Send this refund?' } });
    const done = await fromGraph(reviewGraph(counts, seen, new ScriptedChatModel(refundScript)), {
      name: 'review',
    }).resume(first.continuation, { [first.actions[0]!.id]: { type: 'reject', reason: 'no' } });
    if (done.status !== 'completed') throw new Error('expected completion');
    expect(seen).toEqual([{ type: 'reject', rejected: true, reason: 'no', message: rejectionMessage('no') }]);
    expect(done.output).toBe(`done: refund=${JSON.stringify(rejectionMessage('no'))}`);
    expect(counts.refund ?? 0).toBe(0);
  });

  it('gets the shape the graph asks for through interruptResume', async () => {
    const counts: Counts = {};
    const seen: unknown[] = [];
    const options = {
      name: 'review',
      interruptResume: (decision: { type: string; reason?: string }) =>
        decision.type === 'reject'
          ? { type: 'reject', message: `manager said: ${decision.reason}` }
          : decision,
    };
    const first = await fromGraph(
      reviewGraph(counts, seen, new ScriptedChatModel(refundScript)),
      options,
    ).run('refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    await fromGraph(reviewGraph(counts, seen, new ScriptedChatModel(refundScript)), options).resume(
      first.continuation,
      { [first.actions[0]!.id]: { type: 'reject', reason: 'no' } },
    );
    expect(seen).toEqual([{ type: 'reject', message: 'manager said: no' }]);
  });

  it('inside a tool of a one-task tool node (createReactAgent v1) names the tool call', async () => {
    const counts: Counts = {};
    const ask = tool(
      async ({ order }) => {
        const answer = interrupt<{ question: string }, string>({ question: `Amount for ${order}?` });
        counts.ask = (counts.ask ?? 0) + 1;
        return `will refund ${answer}`;
      },
      { name: 'ask_amount', description: 'Ask', schema: z.object({ order: z.string() }) },
    );
    const script = [{ toolCalls: [{ name: 'ask_amount', args: { order: 'o-9' } }] }, reportResults];
    const build = () =>
      fromGraph(createReactAgent({ llm: new ScriptedChatModel(script), tools: [ask], version: 'v1' }), {
        name: 'asker',
      });
    const first = await build().run('refund o-9');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.actions.map((a) => [a.id, a.kind, a.toolName, a.args, a.request])).toEqual([
      ['call_1_0', 'input', 'ask_amount', { order: 'o-9' }, { question: 'Amount for o-9?' }],
    ]);
    const done = await build().resume(first.continuation, { call_1_0: { type: 'input', value: '12' } });
    if (done.status !== 'completed') throw new Error('expected completion');
    expect(done.output).toBe('done: ask_amount="will refund 12"');
  });
});

/** A `createAgent` graph whose refund tool the human-in-the-loop middleware holds under `policy`. */
function refundsUnder(
  counts: Counts,
  policy: { allowedDecisions: ('approve' | 'edit' | 'reject')[]; description: string },
) {
  return (llm: ScriptedChatModel) =>
    fromGraph(
      createAgent({
        model: llm,
        tools: [refundTool(counts)],
        middleware: [humanInTheLoopMiddleware({ interruptOn: { refund: policy } })],
      }),
      { name: 'refunds' },
    );
}

describe("the human-in-the-loop middleware's policy", () => {
  it('description and allowedDecisions are kept; an edit it does not allow is refused before anything runs', async () => {
    const counts: Counts = {};
    const build = refundsUnder(counts, {
      allowedDecisions: ['approve', 'reject'],
      description: 'Refunds need a manager',
    });
    const first = await build(new ScriptedChatModel(refundScript)).run('refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const id = first.actions[0]!.id;
    expect(actionPolicies(first.continuation)).toEqual({
      [id]: { description: 'Refunds need a manager', allowedDecisions: ['approve', 'reject'] },
    });
    // The policy is data in the continuation: its action carries it, and the core alone obeys it.
    expect(first.actions[0]).toMatchObject({
      description: 'Refunds need a manager',
      allowedDecisions: ['approve', 'reject'],
    });
    const edit = { [id]: { type: 'approve', args: { order: 'o-1', amount: 5 } } } as const;
    await expect(checkDecisions(first.continuation, edit, new Map())).rejects.toMatchObject({
      code: 'DECISION_NOT_ALLOWED',
    });
    const llm = new ScriptedChatModel(refundScript);
    const error = await build(llm)
      .resume(serializeContinuation(first.continuation), {
        [id]: { type: 'approve', args: { order: 'o-1', amount: 5 } },
      })
      .catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'DECISION_NOT_ALLOWED')).toBe(true);
    expect(String((error as Error).message)).toContain('approve, reject');
    expect(llm.requests).toHaveLength(0);
    expect(counts.refund ?? 0).toBe(0);
    const done = await build(new ScriptedChatModel(refundScript)).resume(first.continuation, {
      [id]: { type: 'approve' },
    });
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ refund: 1 });
  });
  it('a continuation written before entries carried the policy is upgraded: refused, listed and shown alike', async () => {
    const counts: Counts = {};
    const build = refundsUnder(counts, { allowedDecisions: ['reject'], description: 'Refunds are closed' });
    const first = await build(new ScriptedChatModel(refundScript)).run('refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const id = first.actions[0]!.id;
    // As an earlier release wrote it: the policy only in the LangGraph state's interrupt refs.
    const old = JSON.parse(serializeContinuation(first.continuation));
    for (const entry of old.pending) {
      delete entry.description;
      delete entry.allowedDecisions;
    }
    const agent = build(new ScriptedChatModel(refundScript));
    expect(agent.upgrade?.(old).pending[0]).toMatchObject({
      description: 'Refunds are closed',
      allowedDecisions: ['reject'],
    });
    const error = await agent
      .resume(JSON.stringify(old), { [id]: { type: 'approve' } })
      .catch((e: unknown) => e);
    expect(isContinuationError(error, 'DECISION_NOT_ALLOWED')).toBe(true);
    expect(counts.refund ?? 0).toBe(0);

    const runtime = createRuntime({ agents: [agent], store: createMemoryStore() });
    await runtime.store.save(old);
    const view = await runtime.get(old.id);
    expect(view?.actions[0]).toMatchObject({
      id,
      description: 'Refunds are closed',
      allowedDecisions: ['reject'],
    });
    const inbox = await runtime.inbox();
    expect(inbox.items[0]?.action).toMatchObject({ allowedDecisions: ['reject'] });
    const refused = await runtime.resume(old.id, { [id]: { type: 'approve' } }).catch((e: unknown) => e);
    expect(isContinuationError(refused, 'DECISION_NOT_ALLOWED')).toBe(true);
    expect(counts.refund ?? 0).toBe(0);
    const done = await runtime.resume(old.id, { [id]: { type: 'reject', reason: 'closed' } });
    expect(done.status).toBe('completed');
    expect(counts.refund ?? 0).toBe(0);
  });

  it("the runtime streams a stored graph run's resume as the graph's own chunks, sealed", async () => {
    const counts: Counts = {};
    const agent = refundsUnder(counts, { allowedDecisions: ['approve', 'reject'], description: 'Refunds' })(
      new ScriptedChatModel(refundScript),
    );
    const runtime = createRuntime({
      agents: [agent],
      store: createMemoryStore(),
      seal: { secret: 'graph-seal' },
    });
    const first = await runtime.start('refunds', 'refund o-1');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(first.continuation.seal).toBeDefined();
    const id = first.actions[0]!.id;
    const run = await runtime.stream<{ messages?: unknown[] }>(first.continuation.id, {
      [id]: { type: 'approve' },
    });
    const chunks: { messages?: unknown[] }[] = [];
    for await (const chunk of run) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.at(-1)?.messages?.length).toBeGreaterThan(2);
    const done = await run.result;
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ refund: 1 });
  });
});

describe('createReactAgent v1 with two interrupting calls in one turn', () => {
  it('suspends with both (not a lost run); each decided call runs once', async () => {
    const counts: Counts = {};
    const script: Script = [
      {
        toolCalls: [
          { name: 'refund', args: { order: 'o-1', amount: 10 } },
          { name: 'refund', args: { order: 'o-2', amount: 20 } },
          { name: 'lookup', args: { order: 'o-1' } },
        ],
      },
      reportResults,
    ];
    const lookup = tool(
      async ({ order }) => {
        counts.lookup = (counts.lookup ?? 0) + 1;
        return `${order}: paid`;
      },
      { name: 'lookup', description: 'Lookup', schema: z.object({ order: z.string() }) },
    );
    const build = (llm = new ScriptedChatModel(script)) =>
      fromGraph(
        createReactAgent({
          llm,
          tools: [...requireApproval([refundTool(counts)]), lookup],
          version: 'v1',
        }),
        { name: 'refunds' },
      );
    const llm = new ScriptedChatModel(script);
    const first = await build(llm).run('refund both');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    expect(llm.requests).toHaveLength(1);
    expect(first.actions.map((a) => [a.id, a.toolName, a.args])).toEqual([
      ['call_1_0', 'refund', { order: 'o-1', amount: 10 }],
      ['call_1_1', 'refund', { order: 'o-2', amount: 20 }],
    ]);
    expect(counts).toEqual({ lookup: 1 });
    // One decided: it runs, the other still waits.
    const second = await build().resume(serializeContinuation(first.continuation), {
      call_1_0: { type: 'approve' },
    });
    if (second.status !== 'suspended') throw new Error('expected a suspension');
    expect(second.actions.map((a) => a.id)).toEqual(['call_1_1']);
    expect(counts).toEqual({ lookup: 1, refund: 1 });
    const done = await build().resume(serializeContinuation(second.continuation), {
      call_1_1: { type: 'reject', reason: 'no' },
    });
    if (done.status !== 'completed') throw new Error('expected completion');
    expect(counts).toEqual({ lookup: 1, refund: 1 });
    expect(done.output).toBe(
      `done: refund="refunded 10 on o-1" | refund=${JSON.stringify(rejectionMessage('no'))} | lookup="o-1: paid"`,
    );
  });
});
