/** What the README's routes take from the app itself: the signed-in user, and where chats are kept. */
import type { UIMessage } from 'ai';

/** The chats saved by the routes' `onFinish`, by chat id. */
export const savedChats = new Map<string, UIMessage[]>();

/** The signed-in user; the tests name them in a header, an app reads its session. */
export async function currentUser(request: Request): Promise<string> {
  return request.headers.get('x-user') ?? 'ann';
}

export async function saveChat(id: string, messages: UIMessage[]): Promise<void> {
  savedChats.set(id, structuredClone(messages));
}
