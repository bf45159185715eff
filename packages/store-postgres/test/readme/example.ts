import { listActions, resumeStored } from '@agent-continuations/core';
import { createPostgresStore } from '@agent-continuations/store-postgres';
import { agent } from './agent'; // any ContinuableAgent, from any adapter

const store = createPostgresStore({ connectionString: process.env.DATABASE_URL });

// The run stops to wait for a human: save it with a deadline, and this process may exit.
const result = await agent.run('Raise the salary of Ann Example to 120k', { metadata: { tenant: 'acme' } });
if (result.status === 'suspended') {
  await store.save(result.continuation, { expiresAt: new Date(Date.now() + 24 * 3600_000) });
}

// Later, on any machine: one tenant's waiting runs, each resumed by exactly one worker.
const { items } = await store.list({ status: 'suspended', metadata: { tenant: 'acme' } });
for (const { id } of items) {
  const [action] = listActions((await store.load(id))!.continuation);
  const next = await resumeStored(store, agent, id, {
    [action!.id]: { type: 'approve', by: 'ann@example.com' },
  });
  console.log(next.status); // 'completed'
}
await store.close();
