// app/api/chat/route.ts, as the AI SDK docs write it, with the agent bound to the chat
import { chatAgent } from '@agent-continuations/vercel-ai';
import { createAgentUIStreamResponse, type UIMessage } from 'ai';
import { agent } from './agent'; // the agent above
import { currentUser, saveChat } from './my-app';
import { runtime } from './runtime';

export async function POST(request: Request): Promise<Response> {
  const { id, messages }: { id: string; messages: UIMessage[] } = await request.json();
  return createAgentUIStreamResponse({
    agent: chatAgent(runtime, agent, { chat: id, user: await currentUser(request) }),
    uiMessages: messages,
    onFinish: ({ messages }) => saveChat(id, messages),
  });
}
