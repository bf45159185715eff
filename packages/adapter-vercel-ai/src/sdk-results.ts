/**
 * A continuable run in the shapes of the AI SDK's results, so that code written for a
 * `ToolLoopAgent` (`agent.generate()`, `agent.stream()`, `createAgentUIStreamResponse`) reads a
 * continuable run the same way. The run's own result (completed, or suspended with its
 * continuation) is the extra `result`.
 */
import {
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
import type { AnySettings } from './compat';
import { type SdkStep, stepsOf, totalUsage } from './steps';
import { iterableStream, Replay, streamParts, unsupportedStream } from './stream-parts';
import { toUIMessageStream, type UIStreamOptions } from './ui-stream';

/** What the SDK-shaped results are built from: the run's settings and where its segment began. */
/**
 * The key of a continuable agent's own way to give a core stream (e.g. a runtime's stored resume)
 * the SDK's members: `agent[SDK_STREAM](run, segmentStart)`.
 */
export const SDK_STREAM: unique symbol = Symbol.for('agent-continuations.vercel-ai.sdkStream');

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
  // Built when a member is first read: most readers only iterate, and the steps cost one per step.
  let fields: Promise<Record<string, unknown>> | undefined;
  const field = <T>(name: string) => {
    fields ??= run.result.then(async (result) => resultFields(result, await context));
    return fields.then((all) => all[name] as T);
  };
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
