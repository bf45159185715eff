/**
 * A continuable run in the shapes of the AI SDK's results, so that code written for a
 * `ToolLoopAgent` (`agent.generate()`, `agent.stream()`, `createAgentUIStreamResponse`) reads a
 * continuable run the same way. The run's own result (completed, or suspended with its
 * continuation) is the extra `result`.
 */
import {
  type Action,
  type AgentStream,
  type AgentStreamEvent,
  type Continuation,
  ContinuationError,
  type Message,
  type RunResult,
} from '@agent-continuations/core';
import {
  createTextStreamResponse,
  createUIMessageStreamResponse,
  pipeTextStreamToResponse,
  pipeUIMessageStreamToResponse,
  type UIMessageChunk,
} from 'ai';
import { type AnySettings, continuationStreamPart } from './compat';
import { type SdkStep, stepsOf, totalUsage } from './steps';
import { type ContinuationData, toUIMessageStream, type UIStreamOptions } from './ui-stream';

/** What the SDK-shaped results are built from: the run's settings and where its segment began. */
export interface ResultContext {
  settings: AnySettings;
  /** Model calls the run had made before this `run` / `resume` began. */
  segmentStart: number;
}

/** The SDK's result fields of a finished (or suspended) run, from its last step and all its steps. */
export function resultFields(result: RunResult<unknown>, context: ResultContext): Record<string, unknown> {
  const { messages, step } = transcriptOf(result);
  const steps = stepsOf(messages, step - context.segmentStart, context.settings);
  const last = steps.at(-1);
  return {
    content: last?.content ?? [],
    text: last?.text ?? '',
    reasoning: last?.reasoning ?? [],
    reasoningText: last?.reasoningText,
    files: [],
    sources: [],
    toolCalls: last?.toolCalls ?? [],
    staticToolCalls: last?.toolCalls ?? [],
    dynamicToolCalls: [],
    toolResults: last?.toolResults ?? [],
    staticToolResults: last?.toolResults ?? [],
    dynamicToolResults: [],
    finishReason: result.status === 'completed' ? (last?.finishReason ?? 'stop') : 'other',
    rawFinishReason: last?.rawFinishReason,
    usage: last?.usage ?? {},
    totalUsage: totalUsage(steps),
    warnings: [],
    request: {},
    response: last?.response ?? { messages: [] },
    providerMetadata: undefined,
    steps,
    experimental_context: context.settings.experimental_context,
  };
}

/** The result of an SDK-shaped `generate()`: the SDK's fields, `output` when completed, and the run's result. */
export type ContinuableGenerateResult<Output> = Record<string, unknown> & {
  readonly text: string;
  readonly steps: SdkStep[];
  /** The structured output (or the text); throws when the run did not complete. */
  readonly output: Output;
  /** The run's own result: completed, suspended (with its continuation and actions) or rejected. */
  readonly result: RunResult<Output>;
  /** The continuation of a suspended run. */
  readonly continuation: Continuation | undefined;
};

/** Build the result of an SDK-shaped `generate()`. */
export function generateResult<Output>(
  result: RunResult<Output>,
  context: ResultContext,
): ContinuableGenerateResult<Output> {
  const fields = resultFields(result, context);
  return Object.defineProperties(fields, {
    output: {
      enumerable: true,
      get: () => {
        if (result.status === 'completed') return result.output;
        throw notCompleted(result);
      },
    },
    experimental_output: { get: () => (fields as { output: unknown }).output },
    result: { enumerable: true, value: result },
    continuation: {
      enumerable: true,
      value: result.status === 'suspended' ? result.continuation : undefined,
    },
  }) as ContinuableGenerateResult<Output>;
}

