/**
 * A run as an AI SDK UI message stream, for `useChat`: text, reasoning and tool parts while the
 * run goes; when it suspends, each pending approval as an approval request (nested ones too, as
 * dynamic tool parts named after the sub-agent's tool), each input request as a tool call waiting
 * for `addToolOutput`, and a `data-continuation` part naming the continuation. The decisions the
 * front end sends back are read with {@link decisionsFromUIMessages}.
 */
import {
  type Action,
  type AgentStream,
  type AgentStreamEvent,
  type Continuation,
  ContinuationError,
  type Decisions,
  openContinuation,
  parseContinuation,
  type RunResult,
  type SealConfig,
  serializeContinuation,
  type Usage,
} from '@agent-continuations/core';
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { CONTINUATION_KIND } from './compat';
import { callArgs, chatActions, NestedOutputs, uiToolCallId } from './nested-output';

/** The data part a suspended run ends with. */
export interface ContinuationData {
  /** The continuation's id, e.g. to load it from a store. */
  id: string;
  runId: string;
  /** What a human can act on: the action ids decisions are keyed by. */
  actions: Action[];
  /**
   * The whole continuation, as JSON text, when `includeContinuation` is set. It comes back from
   * the browser: read it with {@link continuationFromUIMessages}, which verifies its seal.
   */
  continuation?: string;
}

/** Options of {@link toUIMessageStream}. */
export interface UIStreamOptions {
  /**
   * Put the whole continuation in the `data-continuation` part, for servers that keep nothing.
   * Seal it (`sealContinuation`) and verify on the way back: it comes back from the browser.
   */
  includeContinuation?: boolean;
  /** The error text the client sees; the SDK's default hides server details. */
  onError?: (error: unknown) => string;
  /**
   * The chat's messages as `useChat` posted them. When the last one is the assistant message
   * that waited for decisions, the stream continues that message instead of starting a new one.
   */
  originalMessages?: UIMessage[];
  /** Called with the run's result once it is known, e.g. to save a suspended continuation. */
  onResult?: (result: RunResult<any>) => void | Promise<void>;
  /** The UI stream's own `onFinish` (the SDK's `UIMessageStreamOptions.onFinish`). */
  onFinish?: (event: {
    messages: UIMessage[];
    isContinuation: boolean;
    responseMessage: UIMessage;
    isAborted: boolean;
    finishReason?: unknown;
  }) => void | PromiseLike<void>;
  /** The SDK's `generateMessageId`, for the assistant message's id. */
  generateMessageId?: () => string;
  /**
   * The SDK's `messageMetadata`: called with the stream's `start` part and its `finish` part
   * (`finishReason`, `totalUsage`); what it returns rides on that chunk as the message's metadata.
   */
  messageMetadata?: (options: { part: UIStreamBoundary }) => unknown;
  /** Send reasoning parts (default true), as the SDK's `sendReasoning`. */
  sendReasoning?: boolean;
  /** Send the `start` chunk (default true), as the SDK's `sendStart`. */
  sendStart?: boolean;
  /** Send the `finish` chunk (default true), as the SDK's `sendFinish`. */
  sendFinish?: boolean;
  /**
   * The SDK's `sendSources`. A run streams no source parts, so `true` is refused
   * (`INVALID_OPERATION`) rather than sending nothing.
   */
  sendSources?: boolean;
}

/** The parts `messageMetadata` is called with: the stream's first and last. */
export type UIStreamBoundary =
  | { type: 'start' }
  | { type: 'finish'; finishReason: 'stop' | 'other'; totalUsage: Usage };

/** Deltas of a tool call's input while the model streams it. */
type ToolInputEvent =
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; delta: string };

/**
 * Turn a streamed run (`agent.stream(...)`) into a UI message stream.
 *
 * @example
 * ```ts
 * // app/api/chat/route.ts
 * export async function POST(request: Request) {
 *   const { messages } = await request.json();
 *   const run = agent.stream(await convertToModelMessages(messages)); // or { continuation, decisions }
 *   return createUIMessageStreamResponse({
 *     stream: toUIMessageStream(run, { originalMessages: messages, onResult: save }),
 *   });
 * }
 * ```
 */
