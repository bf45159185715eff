// app/api/chat/route.ts
import { listActions } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import {
  continuationRefFromUIMessages,
  decisionsFromUIMessages,
  toUIMessageStreamResponse,
} from '@agent-continuations/vercel-ai';
import { convertToModelMessages, type UIMessage } from 'ai';
import { agent } from './agent'; // the agent above

const store = createSqliteStore({ path: 'agents.db' });

export async function POST(request: Request): Promise<Response> {
  const { messages }: { messages: UIMessage[] } = await request.json();
  // Decisions come back on the assistant message that waits for them; a user message starts a turn.
  const ref = messages.at(-1)?.role === 'assistant' ? continuationRefFromUIMessages(messages) : undefined;
  // A repeated request (a double click, a retry) fails here with CLAIM_CONFLICT and runs nothing.
  const claim = ref && (await store.claim(ref.id));
  const stored = claim && (await store.load(claim.id));
  const run = stored
    ? agent.stream({
        continuation: stored.continuation,
        // The actions come from the stored continuation, not from the browser.
        decisions: decisionsFromUIMessages(messages, listActions(stored.continuation), {
          by: request.headers.get('x-user-email') ?? 'unknown', // from your auth
        }),
      })
    : agent.stream(await convertToModelMessages(messages));
  return toUIMessageStreamResponse(run, {
    originalMessages: messages,
    onResult: async (result) => {
      if (result.status === 'suspended') await store.save(result.continuation);
      if (claim) await store.complete(claim);
    },
  });
}