/** A streamed continuable run: the core's event stream, plus the members of the SDK's `StreamTextResult`. */
export interface ContinuableStream<Output> extends AgentStream<Output> {
  readonly text: Promise<string>;
  readonly output: Promise<Output>;
  readonly steps: Promise<SdkStep[]>;
  readonly finishReason: Promise<string>;
  readonly usage: Promise<Record<string, unknown>>;
  readonly totalUsage: Promise<Record<string, unknown>>;
  readonly response: Promise<Record<string, unknown>>;
  readonly content: Promise<unknown[]>;
  readonly toolCalls: Promise<unknown[]>;
  readonly toolResults: Promise<unknown[]>;
  readonly reasoning: Promise<unknown[]>;
  readonly reasoningText: Promise<string | undefined>;
  readonly files: Promise<unknown[]>;
  readonly sources: Promise<unknown[]>;
  readonly staticToolCalls: Promise<unknown[]>;
  readonly dynamicToolCalls: Promise<unknown[]>;
  readonly staticToolResults: Promise<unknown[]>;
  readonly dynamicToolResults: Promise<unknown[]>;
  readonly rawFinishReason: Promise<string | undefined>;
  readonly warnings: Promise<unknown[]>;
  readonly request: Promise<Record<string, unknown>>;
  readonly providerMetadata: Promise<undefined>;
  /** Not offered (partial structured output is not streamed): reading it fails with a typed error. */
  readonly partialOutputStream: ReadableStream<never> & AsyncIterable<never>;
  readonly experimental_partialOutputStream: ReadableStream<never> & AsyncIterable<never>;
  readonly elementStream: ReadableStream<never> & AsyncIterable<never>;
  /** The continuation of a suspended run (undefined when it completed). */
  readonly continuation: Promise<Continuation | undefined>;
  /** Text deltas. */
  readonly textStream: ReadableStream<string> & AsyncIterable<string>;
  /** The SDK's stream parts (`TextStreamPart`): text, reasoning, tool input, calls, results, steps. */
  readonly fullStream: ReadableStream<Record<string, unknown>> & AsyncIterable<Record<string, unknown>>;
  /** `fullStream` under ai@7's name. */
  readonly stream: ReadableStream<Record<string, unknown>> & AsyncIterable<Record<string, unknown>>;
  consumeStream(): Promise<void>;
  /** The run as a UI message stream: the SDK's chunks, approvals, and a `data-continuation` part when it suspends. */
  toUIMessageStream(options?: UIStreamOptions): ReadableStream<UIMessageChunk>;
  toUIMessageStreamResponse(
    options?: UIStreamOptions & { status?: number; statusText?: string; headers?: HeadersInit },
  ): Response;
  pipeUIMessageStreamToResponse(
    response: Parameters<typeof pipeUIMessageStreamToResponse>[0]['response'],
    options?: UIStreamOptions & { status?: number; statusText?: string; headers?: HeadersInit },
  ): void;
  toTextStreamResponse(init?: ResponseInit): Response;
  pipeTextStreamToResponse(
    response: Parameters<typeof pipeTextStreamToResponse>[0]['response'],
    init?: ResponseInit,
  ): void;
}

/**
 * Give a streamed run the SDK's members. The events are recorded as they come, so the stream,
 * `textStream`, `fullStream` and the UI stream can each be read, in any order.
 */
