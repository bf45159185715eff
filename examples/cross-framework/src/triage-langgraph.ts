/**
 * The finishing worker's agent: langchain's `createAgent` (a LangGraph graph) with tools of the
 * same names, wrapped by `fromGraph`. It has never seen the intake worker's run: it resumes from
 * the continuation's neutral messages.
 */
import { fromGraph, getToolContext, requireApproval } from '@agent-continuations/langgraph';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { z } from 'zod';
import type { SupportDesk } from './desk';
import type { Endpoint } from './models';
import { AGENT_NAME, INSTRUCTIONS } from './triage-ai-sdk';

export function triageWithLangGraph(desk: SupportDesk, at: Endpoint) {
  const tools = [
    tool(async ({ orderId }) => desk.lookupOrder(orderId), {
      name: 'lookup_order',
      description: 'Look up an order by id',
      schema: z.object({ orderId: z.string() }),
    }),
    tool(
      async ({ orderId, amount }, config) =>
        // The core's key (run id + tool-call id): the same in every process and framework that
        // settles this call, so the refund is issued once.
        desk.issueRefund(orderId, amount, getToolContext(config).idempotencyKey),
      {
        name: 'issue_refund',
        description: 'Refund an order (needs approval)',
        schema: z.object({ orderId: z.string(), amount: z.number().positive() }),
      },
    ),
    tool(async ({ ticket, tag }) => desk.tagTicket(ticket, tag), {
      name: 'tag_ticket',
      description: 'Tag a support ticket',
      schema: z.object({ ticket: z.string(), tag: z.string() }),
    }),
  ];
  const model = new ChatOpenAI({
    model: at.model,
    apiKey: at.apiKey,
    ...(at.baseURL ? { configuration: { baseURL: at.baseURL } } : {}),
  });
  const graph = createAgent({
    model,
    tools: requireApproval(tools, ['issue_refund']),
    systemPrompt: INSTRUCTIONS,
  });
  return fromGraph(graph, { name: AGENT_NAME });
}
