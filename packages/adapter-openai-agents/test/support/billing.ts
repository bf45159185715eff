/**
 * A triage agent that hands off to a billing agent, whose `refund` needs approval; billing can hand
 * back, so the graph has a cycle. The SDK's own agents over its OpenAI models on the scripted server.
 */
import { lastToolResults, type Script, type ScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, type Model, tool } from '@openai/agents';
import { z } from 'zod';
import { sdkModel } from '../harness';

const triageScript: Script = [
  { text: 'Passing you to billing.', toolCalls: [{ name: 'transfer_to_billing', args: {} }] },
];
const billingScript: Script = [
  // The billing agent reads the triage turn and the transfer message: its first turn is the second.
  'unused',
  { toolCalls: [{ name: 'refund', args: { order: 'O-7', amount: 20 } }] },
  (request) => `Refunded: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
];

export type Ran = { refund?: number };

/** The scripts of the desk's two models, by agent. */
export const deskScripts = { triage: triageScript, billing: billingScript };

/** The triage and billing agents on models named `<models>-triage` and `<models>-billing`. */
export function billingDesk(
  api: 'chat' | 'responses',
  server: ScriptedOpenAIServer,
  models: string,
  ran: Ran,
) {
  server.setScript(`${models}-triage`, triageScript);
  server.setScript(`${models}-billing`, billingScript);
  return deskAgents(
    (agent) => sdkModel(api, server, `${models}-${agent}`),
    () => {
      ran.refund = (ran.refund ?? 0) + 1;
    },
  );
}

/** The desk's agents on the models `model` makes; `refunded` is called each time a refund runs. */
export function deskAgents(
  model: (agent: 'triage' | 'billing') => Model,
  refunded: (args: { order: string; amount: number }) => void,
): Agent {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async ({ order, amount }) => {
      refunded({ order, amount });
      return { ok: true, order, amount };
    },
  });
  const billing = new Agent({
    name: 'billing',
    instructions: 'You handle refunds.',
    handoffDescription: 'Refunds and invoices',
    model: model('billing'),
    tools: [refund],
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'You route customers.',
    model: model('triage'),
    handoffs: [billing],
  });
  // Billing can hand back: the graph has a cycle.
  billing.handoffs.push(triage);
  return triage;
}