export function continuableStream<Output>(
  run: AgentStream<Output>,
  context: Promise<ResultContext>,
): ContinuableStream<Output> {
  const replay = new Replay<AgentStreamEvent<Output>>(run);
  const fields = run.result.then(async (result) => resultFields(result, await context));
  fields.catch(() => {});
  const field = <T>(name: string) => fields.then((all) => all[name] as T);
  const events = (): AsyncIterable<AgentStreamEvent<Output>> => ({
    [Symbol.asyncIterator]: () => replay.iterator(),
  });
  const uiStream = (options?: UIStreamOptions) =>
    toUIMessageStream({ result: run.result, [Symbol.asyncIterator]: () => replay.iterator() }, options);
  const textStream = () =>
    iterableStream(
      (async function* () {
        for await (const event of events()) if (event.type === 'text-delta' && !event.path) yield event.delta;
      })(),
    );
  const parts = () => iterableStream(streamParts(events()));
  return {
    result: run.result,
    [Symbol.asyncIterator]: () => replay.iterator(),
    get text() {
      return field<string>('text');
    },
    get output() {
      return run.result.then((result) => {
        if (result.status === 'completed') return result.output;
        throw notCompleted(result);
      });
    },
    get steps() {
      return field<SdkStep[]>('steps');
    },
    get finishReason() {
      return field<string>('finishReason');
    },
    get usage() {
      return field<Record<string, unknown>>('usage');
    },
    get totalUsage() {
      return field<Record<string, unknown>>('totalUsage');
    },
    get response() {
      return field<Record<string, unknown>>('response');
    },
    get content() {
      return field<unknown[]>('content');
    },
    get toolCalls() {
      return field<unknown[]>('toolCalls');
    },
    get toolResults() {
      return field<unknown[]>('toolResults');
    },
    get reasoning() {
      return field<unknown[]>('reasoning');
    },
    get reasoningText() {
      return field<string | undefined>('reasoningText');
    },
    get files() {
      return field<unknown[]>('files');
    },
    get sources() {
      return field<unknown[]>('sources');
    },
    get staticToolCalls() {
      return field<unknown[]>('staticToolCalls');
    },
    get dynamicToolCalls() {
      return field<unknown[]>('dynamicToolCalls');
    },
    get staticToolResults() {
      return field<unknown[]>('staticToolResults');
    },
    get dynamicToolResults() {
      return field<unknown[]>('dynamicToolResults');
    },
    get rawFinishReason() {
      return field<string | undefined>('rawFinishReason');
    },
    get warnings() {
      return field<unknown[]>('warnings');
    },
    get request() {
      return field<Record<string, unknown>>('request');
    },
    get providerMetadata() {
      return field<undefined>('providerMetadata');
    },
    // Partial structured output is not streamed: the engine parses `output` when the run completes.
    get partialOutputStream() {
      return unsupportedStream('partialOutputStream');
    },
    get experimental_partialOutputStream() {
      return unsupportedStream('experimental_partialOutputStream');
    },
    get elementStream() {
      return unsupportedStream('elementStream');
    },
    get continuation() {
      return run.result.then((result) => (result.status === 'suspended' ? result.continuation : undefined));
    },
    get textStream() {
      return textStream();
    },
    get fullStream() {
      return parts();
    },
    get stream() {
      return parts();
    },
    consumeStream: async () => {
      await replay.done;
    },
    toUIMessageStream: (options) => uiStream(options),
    toUIMessageStreamResponse: ({ status, statusText, headers, ...options } = {}) =>
      createUIMessageStreamResponse({
        stream: uiStream(options),
        ...(status === undefined ? {} : { status }),
        ...(statusText === undefined ? {} : { statusText }),
        ...(headers === undefined ? {} : { headers }),
      }),
    pipeUIMessageStreamToResponse: (response, { status, statusText, headers, ...options } = {}) => {
      void pipeUIMessageStreamToResponse({
        response,
        stream: uiStream(options),
        ...(status === undefined ? {} : { status }),
        ...(statusText === undefined ? {} : { statusText }),
        ...(headers === undefined ? {} : { headers }),
      });
    },
    toTextStreamResponse: (init) => createTextStreamResponse({ ...init, textStream: textStream() }),
    pipeTextStreamToResponse: (response, init) => {
      void pipeTextStreamToResponse({ response, ...init, textStream: textStream() });
    },
  };
}

/** A stream a continuable run does not offer, failing with a typed error when read. */
function unsupportedStream(name: string): ReadableStream<never> & AsyncIterable<never> {
  const failing: AsyncIterable<never> = {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        Promise.reject(
          new ContinuationError(
            'INVALID_OPERATION',
            `A continuable run has no ${name}: read \`output\` (the parsed result) when the run completes.`,
          ),
        ),
    }),
  };
  return iterableStream(failing);
}

/** The transcript and model-call count of any result. */
function transcriptOf(result: RunResult<unknown>): { messages: readonly Message[]; step: number } {
  return result.status === 'suspended'
    ? { messages: result.continuation.messages, step: result.continuation.step }
    : { messages: result.messages, step: result.step };
}

function notCompleted(result: RunResult<unknown>): ContinuationError {
  return new ContinuationError(
    'INVALID_OPERATION',
    result.status === 'suspended'
      ? 'The run suspended, so it has no output yet: resume its continuation (`result.continuation`) to finish it.'
      : 'The run ended because a human rejected a call, so it has no output.',
  );
}

