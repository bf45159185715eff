// run.ts
import { resumeStored } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { agent } from './agent'; // the agent above

const store = createSqliteStore({ path: 'agents.db' });

const result = await agent.run('Send 500 EUR to Bob');
if (result.status === 'suspended') {
  await store.save(result.continuation); // this process may exit now
  // Later, in any process, with the same agent: approve, and resume exactly once.
  const next = await resumeStored(store, agent, result.continuation.id, {
    [result.actions[0]!.id]: { type: 'approve', by: 'ann@example.com' },
  });
  if (next.status === 'completed') console.log(next.output);
}
await store.close();
