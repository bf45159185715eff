import { createRuntime } from '@agent-continuations/core';
import { fromGraph, langGraphApi, requireApproval } from '@agent-continuations/langgraph';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { Client } from '@langchain/langgraph-sdk';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';

const refund = tool(
  async ({ order, amount }) => {
    console.log(`refunding ${amount} EUR on ${order}`);
    return `refunded ${amount} EUR on ${order}`;
  },
  {
    name: 'refund',
    description: 'Refund an order',
    schema: z.object({ order: z.string(), amount: z.number() }),
  },
);
const llm = new ChatOpenAI({ model: 'gpt-4.1-mini' });
const graph = createReactAgent({ llm, tools: requireApproval([refund], true), version: 'v2' });
const runtime = createRuntime({
  agents: [fromGraph(graph, { name: 'payments' })],
  store: createSqliteStore({ path: 'continuations.db' }),
});

// The route: mount it under any path (e.g. a Next.js catch-all route `app/api/langgraph/[...path]`).
const api = langGraphApi(runtime, { agent: 'payments' });

// Any LangGraph client works unchanged; this one calls the handler in-process instead of over HTTP.
const client = new Client({
  apiUrl: 'http://localhost/api/langgraph',
  callerOptions: { fetch: (url: string, init?: RequestInit) => api(new Request(url, init)) },
});
const { thread_id } = await client.threads.create();
await client.runs.wait(thread_id, 'payments', {
  input: { messages: [{ type: 'human', content: 'Refund order A-7' }] },
});

// The thread waits: its interrupt is a HumanInterrupt whose id is the action's id.
const state = await client.threads.getState(thread_id);
const interrupt = state.tasks[0]!.interrupts[0]!;
console.log(JSON.stringify(interrupt.value));

// Agent Inbox answers with a HumanResponse: accept, edit, response or ignore.
const done = await client.runs.wait(thread_id, 'payments', {
  command: { resume: { [interrupt.id!]: { type: 'accept', args: null } } },
});
console.log((done as { messages: Array<{ content: string }> }).messages.at(-1)!.content);
