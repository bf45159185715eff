/**
 * The handoff scenario: a payments agent that looks up an account, asks approval to notify the
 * customer, then asks approval for a transfer while a second lookup runs in the same turn. The
 * source framework suspends there; the target framework approves the transfer (with an edit),
 * suspends once more on a second notification, and completes.
 */
import type { Decisions, ModelRequest } from '@agent-continuations/core';
import { type Counts, lastToolResults, reportResults, type Script } from '@agent-continuations/testing';
import { z } from 'zod';
import { countedTool, lookupAccount, transfer } from './counted-tools';
import type { AgentSpec } from './frameworks';

/** The agent name on both sides of every handoff. */
export const HANDOFF_AGENT = 'payments';
export const HANDOFF_INSTRUCTIONS = 'You move money for customers. Ask before you notify or transfer.';
export const HANDOFF_METADATA = { tenant: 'acme', ticket: 'T-4711', tags: ['vip', 'eu'] };
export const HANDOFF_PROMPT = 'Pay Bob 50 EUR from account A-1.';

/** What the model says, decided from the transcript alone (the same on every framework). */
export const handoffScript: Script = [
  {
    text: 'Let me check the account first.',
    toolCalls: [{ name: 'lookup_account', args: { account: 'A-1' } }],
  },
  {
    text: 'I will tell the customer before moving money.',
    toolCalls: [{ name: 'notify_customer', args: { message: 'We are sending 50 EUR to Bob.' } }],
  },
  {
    text: 'The balance covers it; sending 50 EUR to Bob.',
    toolCalls: [
      { name: 'transfer', args: { to: 'bob', amount: 50 } },
      { name: 'lookup_account', args: { account: 'B-2' } },
    ],
  },
  (request: ModelRequest) => ({
    text: `Transfer result: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}.`,
    toolCalls: [{ name: 'notify_customer', args: { message: 'Your transfer went out.' } }],
  }),
  reportResults,
];

/** The scenario's agent, its tools counting their executions in `counts`; `tools` picks some of them. */
export function handoffAgent(counts: Counts, model: string, tools = handoffToolNames): AgentSpec {
  const notify = countedTool(
    counts,
    {
      name: 'notify_customer',
      description: 'Send the customer a message',
      parameters: z.object({ message: z.string() }),
      needsApproval: true,
    },
    ({ message }) => ({ sent: true, message }),
  );
  return {
    name: HANDOFF_AGENT,
    model,
    instructions: HANDOFF_INSTRUCTIONS,
    tools: [lookupAccount(counts), notify, transfer(counts)].filter((tool) => tools.includes(tool.name)),
  };
}

export const handoffToolNames: readonly string[] = ['lookup_account', 'notify_customer', 'transfer'];

/** The source side approves the first notification. */
export const sourceDecisions = (actionId: string): Decisions => ({
  [actionId]: { type: 'approve', by: 'ann@acme', reason: 'customer asked for updates' },
});

/** The target side approves the transfer with a lower amount. */
export const transferDecision = (actionId: string): Decisions => ({
  [actionId]: { type: 'approve', args: { to: 'bob', amount: 45 }, by: 'bob@acme', reason: 'daily limit' },
});

/** The target side approves the second notification. */
export const finalDecision = (actionId: string): Decisions => ({
  [actionId]: { type: 'approve', by: 'ann@acme' },
});
