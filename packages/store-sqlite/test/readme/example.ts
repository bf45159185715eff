import { type Decisions, listActions, resumeStored } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { agent } from './agent'; // any ContinuableAgent, from any adapter

const store = createSqliteStore({ path: 'agents.db' });

// The run stops to wait for a human: save it, and this process may exit.
const result = await agent.run('Raise the salary of Ann Example to 120k');
if (result.status === 'suspended') await store.save(result.continuation);

// Later, in any process: find what waits, approve it, and resume it exactly once.
for (const { id } of (await store.list({ status: 'suspended' })).items) {
  const { continuation } = (await store.load(id))!;
  const decisions: Decisions = {};
  for (const action of listActions(continuation)) {
    decisions[action.id] = { type: 'approve', by: 'ann@example.com' };
  }
  const next = await resumeStored(store, agent, id, decisions);
  console.log(next.status); // 'completed'
}
await store.close();
