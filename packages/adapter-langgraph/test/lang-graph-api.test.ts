/**
 * The LangGraph HTTP API over a runtime, spoken to by `@langchain/langgraph-sdk`'s real `Client`
 * (and the orchestrator `useStream` runs on) over HTTP, on a SQLite store, with LangGraph agents
 * whose model alone is scripted.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type Runtime } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { lastToolResults, type Script, type ScriptedTurn } from '@agent-continuations/testing';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { Client } from '@langchain/langgraph-sdk';
import { StreamOrchestrator } from '@langchain/langgraph-sdk/ui';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph, humanTool, langGraphApi, requireApproval } from '../src';
import { type FetchServer, serveFetch } from './fetch-server';
import { ScriptedChatModel } from './scripted-chat-model';

const script: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'refund', args: { order: 'A-7', amount: 120 } }] },
  (request) =>
    `Done: ${lastToolResults(request.messages)
      .map((result) => String(result.output))
      .join('; ')}`,
];

const questionScript: Script = [
  { toolCalls: [{ name: 'ask_warehouse', args: { question: 'Which warehouse ships A-7?' } }] },
  (request) => `Shipping from ${String(lastToolResults(request.messages)[0]?.output)}`,
];

/** `base`, whose first model call fails (a provider outage), then answers as `base` does. */
function failingOnce(base: readonly ScriptedTurn[]): Script {
  let failed = false;
  const [first, ...rest] = base;
  return [
    (request) => {
      if (!failed) {
        failed = true;
        throw new Error('provider unavailable');
      }
      return typeof first === 'function' ? first(request) : first!;
    },
    ...rest,
  ];
}

interface Setup {
  client: Client;
  runtime: Runtime;
  received: unknown[];
  url: string;
  /** The compiled graph, as the app reads its own threads. */
  graph: { getState(config: { configurable: { thread_id: string } }): Promise<{ next: string[] }> };
}

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const each of open.splice(0).reverse()) await each.close();
});

async function setup(
  kind: 'react' | 'create-agent' | 'question' | 'flaky',
  path = ':memory:',
  interrupts: 'human-interrupt' | 'middleware' = 'human-interrupt',
  checkpointer?: MemorySaver,
): Promise<Setup> {
  const received: unknown[] = [];
  const refund = tool(
    async (args: { order: string; amount: number }) => {
      received.push(args);
      return `refunded ${args.amount} EUR on ${args.order}`;
    },
    {
      name: 'refund',
      description: 'Refund an order',
      schema: z.object({ order: z.string(), amount: z.number() }),
    },
  );
  const ask = humanTool({
    name: 'ask_warehouse',
    description: 'Ask which warehouse ships the order',
    schema: z.object({ question: z.string() }),
  });
  const model = new ScriptedChatModel(
    kind === 'question' ? questionScript : kind === 'flaky' ? failingOnce(script) : script,
  );
  const graph =
    kind === 'react' || kind === 'flaky'
      ? createReactAgent({
          llm: model,
          tools: requireApproval([refund], true),
          version: 'v2',
          ...(checkpointer ? { checkpointer } : {}),
        })
      : kind === 'question'
        ? createReactAgent({ llm: model, tools: [ask], version: 'v2' })
        : createAgent({
            model,
            tools: [refund],
            middleware: [
              humanInTheLoopMiddleware({
                interruptOn: {
                  refund: {
                    allowedDecisions: ['approve', 'reject'],
                    description: 'Refunds need a second pair of eyes',
                  },
                },
              }),
            ],
          });
  const store = createSqliteStore({ path });
  const runtime = createRuntime({ agents: [fromGraph(graph, { name: 'payments' })], store });
  const server: FetchServer = await serveFetch(
    langGraphApi(runtime, { agent: 'payments', interrupts, context: () => ({ user: 'ann' }) }),
  );
  open.push(server, { close: () => store.close?.() });
  const url = `${server.url}/api/langgraph`;
  return {
    client: new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } }),
    runtime,
    received,
    url,
    graph: graph as unknown as Setup['graph'],
  };
}

