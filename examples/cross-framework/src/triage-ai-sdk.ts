/**
 * The intake worker's agent: an AI SDK `ToolLoopAgent`, made continuable. Refunds need a human's
 * approval.
 */
import { continuable, getToolContext } from '@agent-continuations/vercel-ai';
import { createOpenAI } from '@ai-sdk/openai';
import { ToolLoopAgent, tool } from 'ai';
import { z } from 'zod';
import type { SupportDesk } from './desk';
import type { Endpoint } from './models';

/** Both workers name the agent the same: a continuation only resumes in an agent of its name. */
export const AGENT_NAME = 'support-triage';
export const INSTRUCTIONS =
  'You triage support tickets. Look orders up, refund damaged deliveries, and tag the ticket.';

export function triageWithAiSdk(desk: SupportDesk, at: Endpoint) {
  const openai = createOpenAI({ apiKey: at.apiKey, ...(at.baseURL ? { baseURL: at.baseURL } : {}) });
  const agent = new ToolLoopAgent({
    model: openai(at.model),
    instructions: INSTRUCTIONS,
    tools: {
      lookup_order: tool({
        description: 'Look up an order by id',
        inputSchema: z.object({ orderId: z.string() }),
        execute: async ({ orderId }) => desk.lookupOrder(orderId),
      }),
      issue_refund: tool({
        description: 'Refund an order (needs approval)',
        inputSchema: z.object({ orderId: z.string(), amount: z.number().positive() }),
        needsApproval: true,
        execute: async ({ orderId, amount }, options) =>
          desk.issueRefund(orderId, amount, getToolContext(options).idempotencyKey),
      }),
      tag_ticket: tool({
        description: 'Tag a support ticket',
        inputSchema: z.object({ ticket: z.string(), tag: z.string() }),
        execute: async ({ ticket, tag }) => desk.tagTicket(ticket, tag),
      }),
    },
  });
  return continuable(agent, { name: AGENT_NAME });
}
