// agent.ts
import { continuable } from '@agent-continuations/vercel-ai';
import { openai } from '@ai-sdk/openai'; // reads OPENAI_API_KEY, and OPENAI_BASE_URL when set
import { ToolLoopAgent, tool } from 'ai';
import { z } from 'zod';

const transfer = tool({
  description: 'Transfer money',
  inputSchema: z.object({ to: z.string(), amount: z.number().positive() }),
  needsApproval: ({ amount }) => amount > 100,
  execute: async ({ to, amount }) => {
    console.log(`Sent ${amount} EUR to ${to}`); // your bank's API here
    return { status: 'sent', to, amount };
  },
});

export const agent = continuable(
  new ToolLoopAgent({
    model: openai('gpt-4.1'),
    instructions: 'You help with bank accounts.',
    tools: { transfer },
  }),
  { name: 'accounts' },
);
