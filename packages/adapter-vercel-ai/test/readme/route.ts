// app/api/chat/route.ts
import { listActions, streamStored } from '@agent-continuations/core';
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
  const run = ref
    ? // Resumes under the store's claim: a repeated request (a double click, a retry) fails with
      // CLAIM_CONFLICT and runs nothing; the next continuation is saved and the claim completed
      // however the stream ends.
      await streamStored(store, agent, ref.id, (continuation) =>
        // The actions come from the stored continuation, not from the browser.
        decisionsFromUIMessages(messages, listActions(continuation), {
          by: request.headers.get('x-user-email') ?? 'unknown', // from your auth
        }),
      )
    : agent.stream(await convertToModelMessages(messages));
  return toUIMessageStreamResponse(run, {
    originalMessages: messages,
    onResult: async (result) => {
      if (!ref && result.status === 'suspended') await store.save(result.continuation);
    },
  });
}
