import { type Decisions, listActions, serializeContinuation } from '@agent-continuations/core';
import { continuationFromThread, fromGraph } from '@agent-continuations/langgraph';
import { tool } from '@langchain/core/tools';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
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

// The app as it is: its agent, its middleware, its checkpointer and its thread ids.
function buildApp() {
  const graph = createAgent({
    model: new ChatOpenAI({ model: 'gpt-4.1-mini' }),
    tools: [refund],
    middleware: [humanInTheLoopMiddleware({ interruptOn: { refund: true } })],
    checkpointer: SqliteSaver.fromConnString('threads.db'),
  });
  // The one line that adopts continuations: runs stay on the app's saver and threads.
  return { graph, agent: fromGraph(graph, { name: 'support' }) };
}
const ticket = { configurable: { thread_id: 'ticket-42' } };

// A thread that was paused natively, before the app adopted continuations.
const before = buildApp();
await before.graph.invoke({ messages: [{ role: 'user', content: 'Refund order A-7' }] }, ticket);

// Adopt it: its pending interrupt becomes an action; nothing runs.
const { continuation } = await continuationFromThread(before.agent, 'ticket-42');
const saved = serializeContinuation(continuation); // any store, any process

// Later, elsewhere: decide and resume. The refund runs once, and the thread gets the rest.
const later = buildApp();
const decisions: Decisions = {};
for (const action of listActions(continuation)) decisions[action.id] = { type: 'approve', by: 'ann' };
const done = await later.agent.resume(saved, decisions);
console.log(done.status === 'completed' ? done.output : done.status);
const thread = await later.graph.graph.getState(ticket); // createAgent's compiled graph
console.log(thread.next.length === 0 ? 'the thread is finished' : 'the thread waits');
