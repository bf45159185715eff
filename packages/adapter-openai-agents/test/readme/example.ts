import { createMemoryStore, createRuntime } from '@agent-continuations/core';
import { continuable } from '@agent-continuations/openai-agents';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

// The agent as the SDK's human-in-the-loop examples write it.
const transfer = tool({
  name: 'transfer',
  description: 'Send money',
  parameters: z.object({ to: z.string(), amount: z.number() }),
  needsApproval: async (_context, { amount }) => amount > 100,
  execute: async ({ to, amount }) => ({ sent: amount, to }),
});
const bank = new Agent({
  name: 'bank',
  instructions: 'You move money.',
  model: 'gpt-4.1-mini',
  tools: [transfer],
});

// The one wrap line, and a runtime that saves what waits.
const runtime = createRuntime({ agents: [continuable(bank)], store: createMemoryStore() });

const paused = await runtime.start('bank', 'Send 500 to bob');
if (paused.status === 'suspended') {
  const [action] = paused.actions;
  console.log(`waiting: ${action!.toolName} ${JSON.stringify(action!.args)}`);
  // Later, in any process with the same store: approve, and the transfer runs once.
  const done = await runtime.resume(paused.continuation.id, { [action!.id]: { type: 'approve', by: 'ann' } });
  if (done.status === 'completed') console.log(done.output);
}
