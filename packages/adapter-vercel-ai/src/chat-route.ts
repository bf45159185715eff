/**
 * The chat endpoint `useChat` posts to, as one handler: `createAgentUIStreamResponse` with the
 * agent bound to the posted chat (see {@link chatAgent}), and refusals answered with a status and
 * a message the client shows (`DefaultChatTransport` throws the body text as the chat's error).
 */
import { isContinuationError, type Runtime } from '@agent-continuations/core';
import { createAgentUIStreamResponse, TypeValidationError, type UIMessage } from 'ai';
import { type ChatBinding, chatAgent } from './chat';
import type { VercelContinuableAgent } from './types';

/** Options of {@link chatRoute}. */
export interface ChatRouteOptions<Output, CallOptions> {
  /** The agent (one of the runtime's, by its name). */
  agent: VercelContinuableAgent<Output, CallOptions>;
  /** Who posts, from your auth: a user's chat suspensions are found for that user only. */
  context?: (
    request: Request,
  ) => Pick<ChatBinding, 'user' | 'by'> | Promise<Pick<ChatBinding, 'user' | 'by'>>;
  /** A new user message while approvals wait (see {@link ChatBinding.onNewMessage}). */
  onNewMessage?: ChatBinding['onNewMessage'];
  /** The error text the client sees for a failure during the stream; the SDK's default hides details. */
  onError?: (error: unknown) => string;
}

/**
 * A `POST` handler for `useChat`: the body is `{ id, messages }` as `DefaultChatTransport` sends
 * it. New messages start a run; approval responses resume this chat's waiting suspension exactly
 * once. A post for approvals already decided (a second tab, the console, a signed link) gets 409,
 * one for a chat or user that has no such suspension 404, a malformed body 400; nothing runs.
 *
 * @example
 * ```ts
 * // app/api/chat/route.ts
 * export const POST = chatRoute(runtime, {
 *   agent,
 *   context: async (request) => ({ user: (await auth(request)).userId }),
 * });
 * ```
 */
export function chatRoute<Output, CallOptions>(
  runtime: Runtime,
  options: ChatRouteOptions<Output, CallOptions>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = (await request.json().catch(() => undefined)) as
      | { id?: unknown; messages?: unknown }
      | undefined;
    if (typeof body?.id !== 'string' || body.id.length === 0 || !Array.isArray(body.messages)) {
      return refusal(400, 'The body must be { id, messages } as useChat posts it.');
    }
    const who = (await options.context?.(request)) ?? {};
    try {
      return await createAgentUIStreamResponse({
        agent: chatAgent(runtime, options.agent, {
          chat: body.id,
          ...who,
          ...(options.onNewMessage ? { onNewMessage: options.onNewMessage } : {}),
        }),
        uiMessages: body.messages as UIMessage[],
        ...(options.onError ? { onError: options.onError } : {}),
      });
    } catch (error) {
      const status = statusOf(error);
      if (status === undefined) throw error;
      return refusal(status, (error as Error).message);
    }
  };
}

/** The status of a refusal made before anything ran; undefined for a failure the app should see. */
function statusOf(error: unknown): number | undefined {
  if (isContinuationError(error, 'CLAIM_CONFLICT') || isContinuationError(error, 'UNKNOWN_ACTION'))
    return 409;
  if (isContinuationError(error, 'NOT_FOUND')) return 404;
  if (
    isContinuationError(error, 'INVALID_DECISION') ||
    isContinuationError(error, 'WRONG_DECISION_KIND') ||
    isContinuationError(error, 'INVALID_ARGS') ||
    isContinuationError(error, 'INVALID_INPUT') ||
    TypeValidationError.isInstance(error)
  ) {
    return 400;
  }
  return undefined;
}

function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