type Chunk = { event: string; data: any };

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function statusOf(work: Promise<unknown>): Promise<number | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    return (error as { status?: number }).status;
  }
}

const ask = { messages: [{ type: 'human', content: 'Refund order A-7' }] };

/** A thread streamed to its interrupt; returns the thread id and the interrupt's id. */
async function suspend({ client }: Setup): Promise<{ thread: string; id: string; chunks: Chunk[] }> {
  const { thread_id: thread } = await client.threads.create();
  const chunks = await collect(
    client.runs.stream(thread, 'payments', { input: ask, streamMode: ['values', 'updates'] }),
  );
  const interrupt = chunks.find((chunk) => chunk.event === 'values' && chunk.data.__interrupt__)?.data
    .__interrupt__;
  expect(interrupt).toHaveLength(1);
  return { thread, id: interrupt[0].id, chunks };
}

function lastText(values: any): string {
  return values.messages.at(-1).content;
}

describe('langGraphApi with the SDK Client', () => {
  it("runs a graph on the app's checkpointer on the API's own thread id", async () => {
    const checkpointer = new MemorySaver();
    const app = await setup('react', ':memory:', 'human-interrupt', checkpointer);
    const { thread, id } = await suspend(app);
    // The app's own saver holds the waiting run under the thread id the client uses.
    const waiting = await app.graph.getState({ configurable: { thread_id: thread } });
    expect(waiting.next.length).toBeGreaterThan(0);
    await collect(
      app.client.runs.stream(thread, 'payments', {
        command: { resume: { [id]: { type: 'accept' } } },
        streamMode: 'values',
      }),
    );
    expect(app.received).toEqual([{ order: 'A-7', amount: 120 }]);
    const after = await app.graph.getState({ configurable: { thread_id: thread } });
    expect(after.next).toEqual([]);
  });

  it('streams a run to its interrupt, lists it as a HumanInterrupt, and resumes it once with command.resume', async () => {
    const app = await setup('react');
    const { client, received, runtime } = app;
    const { thread, id, chunks } = await suspend(app);
    expect(chunks[0]).toMatchObject({ event: 'metadata', data: { run_id: expect.any(String) } });
    expect(chunks.some((chunk) => chunk.event === 'updates' && chunk.data.__interrupt__)).toBe(true);
    expect(received).toEqual([]);

    const state = await client.threads.getState(thread);
    expect(state.next).toEqual(['refund']);
    expect(state.tasks).toHaveLength(1);
    expect(state.tasks[0]!.interrupts).toEqual([
      {
        id,
        value: {
          action_request: { action: 'refund', args: { order: 'A-7', amount: 120 } },
          config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true },
        },
      },
    ]);
    expect((state.values as any).messages.map((message: any) => message.type)).toEqual(['human', 'ai']);
    // The interrupt id is the action id the runtime's inbox shows.
    const { items } = await runtime.inbox({ metadata: { threadId: thread } });
    expect(items.map((item) => item.action.id)).toEqual([id]);
    expect((await client.threads.get(thread)).status).toBe('interrupted');

    const resumed = await collect(
      client.runs.stream(thread, 'payments', {
        command: { resume: { [id]: { type: 'accept', args: null } } },
      }),
    );
    const last = resumed.filter((chunk) => chunk.event === 'values').at(-1)!.data;
    expect(lastText(last)).toBe('Done: refunded 120 EUR on A-7');
    expect(received).toEqual([{ order: 'A-7', amount: 120 }]);

    const after = await client.threads.getState(thread);
    expect(lastText(after.values)).toBe('Done: refunded 120 EUR on A-7');
    expect(after.next).toEqual([]);
    expect(after.tasks).toEqual([]);
    expect((await client.threads.get(thread)).status).toBe('idle');
    const history = await client.threads.getHistory(thread);
    expect(history.map((each) => lastText(each.values))).toEqual(['Done: refunded 120 EUR on A-7']);

    // A second resume of the decided thread is refused, and nothing runs again.
    const again = client.runs.stream(thread, 'payments', {
      command: { resume: { type: 'accept', args: null } },
    });
    expect(await statusOf(collect(again))).toBe(409);
    expect(received).toHaveLength(1);
  });

  it('lets one of two racing resumes through; the other gets 409 and the tool runs once', async () => {
    const app = await setup('react');
    const { thread } = await suspend(app);
    const resume = () =>
      statusOf(
        collect(
          app.client.runs.stream(thread, 'payments', { command: { resume: { type: 'accept', args: null } } }),
        ),
      );
    const statuses = await Promise.all([resume(), resume()]);
    expect(statuses.sort()).toEqual([409, undefined]);
    expect(app.received).toHaveLength(1);
  });

  it('round-trips Agent Inbox HumanResponses (a list of one) for accept, edit, response and ignore', async () => {
    const cases = [
      {
        response: { type: 'accept', args: null },
        ran: [{ order: 'A-7', amount: 120 }],
        answer: 'Done: refunded 120 EUR on A-7',
      },
      {
        response: { type: 'edit', args: { action: 'refund', args: { order: 'A-7', amount: 80 } } },
        ran: [{ order: 'A-7', amount: 80 }],
        answer: 'Done: refunded 80 EUR on A-7',
      },
      { response: { type: 'response', args: 'Over the limit' }, ran: [], answer: 'Over the limit' },
      { response: { type: 'ignore', args: null }, ran: [], answer: 'A human rejected this tool call' },
    ];
    for (const { response, ran, answer } of cases) {
      const app = await setup('react');
      const { thread } = await suspend(app);
      const values = await app.client.runs.wait(thread, 'payments', { command: { resume: [response] } });
      expect(lastText(values), response.type).toContain(answer);
      expect(app.received, response.type).toEqual(ran);
    }
  });

  it("shows createAgent's middleware policy as the interrupt's config, and refuses what it does not allow", async () => {
    const app = await setup('create-agent');
    const { thread, id } = await suspend(app);
    const state = await app.client.threads.getState(thread);
    expect(state.tasks[0]!.interrupts[0]!.value).toEqual({
      action_request: { action: 'refund', args: { order: 'A-7', amount: 120 } },
      config: { allow_accept: true, allow_edit: false, allow_respond: true, allow_ignore: true },
      description: 'Refunds need a second pair of eyes',
    });
    const edit = { type: 'edit', args: { action: 'refund', args: { order: 'A-7', amount: 1 } } };
    const refused = app.client.runs.wait(thread, 'payments', { command: { resume: { [id]: edit } } });
    expect(await statusOf(refused)).toBe(422);
    expect(app.received).toEqual([]);
    // Still waiting: the refusal ran nothing and kept the suspension.
    const values = await app.client.runs.wait(thread, 'payments', {
      command: { resume: { [id]: { type: 'accept', args: null } } },
    });
    expect(lastText(values)).toBe('Done: refunded 120 EUR on A-7');
    expect(app.received).toEqual([{ order: 'A-7', amount: 120 }]);
  });

  it('answers client errors with 404, 409, 400 and 422, never 500, and runs nothing', async () => {
    const app = await setup('react');
    const { client, url } = app;
    expect(await statusOf(client.threads.getState('no-such-thread'))).toBe(404);
    expect(await statusOf(collect(client.runs.stream('no-such-thread', 'payments', { input: ask })))).toBe(
      404,
    );
    const { thread } = await suspend(app);
    expect(await statusOf(collect(client.runs.stream(thread, 'nobody', { input: ask })))).toBe(404);
    // New input while an interrupt waits, and a resume that fits no action.
    expect(await statusOf(collect(client.runs.stream(thread, 'payments', { input: ask })))).toBe(409);
    expect(await statusOf(client.runs.wait(thread, 'payments', { command: { resume: 'yes' } }))).toBe(422);
    expect(
      await statusOf(
        client.runs.wait(thread, 'payments', { command: { resume: { other: { type: 'accept' } } } }),
      ),
    ).toBe(409);
    const { thread_id: fresh } = await client.threads.create();
    expect(await statusOf(client.runs.wait(fresh, 'payments', { input: { messages: [] } }))).toBe(400);
    expect(await statusOf(client.runs.wait(fresh, 'payments', { input: { messages: [{ foo: 1 }] } }))).toBe(
      400,
    );
    expect(await statusOf(client.runs.wait(fresh, 'payments', {}))).toBe(400);
    const raw = await fetch(`${url}/threads/${thread}/runs/stream`, { method: 'POST', body: '{ not json' });
    expect(raw.status).toBe(400);
    expect((await raw.json()).detail).toMatch(/JSON/);
    expect(await statusOf(client.threads.create({ threadId: thread }))).toBe(409);
    expect((await client.threads.create({ threadId: thread, ifExists: 'do_nothing' })).thread_id).toBe(
      thread,
    );
    expect(app.received).toEqual([]);
    expect((await client.threads.getState(thread)).tasks).toHaveLength(1);
  });

  it('answers an input action with a response, the answer reaching the tool as its result', async () => {
    const app = await setup('question');
    const { thread, id } = await suspend(app);
    const state = await app.client.threads.getState(thread);
    expect(state.tasks[0]!.interrupts[0]).toEqual({
      id,
      value: {
        action_request: { action: 'ask_warehouse', args: { question: 'Which warehouse ships A-7?' } },
        config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: true },
        description: JSON.stringify({ question: 'Which warehouse ships A-7?' }),
      },
    });
    // Accepting a question is not what its config allows.
    const accepted = app.client.runs.wait(thread, 'payments', {
      command: { resume: [{ type: 'accept', args: null }] },
    });
    expect(await statusOf(accepted)).toBe(422);
    const values = await app.client.runs.wait(thread, 'payments', {
      command: { resume: [{ type: 'response', args: 'Lyon' }] },
    });
    expect(lastText(values)).toBe('Shipping from Lyon');
  });

  it('resumes, through a second process on the same SQLite file, a thread the first one suspended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-langgraph-api-'));
    open.push({ close: () => rmSync(dir, { recursive: true, force: true }) });
    const path = join(dir, 'continuations.db');
    const first = await setup('react', path);
    const { thread, id } = await suspend(first);
    const second = await setup('react', path);
    // The second process never saw the thread: the store's record, saved with the thread id, is enough.
    expect((await second.client.threads.getState(thread)).tasks[0]!.interrupts[0]!.id).toBe(id);
    const values = await second.client.runs.wait(thread, 'payments', {
      command: { resume: { [id]: { type: 'accept', args: null } } },
    });
    expect(lastText(values)).toBe('Done: refunded 120 EUR on A-7');
    expect([first.received, second.received]).toEqual([[], [{ order: 'A-7', amount: 120 }]]);
    // And the first process cannot resume it again.
    const again = first.client.runs.wait(thread, 'payments', {
      command: { resume: { [id]: { type: 'accept', args: null } } },
    });
    expect(await statusOf(again)).toBe(409);
    expect(first.received).toEqual([]);
  });

  it("shows approvals as the middleware's request to a useStream page written for createAgent, answered with { decisions }", async () => {
    const app = await setup('create-agent', ':memory:', 'middleware');
    const orchestrator = new StreamOrchestrator(
      { assistantId: 'payments' },
      { getClient: () => app.client, getAssistantId: () => 'payments', getMessagesKey: () => 'messages' },
    );
    open.push({ close: () => orchestrator.dispose() });
    await orchestrator.submit(ask);
    const request = (orchestrator.interrupt as { value: any }).value;
    // The SDK adds snake_case aliases (action_name, allowed_decisions) as it reads the request.
    expect(request.actionRequests).toMatchObject([
      {
        name: 'refund',
        args: { order: 'A-7', amount: 120 },
        description: 'Refunds need a second pair of eyes',
      },
    ]);
    expect(request.reviewConfigs).toMatchObject([
      { actionName: 'refund', allowedDecisions: ['approve', 'reject'] },
    ]);
    // An edit the policy does not allow is refused, and nothing runs.
    const thread = orchestrator.threadId!;
    const edit = { type: 'edit', editedAction: { name: 'refund', args: { order: 'A-7', amount: 1 } } };
    const refused = app.client.runs.wait(thread, 'payments', { command: { resume: { decisions: [edit] } } });
    expect(await statusOf(refused)).toBe(422);
    await orchestrator.submit(undefined as never, {
      command: { resume: { decisions: [{ type: 'reject', message: 'Refunds wait for Monday' }] } },
    });
    expect(lastText(orchestrator.values)).toContain('Refunds wait for Monday');
    expect(app.received).toEqual([]);
    expect(orchestrator.interrupts).toEqual([]);
  });

  it("answers the middleware's request keyed by its interrupt id, approving the call once", async () => {
    const app = await setup('create-agent', ':memory:', 'middleware');
    const { thread, id } = await suspend(app);
    const values = await app.client.runs.wait(thread, 'payments', {
      command: { resume: { [id]: { decisions: [{ type: 'approve' }] } } },
    });
    expect(lastText(values)).toBe('Done: refunded 120 EUR on A-7');
    expect(app.received).toEqual([{ order: 'A-7', amount: 120 }]);
  });

  it('streams a model failure as an error event, and a resume with nothing to decide retries the call', async () => {
    const app = await setup('flaky');
    const { thread_id: thread } = await app.client.threads.create();
    const chunks = await collect(app.client.runs.stream(thread, 'payments', { input: ask }));
    expect(chunks.at(-1)).toMatchObject({ event: 'error', data: { error: 'MODEL_ERROR' } });
    // The run's last good state waits on the thread, with nothing to decide.
    const state = await app.client.threads.getState(thread);
    expect([state.next, state.tasks]).toEqual([['payments'], []]);
    const retried = await app.client.runs.wait(thread, 'payments', { command: { resume: null } });
    expect((retried as any).__interrupt__[0].value.action_request.action).toBe('refund');
    expect(app.received).toEqual([]);
  });

  it("drives useStream's orchestrator: submit, read the interrupt, resume with command.resume", async () => {
    const app = await setup('react');
    const orchestrator = new StreamOrchestrator(
      { assistantId: 'payments' },
      { getClient: () => app.client, getAssistantId: () => 'payments', getMessagesKey: () => 'messages' },
    );
    open.push({ close: () => orchestrator.dispose() });
    await orchestrator.submit(ask);
    const interrupt = orchestrator.interrupt as { id: string; value: any };
    expect(interrupt.value.action_request).toEqual({ action: 'refund', args: { order: 'A-7', amount: 120 } });
    expect(app.received).toEqual([]);
    await orchestrator.submit(undefined as never, {
      command: { resume: { [interrupt.id]: { type: 'accept', args: null } } },
    });
    expect(orchestrator.interrupts).toEqual([]);
    expect(lastText(orchestrator.values)).toBe('Done: refunded 120 EUR on A-7');
    expect(app.received).toEqual([{ order: 'A-7', amount: 120 }]);
    const thread = orchestrator.threadId!;
    expect(lastText((await app.client.threads.getState(thread)).values)).toBe(
      'Done: refunded 120 EUR on A-7',
    );
  });
});
