/**
 * A continuable agent bound to one chat of a runtime, for the route `useChat` posts to. Its
 * suspensions are saved with the chat's id and user; the post that carries approval responses
 * (or tool outputs) is matched, server-side, to the suspension of this chat and user that waits
 * for them, which is resumed under the store's claim and streamed into the same assistant message.
 * The browser never names the continuation.
 */
import {
  type Action,
  type AgentStream,
  type AgentStreamEvent,
  ContinuationError,
  type Decisions,
  type JsonObject,
  type JsonValue,
  listActions,
  type Runtime,
  type StoredContinuation,
} from '@agent-continuations/core';
import type { ModelMessage } from 'ai';
import { isSdkParameters } from './inputs';
import { toModelMessages } from './messages';
import { chatActions, uiToolCallId } from './nested-output';
import { SDK_STREAM } from './sdk-results';
import { checkCallParameters } from './settings';
import type { SdkCallParameters, VercelContinuableAgent } from './types';

/** Which chat (and whose) a {@link chatAgent} serves. */
export interface ChatBinding {
  /** The chat's id: the `id` of the body `useChat` posts. */
  chat: string;
  /** The signed-in user, from your auth: another user's suspension in the same chat is not found. */
  user?: string;
  /** Who decides, in the audit trail (`by`); the user by default. */
  by?: string;
  /**
   * A new user message while approvals wait: `'reject'` (default) rejects them with the reason
   * "superseded by a new user message", which the model reads, then answers the message;
   * `'keep'` leaves them waiting and answers the message in a run of its own.
   */
  onNewMessage?: 'reject' | 'keep';
}

/** The reason a pending action gets when the user writes instead of deciding. */
export const SUPERSEDED_REASON = 'superseded by a new user message';

/** The metadata keys a chat's suspensions are saved with. */
const CHAT_KEY = 'chatId';
const USER_KEY = 'userId';

/**
 * `agent`, run in `runtime` for one chat: hand it to `createAgentUIStreamResponse` (or call its
 * `stream()` and `toUIMessageStreamResponse()`) as you would the agent. A post of new messages
 * starts a run whose suspension is saved under the chat; a post of approval responses resumes the
 * suspension of this chat and user that waits for them, exactly once. Refusals are typed:
 * `NOT_FOUND` (no such suspension in this chat for this user), `CLAIM_CONFLICT` (decided already,
 * in another tab or elsewhere), `EXPIRED` (it waited past its deadline); {@link chatRoute} answers
 * them with 404, 409 and 410.
 *
 * @example
 * ```ts
 * export async function POST(request: Request) {
 *   const { id, messages } = await request.json();
 *   return createAgentUIStreamResponse({
 *     agent: chatAgent(runtime, agent, { chat: id, user: session.user.id }),
 *     uiMessages: messages,
 *   });
 * }
 * ```
 */
