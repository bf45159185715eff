/**
 * The support desk as an OpenAI Agents SDK app writes it: a triage agent that hands off to a
 * billing agent, whose `refund` tool needs a human's approval. Nothing here knows about
 * continuations; `demo.ts` wraps the triage agent with one line.
 */
import { appendFileSync } from 'node:fs';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

/** The agents, each on `model`; every refund that runs is logged to `refundLog` with the process id. */
export function supportAgents(model: string, refundLog: string): Agent {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: async (_context, { amount }) => amount > 20,
    execute: async ({ orderId, amount }) => {
      appendFileSync(refundLog, `${JSON.stringify({ orderId, amount, pid: process.pid })}\n`);
      return { refunded: amount, orderId };
    },
  });
  const billing = new Agent({
    name: 'billing',
    instructions: 'You handle refunds. Refund what the customer paid for a broken order.',
    handoffDescription: 'Refunds and invoices',
    model,
    tools: [refund],
  });
  return new Agent({
    name: 'triage',
    instructions: 'You route customers to the right team.',
    model,
    handoffs: [billing],
  });
}
