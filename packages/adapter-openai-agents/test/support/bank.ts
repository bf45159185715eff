/**
 * The SDK's human-in-the-loop shape, as its examples write it: an agent whose `transfer` tool
 * needs approval, over the SDK's own OpenAI model on the scripted server. Counts how often the
 * transfer ran.
 */
import { lastToolResults, type Script, type ScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, tool } from '@openai/agents';
import { z } from 'zod';
import { sdkModel } from '../harness';

export const bankScript: Script = [
  { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 500 } }] },
  (request) => `Done: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
];

/** A bank agent; `counts.transfer` goes up each time the money moves. */
export function bankAgent(
  server: ScriptedOpenAIServer,
  api: 'chat' | 'responses',
  counts: { transfer?: number },
): Agent {
  server.setScript('bank', bankScript);
  const transfer = tool({
    name: 'transfer',
    description: 'Send money',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: async (_ctx, { amount }) => amount > 100,
    execute: async ({ to, amount }) => {
      counts.transfer = (counts.transfer ?? 0) + 1;
      return { sent: amount, to };
    },
  });
  return new Agent({
    name: 'bank',
    instructions: 'You move money.',
    model: sdkModel(api, server, 'bank'),
    tools: [transfer],
  });
}