/** The SDK's stream parts for a run's events. */
async function* streamParts<Output>(
  events: AsyncIterable<AgentStreamEvent<Output>>,
): AsyncIterable<Record<string, unknown>> {
  let open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  let inStep = false;
  // A model call ended; its step stays open for its tool results, as in the SDK's stream.
  let stepEnded = false;
  let parts = 0;
  const inputs = new Map<string, unknown>();
  const pending: Record<string, unknown>[] = [];
  const finishStep = () => {
    if (inStep) pending.push({ type: 'finish-step', response: {}, usage: {}, finishReason: 'unknown' });
    inStep = false;
    stepEnded = false;
  };
  const startStep = () => {
    if (stepEnded) finishStep();
    if (!inStep) pending.push({ type: 'start-step', request: {}, warnings: [] });
    inStep = true;
  };
  const inCurrentStep = () => {
    if (!inStep) startStep();
  };
  const close = () => {
    if (open) pending.push({ type: `${open.kind}-end`, id: open.id });
    open = undefined;
  };
  yield { type: 'start' };
  for await (const each of events) {
    const event = each as
      | AgentStreamEvent<Output>
      | { type: 'tool-input-start' | 'tool-input-delta'; [key: string]: unknown };
    if ((event as { path?: unknown }).path) continue;
    switch (event.type) {
      case 'text-delta':
      case 'reasoning-delta': {
        startStep();
        const kind = event.type === 'text-delta' ? 'text' : 'reasoning';
        if (open?.kind !== kind) {
          close();
          open = { kind, id: `${kind}-${parts++}` };
          pending.push({ type: `${kind}-start`, id: open.id });
        }
        pending.push({ type: `${kind}-delta`, id: open.id, text: event.delta });
        break;
      }
      case 'tool-input-start':
        startStep();
        close();
        pending.push({ type: 'tool-input-start', id: event.toolCallId, toolName: event.toolName });
        break;
      case 'tool-input-delta':
        pending.push({ type: 'tool-input-delta', id: event.toolCallId, delta: event.delta });
        break;
      case 'tool-call':
        startStep();
        close();
        inputs.set(event.toolCall.toolCallId, event.toolCall.args);
        pending.push({
          type: 'tool-call',
          toolCallId: event.toolCall.toolCallId,
          toolName: event.toolCall.toolName,
          input: event.toolCall.args,
        });
        break;
      case 'tool-result': {
        inCurrentStep();
        const base = {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: inputs.get(event.toolCallId),
        };
        pending.push(
          event.rejected
            ? { type: 'tool-output-denied', toolCallId: event.toolCallId, toolName: event.toolName }
            : event.isError
              ? { type: 'tool-error', ...base, error: event.output }
              : { type: 'tool-result', ...base, output: event.output },
        );
        break;
      }
      case 'step':
        close();
        stepEnded = inStep;
        break;
      case 'result':
        close();
        if (event.result.status === 'suspended') {
          inCurrentStep();
          pending.push(...approvalParts(event.result.actions));
          const { continuation, actions } = event.result;
          const part = continuationStreamPart({
            id: continuation.id,
            runId: continuation.runId,
            actions,
          } satisfies ContinuationData);
          if (part) pending.push(part);
        }
        finishStep();
        pending.push({
          type: 'finish',
          finishReason: event.result.status === 'completed' ? 'stop' : 'other',
          totalUsage:
            event.result.status === 'suspended' ? event.result.continuation.usage : event.result.usage,
        });
        break;
    }
    while (pending.length > 0) yield pending.shift()!;
  }
}

/**
 * A suspended run's approvals as the SDK's `tool-approval-request` parts; a sub-agent's call,
 * which the chat never saw, first appears as a dynamic tool call of its own (as in the UI stream).
 */
function approvalParts(actions: readonly Action[]): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  for (const action of actions) {
    const nested = action.path.length > 1;
    const toolCall = {
      type: 'tool-call',
      toolCallId: nested ? action.id : action.toolCallId,
      toolName: action.toolName,
      input: action.args,
      ...(nested ? { dynamic: true, title: action.path.map((segment) => segment.agent).join(' > ') } : {}),
    };
    if (nested) parts.push(toolCall);
    if (action.kind === 'approval')
      parts.push({ type: 'tool-approval-request', approvalId: action.id, toolCall });
  }
  return parts;
}

/** An async iterable as the SDK's `AsyncIterableStream` (a `ReadableStream` one can also iterate). */
function iterableStream<T>(source: AsyncIterable<T>): ReadableStream<T> & AsyncIterable<T> {
  const iterator = source[Symbol.asyncIterator]();
  const stream = new ReadableStream<T>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return Object.assign(stream, {
    async *[Symbol.asyncIterator]() {
      const reader = stream.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  });
}

/** Records a stream's events as they come, so that any number of readers can each read all of them. */
class Replay<T> {
  private readonly events: T[] = [];
  private failure: { error: unknown } | undefined;
  private finished = false;
  private waiters: Array<() => void> = [];
  readonly done: Promise<void>;

  constructor(source: AsyncIterable<T>) {
    this.done = (async () => {
      try {
        for await (const event of source) {
          this.events.push(event);
          this.wake();
        }
      } catch (error) {
        this.failure = { error };
      } finally {
        this.finished = true;
        this.wake();
      }
    })();
  }

  async *iterator(): AsyncGenerator<T> {
    let index = 0;
    for (;;) {
      while (index < this.events.length) yield this.events[index++]!;
      if (this.finished) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
