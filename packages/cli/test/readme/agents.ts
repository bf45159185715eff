import { createContinuableAgent, defineTool } from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing';
import { z } from 'zod';

const transfer = defineTool({
  name: 'transfer',
  parameters: z.object({ to: z.string(), amount: z.number().positive() }),
  needsApproval: ({ amount }) => amount > 100,
  execute: async ({ to, amount }) => {
    console.log(`transfer: sending ${amount} EUR to ${to}`);
    return { sent: amount, to };
  },
});

// Scripted here (no API key needed); with an adapter this is your OpenAI, AI SDK or LangGraph agent.
export const bank = createContinuableAgent({
  name: 'bank',
  model: scriptedModel([
    { toolCalls: [{ id: 'call_1', name: 'transfer', args: { to: 'bob', amount: 500 } }] },
    'Sent.',
  ]),
  tools: [transfer],
});
