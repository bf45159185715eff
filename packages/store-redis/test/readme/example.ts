import { createRuntime } from '@agent-continuations/core';
import { createRedisStore } from '@agent-continuations/store-redis';
import { agent } from './agent'; // any ContinuableAgent, from any adapter

const store = createRedisStore({ url: process.env.REDIS_URL, prefix: 'payroll:' });
const runtime = createRuntime({ agents: [agent], store });

// The run stops to wait for a human: the runtime saves it, and this process may exit.
await runtime.start(agent.name, 'Raise the salary of Ann Example to 120k');

// Later, in any process: a human turns it down; the model hears why and answers.
for (const { continuationId, action } of (await runtime.inbox({ agentName: agent.name })).items) {
  const decisions = {
    [action.id]: { type: 'reject' as const, reason: 'Budget is frozen', by: 'cfo@example.com' },
  };
  const next = await runtime.resume(continuationId, decisions);
  console.log(next.status); // 'completed', and update_salary never ran
}
await store.close();