export function chatAgent<Output, CallOptions>(
  runtime: Runtime,
  agent: VercelContinuableAgent<Output, CallOptions>,
  binding: ChatBinding,
): VercelContinuableAgent<Output, CallOptions> {
  if (typeof binding?.chat !== 'string' || binding.chat.length === 0) {
    throw new ContinuationError('INVALID_OPERATION', 'chatAgent() needs the chat id, a non-empty string.');
  }
  const running = runtime.agent(agent.name) as unknown as VercelContinuableAgent<Output, CallOptions>;
  const sdk = (running as unknown as Record<typeof SDK_STREAM, unknown>)[SDK_STREAM] as
    | ((run: AgentStream<unknown>, segmentStart: number) => unknown)
    | undefined;
  if (!sdk) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `Agent "${agent.name}" of this runtime is not a continuable() AI SDK agent.`,
    );
  }
  const metadata: JsonObject = {
    [CHAT_KEY]: binding.chat,
    ...(binding.user === undefined ? {} : { [USER_KEY]: binding.user }),
  };
  const by = binding.by ?? binding.user;
  const decidedBy = by === undefined ? {} : { by };

  /** This chat's records of this user, oldest first (a status, or all). */
  const records = async (status?: 'suspended'): Promise<StoredContinuation[]> => {
    const found: StoredContinuation[] = [];
    let cursor: string | undefined;
    do {
      const page = await runtime.store.list({
        metadata: { [CHAT_KEY]: binding.chat },
        ...(status ? { status } : {}),
        ...(cursor ? { cursor } : {}),
      });
      for (const summary of page.items) {
        if ((summary.metadata[USER_KEY] ?? undefined) !== binding.user) continue;
        const stored = await runtime.store.load(summary.id);
        if (stored && (!status || stored.status === status)) found.push(stored);
      }
      cursor = page.cursor;
    } while (cursor);
    return found;
  };

  /** A new run on `input`, its suspension saved under the chat. */
  const start = (input: ModelMessage[], call: CallSettings<CallOptions>): AgentStream<unknown> => {
    const inner = running.stream(input, { metadata, ...call }) as AgentStream<unknown>;
    const result = inner.result.then(async (done) => {
      if (done.status === 'suspended') await runtime.store.save(done.continuation);
      return done;
    });
    result.catch(() => {});
    return {
      result,
      async *[Symbol.asyncIterator]() {
        for await (const event of inner as AsyncIterable<AgentStreamEvent<unknown>>) {
          // The stream ends once the suspension is saved: the client's next post finds it.
          if (event.type === 'result' && !event.path) yield { type: 'result', result: await result };
          else yield event;
        }
      },
    };
  };

  /** Resume the suspension of this chat that the responses answer. */
  const decide = async (
    responses: Responses,
    signal: CallSettings['signal'],
  ): Promise<AgentStream<unknown>> => {
    const answers = (actions: readonly Action[]) => actions.some((action) => answered(action, responses));
    const waiting = (await records('suspended')).find((stored) => answers(listActions(stored.continuation)));
    if (!waiting) {
      const found = (await records()).find((stored) => answers(listActions(stored.continuation)));
      if (found?.status === 'expired') {
        throw new ContinuationError(
          'EXPIRED',
          'These approvals waited past their deadline, so nothing was run. Reload the chat to see where it stands.',
        );
      }
      throw found
        ? new ContinuationError(
            'CLAIM_CONFLICT',
            'These approvals were already decided (in another tab, or elsewhere). Reload the chat to see where it stands.',
          )
        : new ContinuationError('NOT_FOUND', 'Nothing in this chat waits for these responses.');
    }
    return runtime.stream(
      waiting.id,
      (continuation) => decisionsOf(listActions(continuation), responses, decidedBy),
      { ...(by === undefined ? {} : { owner: by }), ...(signal ? { signal } : {}) },
    );
  };

  /** The user wrote instead of deciding: reject what waits, or keep it, then answer. */
  const supersede = async (messages: ModelMessage[]): Promise<ModelMessage[]> => {
    if ((binding.onNewMessage ?? 'reject') === 'keep') return answeredOnly(messages);
    let transcript: ModelMessage[] | undefined;
    // A resume that suspends again (the model asks once more) is rejected too, a few times at most.
    for (let round = 0; round < 5; round++) {
      const waiting = await records('suspended');
      if (waiting.length === 0) break;
      for (const stored of waiting) {
        const rejected: Decisions = {};
        for (const action of listActions(stored.continuation))
          rejected[action.id] = { type: 'reject', reason: SUPERSEDED_REASON, ...decidedBy };
        const result = await runtime.resume(stored.id, rejected, by === undefined ? {} : { owner: by });
        if (result.status !== 'suspended') transcript = toModelMessages(result.messages);
      }
    }
    if ((await records('suspended')).length > 0) {
      throw new ContinuationError(
        'CLAIM_CONFLICT',
        'The run still waits for a decision after rejecting what was pending. Reload the chat and decide it.',
      );
    }
    if (!transcript) return answeredOnly(messages);
    return [...transcript, ...messages.slice(lastNonUser(messages) + 1)];
  };

  const stream = async (parameters: SdkCallParameters<CallOptions>) => {
    checkCallParameters(parameters as Record<string, unknown>);
    if (parameters.onStepFinish || (parameters as { onStepEnd?: unknown }).onStepEnd) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        'A chat-bound agent cannot take a per-call step callback: set onStepFinish on the agent itself.',
      );
    }
    // Call options start a run; a resume goes on with those its continuation kept.
    const call: CallSettings<CallOptions> = {
      ...(parameters.options === undefined ? {} : { options: parameters.options }),
      ...(parameters.abortSignal ? { signal: parameters.abortSignal } : {}),
    };
    const input =
      'prompt' in parameters && parameters.prompt !== undefined
        ? parameters.prompt
        : (parameters as { messages: ModelMessage[] }).messages;
    const messages: ModelMessage[] =
      typeof input === 'string' ? [{ role: 'user', content: input }] : [...input];
    const run =
      messages.at(-1)?.role === 'tool'
        ? await decide(responsesOf(messages), call.signal)
        : start(await supersede(messages), call);
    return sdk(run, 0);
  };

  return {
    ...running,
    name: agent.name,
    stream: (input: unknown, options?: unknown) =>
      isSdkParameters(input as never)
        ? stream(input as unknown as SdkCallParameters<CallOptions>)
        : (running.stream as (input: unknown, options?: unknown) => unknown)(input, options),
  } as VercelContinuableAgent<Output, CallOptions>;
}