export function toUIMessageStream(
  run: AgentStream<any>,
  options: UIStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  if (options.sendSources === true) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'sendSources: a continuable run streams no source parts; remove the option.',
    );
  }
  const metadata = (part: UIStreamBoundary) => {
    const value = options.messageMetadata?.({ part });
    return value == null ? {} : { messageMetadata: value };
  };
  return createUIMessageStream<UIMessage>({
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.originalMessages ? { originalMessages: options.originalMessages } : {}),
    ...(options.onFinish ? { onFinish: options.onFinish as never } : {}),
    ...(options.generateMessageId ? { generateId: options.generateMessageId } : {}),
    execute: async ({ writer }) => {
      let open: { kind: 'text' | 'reasoning'; id: string } | undefined;
      let inStep = false;
      // A model call ended; its step stays open for its tool results, as in the SDK's stream.
      let stepEnded = false;
      let parts = 0;
      // Sub-agents' messages, shown as preliminary outputs of the top-level calls that ran them.
      const nested = new NestedOutputs();
      const known = new Set<string>();
      for (const message of options.originalMessages ?? [])
        for (const part of message.parts) if ('toolCallId' in part) known.add(part.toolCallId);
      const startStep = () => {
        if (stepEnded) {
          writer.write({ type: 'finish-step' });
          inStep = false;
          stepEnded = false;
        }
        if (!inStep) writer.write({ type: 'start-step' });
        inStep = true;
      };
      const inCurrentStep = () => {
        if (!inStep) startStep();
      };
      const close = () => {
        if (open) writer.write({ type: `${open.kind}-end`, id: open.id });
        open = undefined;
      };
      const delta = (kind: 'text' | 'reasoning', text: string) => {
        startStep();
        if (open?.kind !== kind) {
          close();
          open = { kind, id: `${kind}-${parts++}` };
          writer.write({ type: `${kind}-start`, id: open.id });
        }
        writer.write({ type: `${kind}-delta`, id: open.id, delta: text });
      };
      if (options.sendStart !== false) writer.write({ type: 'start', ...metadata({ type: 'start' }) });
      for await (const each of run) {
        const event = each as AgentStreamEvent<unknown> | ToolInputEvent;
        const path = (event as { path?: string[] }).path;
        if (path) {
          // A sub-agent's events are its own message, the preliminary output of the outer tool part.
          const update = nested.apply(event as AgentStreamEvent<unknown>, path);
          if (update && known.has(update.toolCallId)) {
            inCurrentStep();
            close();
            writer.write({ type: 'tool-output-available', ...update, preliminary: true });
          }
          continue;
        }
        switch (event.type) {
          case 'tool-input-start':
            startStep();
            close();
            writer.write({
              type: 'tool-input-start',
              toolCallId: event.toolCallId,
              toolName: event.toolName,
            });
            break;
          case 'tool-input-delta':
            writer.write({
              type: 'tool-input-delta',
              toolCallId: event.toolCallId,
              inputTextDelta: event.delta,
            });
            break;
          case 'text-delta':
            delta('text', event.delta);
            break;
          case 'reasoning-delta':
            if (options.sendReasoning !== false) delta('reasoning', event.delta);
            break;
          case 'tool-call':
            startStep();
            close();
            known.add(event.toolCall.toolCallId);
            writer.write({
              type: 'tool-input-available',
              toolCallId: event.toolCall.toolCallId,
              toolName: event.toolCall.toolName,
              input: event.toolCall.args,
            });
            break;
          case 'tool-result':
            inCurrentStep();
            close();
            writer.write(
              event.rejected
                ? { type: 'tool-output-denied', toolCallId: event.toolCallId }
                : event.isError
                  ? {
                      type: 'tool-output-error',
                      toolCallId: event.toolCallId,
                      errorText: errorText(event.output),
                    }
                  : { type: 'tool-output-available', toolCallId: event.toolCallId, output: event.output },
            );
            break;
          case 'step':
            close();
            stepEnded = inStep;
            break;
          case 'result':
            close();
            if (event.result.status === 'suspended') {
              inCurrentStep();
              for (const chunk of pendingChunks(
                event.result.continuation,
                event.result.actions,
                options,
                nested,
              ))
                writer.write(chunk);
            }
            if (inStep) writer.write({ type: 'finish-step' });
            inStep = false;
            await options.onResult?.(event.result);
            if (options.sendFinish !== false) {
              const finishReason = event.result.status === 'completed' ? 'stop' : 'other';
              const totalUsage =
                event.result.status === 'suspended' ? event.result.continuation.usage : event.result.usage;
              writer.write({
                type: 'finish',
                finishReason,
                ...metadata({ type: 'finish', finishReason, totalUsage }),
              });
            }
            break;
        }
      }
    },
  });
}

/**
 * {@link toUIMessageStream} as an HTTP response (server-sent events), for a route handler.
 *
 * @example
 * ```ts
 * return toUIMessageStreamResponse(agent.stream({ continuation, decisions }));
 * ```
 */
export function toUIMessageStreamResponse(
  run: AgentStream<any>,
  options: UIStreamOptions & { status?: number; headers?: Record<string, string> } = {},
): Response {
  const { status, headers, ...streamOptions } = options;
  return createUIMessageStreamResponse({
    stream: toUIMessageStream(run, streamOptions),
    ...(status === undefined ? {} : { status }),
    ...(headers === undefined ? {} : { headers }),
  });
}

