import { listActions, resumeStored } from '@agent-continuations/core';
import { createRedisStore } from '@agent-continuations/store-redis';
import { agent } from './agent'; // any ContinuableAgent, from any adapter

const store = createRedisStore({ url: process.env.REDIS_URL, prefix: 'payroll:' });

// The run stops to wait for a human: save it, and this process may exit.
const result = await agent.run('Raise the salary of Ann Example to 120k');
if (result.status === 'suspended') await store.save(result.continuation);

// Later, in any process: a human turns it down; the model hears why and answers.
for (const { id } of (await store.list({ status: 'suspended', agentName: agent.name })).items) {
  const [action] = listActions((await store.load(id))!.continuation);
  const decisions = {
    [action!.id]: { type: 'reject' as const, reason: 'Budget is frozen', by: 'cfo@example.com' },
  };
  const next = await resumeStored(store, agent, id, decisions);
  console.log(next.status); // 'completed', and update_salary never ran
}
await store.close();
