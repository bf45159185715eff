// runtime.ts
import { createRuntime } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { agent } from './agent'; // the agent above

export const runtime = createRuntime({
  agents: [agent],
  store: createSqliteStore({ path: 'agents.db' }),
});
