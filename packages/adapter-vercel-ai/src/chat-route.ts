/**
 * The chat endpoint `useChat` posts to, as one handler: `createAgentUIStreamResponse` with the
 * agent bound to the posted chat (see {@link chatAgent}), and refusals answered with a status and
 * a message the client shows (`DefaultChatTransport` throws the body text as the chat's error).
 */
import { ContinuationError, isContinuationError, type Runtime } from '@agent-continuations/core';
import {
  createAgentUIStreamResponse,
  type ToolSet,
  TypeValidationError,
  type UIMessage,
  type UIMessageStreamOnFinishCallback,
} from 'ai';
import { type ChatBinding, chatAgent } from './chat';
import type { VercelContinuableAgent } from './types';

/**
 * The options of `createAgentUIStreamResponse` that shape the stream and the response, passed on
 * as given: `messageMetadata`, `generateMessageId`,
 * `sendReasoning`, `sendStart`, `sendFinish`, `onError`, `headers`, `status`, `keepAliveMs`,
 * `consumeSseStream`. The route sets the agent and the messages itself; `sendSources: true` is
 * refused (a run streams no sources).
 */
export type ChatStreamOptions = Omit<
  Parameters<typeof createAgentUIStreamResponse>[0],
  | 'agent'
  | 'uiMessages'
  | 'originalMessages'
  | 'options'
  | 'abortSignal'
  | 'timeout'
  | 'experimental_transform'
  | 'onStepFinish'
  | 'onFinish'
>;

/** Options of {@link chatRoute}. */
export interface ChatRouteOptions<Output, CallOptions> extends ChatStreamOptions {
  /** The agent (one of the runtime's, by its name). */
  agent: VercelContinuableAgent<Output, CallOptions>;
  /** Who posts, from your auth: a user's chat suspensions are found for that user only. */
  context?: (
    request: Request,
  ) => Pick<ChatBinding, 'user' | 'by'> | Promise<Pick<ChatBinding, 'user' | 'by'>>;
  /** A new user message while approvals wait (see {@link ChatBinding.onNewMessage}). */
  onNewMessage?: ChatBinding['onNewMessage'];
  /**
   * Called once the response's stream ends, as the SDK's own: `messages` is the whole chat with
   * the response in it (after a resumed approval, the same assistant message, continued),
   * `responseMessage` that message, `isContinuation` true when it continued the last one.
   *
   * @example
   * ```ts
   * chatRoute(runtime, { agent, onFinish: ({ chatId, messages }) => saveChat(chatId, messages) });
   * ```
   */
  onFinish?: (
    event: Parameters<UIMessageStreamOnFinishCallback<UIMessage>>[0] & { chatId: string },
  ) => PromiseLike<void> | void;
}

/**
 * A `POST` handler for `useChat`: the body is `{ id, messages }` as `DefaultChatTransport` sends
 * it. New messages start a run; approval responses resume this chat's waiting suspension exactly
 * once. A post for approvals already decided (a second tab, the console, a signed link) gets 409,
 * one for a chat or user that has no such suspension 404, one that waited past its deadline 410,
 * a decision the action's policy does not allow 403, a malformed body 400; nothing runs.
 *
 * The other options are those of `createAgentUIStreamResponse` ({@link ChatStreamOptions}).
 *
 * @example
 * ```ts
 * // app/api/chat/route.ts
 * export const POST = chatRoute(runtime, {
 *   agent,
 *   context: async (request) => ({ user: (await auth(request)).userId }),
 *   onFinish: ({ chatId, messages }) => saveChat(chatId, messages),
 * });
 * ```
 */
export function chatRoute<Output, CallOptions>(
  runtime: Runtime,
  options: ChatRouteOptions<Output, CallOptions>,
): (request: Request) => Promise<Response> {
  const { agent, context, onNewMessage, onFinish, ...streamOptions } = options;
  if (streamOptions.sendSources === true) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'chatRoute() cannot honour sendSources: a continuable run streams no source parts.',
    );
  }
  return async (request) => {
    const body = (await request.json().catch(() => undefined)) as
      | { id?: unknown; messages?: unknown }
      | undefined;
    if (typeof body?.id !== 'string' || body.id.length === 0 || !Array.isArray(body.messages)) {
      return refusal(400, 'The body must be { id, messages } as useChat posts it.');
    }
    const chat = body.id;
    const who = (await context?.(request)) ?? {};
    try {
      return await createAgentUIStreamResponse<CallOptions | undefined, ToolSet, never>({
        ...streamOptions,
        agent: chatAgent(runtime, agent, { chat, ...who, ...(onNewMessage ? { onNewMessage } : {}) }),
        uiMessages: body.messages as UIMessage[],
        ...(onFinish ? { onFinish: (event) => onFinish({ ...event, chatId: chat }) } : {}),
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
  // Decided elsewhere, or the run went on without this record.
  if (
    isContinuationError(error, 'CLAIM_CONFLICT') ||
    isContinuationError(error, 'UNKNOWN_ACTION') ||
    isContinuationError(error, 'STATE_MISMATCH')
  )
    return 409;
  // It waited past its deadline.
  if (isContinuationError(error, 'EXPIRED')) return 410;
  if (isContinuationError(error, 'NOT_FOUND')) return 404;
  // The action's own policy forbids that decision (e.g. only `reject` is allowed in chat).
  if (isContinuationError(error, 'DECISION_NOT_ALLOWED')) return 403;
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
