// runtime.ts
import { createRuntime, type RuntimeAgent } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { agent } from './agent'; // the agent above

export const runtime = createRuntime({
  // The runtime's agent type names neutral messages for stream(); this agent streams AI SDK ones.
  agents: [agent as unknown as RuntimeAgent],
  store: createSqliteStore({ path: 'agents.db' }),
});
