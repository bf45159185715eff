/**
 * The account agent: an ordinary OpenAI tool loop (look an account up, transfer money), wrapped by
 * `createAgent` so the transfer waits for a human's approval as a saved continuation.
 */
import { createAgent, tool } from '@agent-continuations/openai';
import type OpenAI from 'openai';
import { z } from 'zod';
import type { Bank } from './bank';

/** The agent's name; the approving process looks the waiting continuation up by it. */
export const AGENT_NAME = 'accounts';

export const INSTRUCTIONS =
  'You are a bank assistant. Look up the source account before a transfer, then call transfer. ' +
  'Answer in one short sentence.';

/** Build the agent over any OpenAI client (the scripted server's, or a real endpoint's). */
export function buildAccountAgent(
  client: OpenAI,
  model: string,
  bank: Bank,
  api: 'chat' | 'responses' = 'chat',
) {
  const lookupAccount = tool({
    name: 'lookup_account',
    description: 'Look up the balance of an account',
    parameters: z.object({ accountId: z.string().describe('e.g. ACC-1') }),
    execute: ({ accountId }) => {
      const balance = bank.balance(accountId);
      return balance === undefined
        ? { error: `No account ${accountId}` }
        : { accountId, balance, currency: 'EUR' };
    },
  });
  const transfer = tool({
    name: 'transfer',
    description: 'Transfer money between two accounts',
    parameters: z.object({ from: z.string(), to: z.string(), amount: z.number().positive() }),
    // Every transfer waits for a human; the run suspends here and its loop ends.
    needsApproval: true,
    execute: (args, ctx) => bank.transfer(ctx.idempotencyKey, args),
  });
  return createAgent({
    client,
    model,
    name: AGENT_NAME,
    instructions: INSTRUCTIONS,
    tools: [lookupAccount, transfer],
    api,
  });
}
