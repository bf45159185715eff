// app/api/chat/route.ts
import { chatRoute } from '@agent-continuations/vercel-ai';
import { agent } from './agent'; // the agent above
import { currentUser, saveChat } from './my-app'; // your own: who is signed in, where chats are kept
import { runtime } from './runtime';

export const POST = chatRoute(runtime, {
  agent,
  // A chat's suspensions are saved with its user, and found for that user only.
  context: async (request) => ({ user: await currentUser(request) }),
  // The whole chat once the answer has streamed; after an approval, the same assistant message, continued.
  onFinish: ({ chatId, messages }) => saveChat(chatId, messages),
});
