/** What the scripted model says; it decides from the transcript alone, so either worker can go on. */
import { lastToolResults, type Script } from '@agent-continuations/testing/runtime';

export const TRIAGE_MODEL = 'support-triage';

export const triageScript: Script = [
  {
    text: 'Let me look at the order first.',
    toolCalls: [{ name: 'lookup_order', args: { orderId: 'O-1001' } }],
  },
  {
    text: 'The order arrived damaged: I will refund it in full and tag the ticket.',
    toolCalls: [
      { name: 'issue_refund', args: { orderId: 'O-1001', amount: 49 } },
      { name: 'tag_ticket', args: { ticket: 'T-42', tag: 'refund' } },
    ],
  },
  (request) => {
    const refund = lastToolResults(request.messages).find((part) => part.toolName === 'issue_refund');
    return `Refund done: ${JSON.stringify(refund?.output)}. Ticket T-42 is tagged "refund".`;
  },
];