/**
 * The decisions a `useChat` front end sent back: approval responses (`addToolApprovalResponse`)
 * become approve or reject, tool outputs (`addToolOutput`) for pending input requests become
 * answers. Only the ids of `actions` are read, so a stale or forged part decides nothing.
 *
 * @example
 * ```ts
 * const stored = await store.load(continuationRefFromUIMessages(messages)!.id);
 * const decisions = decisionsFromUIMessages(messages, listActions(stored!.continuation), { by: user.email });
 * return toUIMessageStreamResponse(agent.stream({ continuation: stored!.continuation, decisions }));
 * ```
 */
export function decisionsFromUIMessages(
  messages: readonly UIMessage[],
  actions: readonly Action[],
  options: { by?: string } = {},
): Decisions {
  const byApproval = new Map(actions.map((action) => [action.id, action]));
  const byCall = new Map(chatActions(actions).map((action) => [uiToolCallId(action), action]));
  const decisions: Decisions = {};
  const by = options.by === undefined ? {} : { by: options.by };
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) continue;
      const tool = part as {
        toolCallId: string;
        state: string;
        output?: unknown;
        approval?: { id: string; approved?: boolean; reason?: string };
      };
      const approval = tool.approval;
      if (
        approval &&
        typeof approval.approved === 'boolean' &&
        byApproval.get(approval.id)?.kind === 'approval'
      ) {
        decisions[approval.id] = approval.approved
          ? { type: 'approve', ...by }
          : { type: 'reject', ...(approval.reason ? { reason: approval.reason } : {}), ...by };
      } else if (tool.state === 'output-available' && byCall.get(tool.toolCallId)?.kind === 'input') {
        decisions[byCall.get(tool.toolCallId)!.id] = {
          type: 'input',
          value: (tool.output ?? null) as never,
          ...by,
        };
      }
    }
  }
  return decisions;
}

/**
 * The `data-continuation` part of the last suspended run in a chat, if any. Its `actions` came
 * back from the browser: list the real ones from the stored continuation.
 *
 * @example
 * ```ts
 * const ref = continuationRefFromUIMessages(messages);
 * const stored = ref && (await store.load(ref.id));
 * ```
 */
export function continuationRefFromUIMessages(messages: readonly UIMessage[]): ContinuationData | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const parts = messages[i]!.parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const part = parts[j]! as { type: string; data?: unknown; kind?: unknown; providerMetadata?: unknown };
      if (part.type === 'data-continuation') return part.data as ContinuationData;
      // ai@7's createAgentUIStreamResponse carries it as a custom part.
      if (part.type === 'custom' && part.kind === CONTINUATION_KIND) {
        return (part.providerMetadata as { 'agent-continuations': ContinuationData })['agent-continuations'];
      }
    }
  }
  return undefined;
}

/**
 * The whole continuation a chat carries back (see `includeContinuation`), for servers that keep
 * nothing. It came from the browser, so it is refused unless it is sealed and verifies with
 * `seal` (`SEAL_MISSING`, `SEAL_MISMATCH`); pass `{ allowUnsealed: true }` only where the client
 * is trusted. Undefined when the chat carries none (load it from the store by id instead).
 *
 * @example
 * ```ts
 * const continuation = await continuationFromUIMessages(messages, { seal: { secret: process.env.SEAL_SECRET! } });
 * ```
 */
export async function continuationFromUIMessages(
  messages: readonly UIMessage[],
  trust: { seal: SealConfig } | { allowUnsealed: true },
): Promise<Continuation | undefined> {
  const text = continuationRefFromUIMessages(messages)?.continuation;
  if (text === undefined) return undefined;
  if ('seal' in trust && trust.seal) return openContinuation(text, trust.seal);
  if ('allowUnsealed' in trust && trust.allowUnsealed === true) return parseContinuation(text);
  throw new ContinuationError(
    'INVALID_OPERATION',
    'A continuation sent by the client is read only with a seal to verify it ({ seal }), or with { allowUnsealed: true } where the client is trusted.',
  );
}

function pendingChunks(
  continuation: Continuation,
  actions: readonly Action[],
  options: UIStreamOptions,
  nested: NestedOutputs,
): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  for (const action of chatActions(actions)) {
    const toolCallId = uiToolCallId(action);
    if (action.path.length > 1) {
      // Asked on the outer part, which leaves its preliminary output for the wait (a part that
      // waits for a decision holds no output).
      nested.pending(action);
      chunks.push({
        type: 'tool-input-available',
        toolCallId,
        toolName: action.path[0]!.toolName,
        input: callArgs(continuation, toolCallId),
      });
    }
    if (action.kind === 'approval')
      chunks.push({ type: 'tool-approval-request', approvalId: action.id, toolCallId });
  }
  const data: ContinuationData = { id: continuation.id, runId: continuation.runId, actions: [...actions] };
  if (options.includeContinuation) data.continuation = serializeContinuation(continuation);
  chunks.push({ type: 'data-continuation', id: continuation.id, data });
  return chunks;
}

function errorText(output: unknown): string {
  if (typeof output === 'string') return output;
  const message = (output as { error?: unknown } | null)?.error;
  return typeof message === 'string' ? message : JSON.stringify(output);
}
