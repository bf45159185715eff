import { createRuntime } from '@agent-continuations/core';
import { createPostgresStore } from '@agent-continuations/store-postgres';
import { agent } from './agent'; // any ContinuableAgent, from any adapter

const store = createPostgresStore({ connectionString: process.env.DATABASE_URL });
// Suspensions are saved with an expiry: past it, they can no longer be resumed.
const expiresAt = new Date(Date.now() + 24 * 3600_000);
const runtime = createRuntime({ agents: [agent], store, save: { expiresAt } });

// The run stops to wait for a human: the runtime saves it, and this process may exit.
await runtime.start(agent.name, 'Raise the salary of Ann Example to 120k', { metadata: { tenant: 'acme' } });

// Later, on any machine: one tenant's waiting actions, each resumed by exactly one worker.
const { items } = await runtime.inbox({ metadata: { tenant: 'acme' } });
for (const { continuationId, action } of items) {
  const next = await runtime.resume(continuationId, {
    [action.id]: { type: 'approve', by: 'ann@example.com' },
  });
  console.log(next.status); // 'completed'
}
await store.close();