/** What one SDK-shaped call gives the run: its call options and abort signal. */
interface CallSettings<CallOptions = unknown> {
  options?: CallOptions;
  signal?: AbortSignal;
}

/** What the chat's last turn answered: approval responses by approval id, tool outputs by call id. */
interface Responses {
  approvals: Map<string, { approved: boolean; reason?: string }>;
  outputs: Map<string, JsonValue>;
}

function responsesOf(messages: readonly ModelMessage[]): Responses {
  const responses: Responses = { approvals: new Map(), outputs: new Map() };
  for (const message of messages.slice(lastUser(messages) + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content as Array<Record<string, any>>) {
      if (part.type === 'tool-approval-response') {
        responses.approvals.set(String(part.approvalId), {
          approved: part.approved === true,
          ...(typeof part.reason === 'string' ? { reason: part.reason } : {}),
        });
      } else if (part.type === 'tool-result') {
        const output = part.output as { type?: string; value?: unknown } | undefined;
        responses.outputs.set(String(part.toolCallId), (output?.value ?? null) as JsonValue);
      }
    }
  }
  return responses;
}

function answered(action: Action, responses: Responses): boolean {
  return action.kind === 'approval'
    ? responses.approvals.has(action.id)
    : responses.outputs.has(uiToolCallId(action)) && chatActions([action]).length === 1;
}

/** The decisions the responses make for the stored actions; ids that are not pending decide nothing. */
function decisionsOf(actions: readonly Action[], responses: Responses, by: { by?: string }): Decisions {
  const decisions: Decisions = {};
  for (const action of actions) {
    const approval = responses.approvals.get(action.id);
    if (action.kind === 'approval' && approval) {
      decisions[action.id] = approval.approved
        ? { type: 'approve', ...by }
        : { type: 'reject', ...(approval.reason ? { reason: approval.reason } : {}), ...by };
    }
  }
  for (const action of chatActions(actions)) {
    const output = responses.outputs.get(uiToolCallId(action));
    if (action.kind === 'input' && output !== undefined)
      decisions[action.id] = { type: 'input', value: output, ...by };
  }
  return decisions;
}

/** The transcript without the calls that never got a result (those a new message left waiting). */
function answeredOnly(messages: readonly ModelMessage[]): ModelMessage[] {
  const results = new Set<string>();
  const approvals = new Map<string, string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content as Array<Record<string, any>>) {
      if (part.type === 'tool-result') results.add(part.toolCallId);
      if (part.type === 'tool-approval-request') approvals.set(part.approvalId, part.toolCallId);
    }
  }
  const kept: ModelMessage[] = [];
  for (const message of messages) {
    if ((message.role !== 'assistant' && message.role !== 'tool') || typeof message.content === 'string') {
      kept.push(message);
      continue;
    }
    const content = (message.content as Array<Record<string, any>>).filter((part) => {
      if (part.type === 'tool-call' || part.type === 'tool-approval-request')
        return results.has(part.toolCallId);
      if (part.type === 'tool-approval-response') return results.has(approvals.get(part.approvalId) ?? '');
      return true;
    });
    if (content.length > 0) kept.push({ ...message, content } as ModelMessage);
  }
  return kept;
}

function lastUser(messages: readonly ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

function lastNonUser(messages: readonly ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role !== 'user') return i;
  return -1;
}
