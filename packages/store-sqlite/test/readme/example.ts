import { createRuntime } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { agent } from './agent'; // any ContinuableAgent, from any adapter

const store = createSqliteStore({ path: 'agents.db' });
const runtime = createRuntime({ agents: [agent], store });

// The run stops to wait for a human: the runtime saves it, and this process may exit.
await runtime.start(agent.name, 'Raise the salary of Ann Example to 120k');

// Later, in any process: find what waits, approve it, and resume it exactly once.
const [item] = (await runtime.inbox()).items;
const next = await runtime.resume(item!.continuationId, {
  [item!.action.id]: { type: 'approve', by: 'ann@example.com' },
});
console.log(next.status); // 'completed'
await store.close();
