import { createRuntime } from '@agent-continuations/core';
import { createAgent, tool } from '@agent-continuations/openai';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import OpenAI from 'openai';
import { z } from 'zod';

// Continuations and the bank's transfers live in one SQLite file.
const store = createSqliteStore({ path: 'accounts.db' });
const db = store.database;
db.exec('CREATE TABLE IF NOT EXISTS transfers (key TEXT PRIMARY KEY, recipient TEXT, amount REAL)');

const transfer = tool({
  name: 'transfer',
  description: 'Transfer money',
  parameters: z.object({ to: z.string(), amount: z.number().positive() }),
  needsApproval: true,
  // ctx.idempotencyKey is the same whenever this call runs again: the money moves once.
  execute: ({ to, amount }, ctx) => {
    db.prepare('INSERT OR IGNORE INTO transfers VALUES (?, ?, ?)').run(ctx.idempotencyKey, to, amount);
    return { sent: amount, to };
  },
});

const agent = createAgent({
  client: new OpenAI(), // your client: base URL, key, retries and timeouts apply
  model: 'gpt-4.1-mini',
  name: 'accounts',
  instructions: 'You help with bank accounts.',
  tools: [transfer],
  api: 'chat', // or 'responses'
});

const runtime = createRuntime({ agents: [agent], store });

// The run stops to wait for a human: the runtime saves it, and this process may exit.
await runtime.start('accounts', 'Send 50 EUR to Bob');

// Later, in any process with the same agent definition: approve what waits, resume it once.
for (const { continuationId, action } of (await runtime.inbox({ agentName: 'accounts' })).items) {
  console.log('approved:', action.toolName, action.args);
  const next = await runtime.resume(continuationId, { [action.id]: { type: 'approve', by: 'ann' } });
  console.log(next.status, next.status === 'completed' ? next.output : '');
}
await store.close();
