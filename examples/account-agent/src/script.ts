/**
 * What the scripted model says when no API key is set: the choices a real model would make for
 * "send 50 EUR from ACC-1 to ACC-2", decided from the transcript alone.
 */
import { lastToolResults, type Script } from '@agent-continuations/testing/runtime';

export const SCRIPTED_MODEL = 'account-agent-scripted';

export const accountScript: Script = [
  { toolCalls: [{ name: 'lookup_account', args: { accountId: 'ACC-1' } }] },
  (request) => {
    const account = lastToolResults(request.messages)[0]?.output as { balance?: number } | undefined;
    if ((account?.balance ?? 0) < 50) return 'ACC-1 does not have 50 EUR.';
    return {
      text: 'ACC-1 has enough money; asking for approval.',
      toolCalls: [{ name: 'transfer', args: { from: 'ACC-1', to: 'ACC-2', amount: 50 } }],
    };
  },
  (request) => {
    const output = lastToolResults(request.messages)[0]?.output;
    if (typeof output === 'string') return `The transfer was not made. ${output}`;
    const receipt = output as { receipt: string; balance: number };
    return `Transferred 50 EUR to ACC-2 (receipt ${receipt.receipt}); ACC-1 now holds ${receipt.balance} EUR.`;
  },
];
