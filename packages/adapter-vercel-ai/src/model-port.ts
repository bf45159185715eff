/**
 * The engine's model port over the AI SDK: one `generateText` (or `streamText`) step with the
 * agent's own model, settings, provider options and tool schemas. Tools go to the SDK without
 * `execute` and without approval rules, so the SDK only asks the model; the engine runs them.
 */
import type {
  AssistantMessage,
  Message,
  ModelPort,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolCallPart,
} from '@agent-continuations/core';
import { queuedRun } from '@agent-continuations/core/adapter-kit';
import {
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type Tool,
  type ToolSet,
} from 'ai';
import {
  type AnySettings,
  instructionsOf,
  LOOP_ONLY_KEYS,
  prepareStepOf,
  STEP_CALLBACK,
  STEP_RESPONSE_MESSAGES,
} from './compat';
import { type Accepted, inputSchemaOf, notingSchema } from './input-schemas';
import { jsonCopy } from './json-copy';
import { AI_SDK_KEY, toModelMessage, toNeutralMessage } from './messages';
import { isUnmarkedRejection } from './rejection';
import type { StepRecord } from './steps';

/** What the port reads of one SDK step. */
interface StepParts {
  response: { messages: readonly ModelMessage[] };
  usage: Parameters<typeof toResponse>[1];
  finishReason: string;
  rawFinishReason: string | undefined;
  /** The step's parts as the SDK made them (its response messages are copies). */
  content?: readonly StepPart[];
}

/** What the port reads of a step's part. */
interface StepPart {
  type: string;
  toolCallId?: string;
  input?: unknown;
  providerExecuted?: boolean;
}

/** The request a call's next step answers, with its prompt. */
interface Current {
  request: ModelRequest;
  history: ModelMessage[];
}

/**
 * Settings that one SDK call kept open across a segment's steps honours as one call per step
 * does. Any other setting (step callbacks, telemetry, timeouts, stream transforms, `output`)
 * would see the calls themselves, so an agent with one makes a call per step.
 */
const SEGMENT_SAFE = new Set<string>([
  ...LOOP_ONLY_KEYS,
  'model',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'seed',
  'maxRetries',
  'headers',
  'providerOptions',
  'toolChoice',
  'activeTools',
  'experimental_activeTools',
  'allowSystemInMessages',
  'experimental_download',
  'experimental_include',
  'include',
  '_internal',
  'experimental_context',
  'onError',
  'includeRawChunks',
]);

/**
 * One SDK call driving the steps of a segment. Its step callback hands each step to the engine;
 * then its stop condition waits for the engine's decision: one more step (the engine's next
 * request) or none (the segment ended).
 */
interface OpenCall {
  signal: AbortSignal | undefined;
  /** The step the engine waits for; `undefined` when the call ended without making it. */
  next: Deferred<StepParts | undefined>;
  /** The engine's decision on the step last handed over: `true` for one more step, `false` to end. */
  decision: Deferred<boolean> | undefined;
  decided: boolean;
  /** The segment ended: every later decision is `false`. */
  closed: boolean;
  /** The SDK call has returned (or failed): it makes no more steps. */
  done: boolean;
  /** How many response messages earlier steps made (ai@6 repeats them in each step's). */
  seen: number;
  /** A streamed call's parts, read ahead into the core's queue. */
  parts: AsyncIterator<TextStreamPart<ToolSet>> | undefined;
  /** The first error of the current step (`onError` or an `error` part). */
  failure: { error: unknown } | undefined;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function settled<T>(value: T): Deferred<T> {
  const done = deferred<T>();
  done.resolve(value);
  return done;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Read by the engine's next step, or by nobody when the segment has ended.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** The engine's model port for an agent's settings. */
export function createModelPort(settings: AnySettings): ModelPort {
  const tools = settings.tools ?? {};
  // The inputs the SDK's validation of tool calls accepted, by the value it gave: a call whose
  // arguments are that same input reaches the engine's tool already validated.
  const accepted: Accepted = new WeakMap();
  const modelTools: Record<string, Tool & Record<string, unknown>> = Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const {
        execute: _execute,
        needsApproval: _needsApproval,
        ...schemaOnly
      } = tool as Tool & Record<string, unknown>;
      if (schemaOnly.type === 'provider') return [name, schemaOnly];
      const inputSchema = notingSchema(inputSchemaOf((tool as Tool).inputSchema), accepted);
      return [name, { ...schemaOnly, inputSchema }];
    }),
  );
  const responseOf = (step: StepParts): ModelResponse =>
    toResponse(step.response.messages, step.usage, step.finishReason, step.rawFinishReason, {
      accepted,
      content: step.content,
    });
  // In a call kept open across steps, the SDK must go on after a step with tool calls, which it
  // does once each call has a result: these placeholders are never sent (the next step's prompt
  // is the engine's history, with the engine's results).
  const placeholderTools = Object.fromEntries(
    Object.entries(modelTools).map(([name, tool]) => {
      if (tool.type === 'provider') return [name, tool];
      const { toModelOutput: _toModelOutput, ...rest } = tool as Record<string, unknown>;
      return [name, { ...rest, execute: placeholderResult }];
    }),
  );
  const skip = new Set<string>(LOOP_ONLY_KEYS);
  const callSettings = Object.fromEntries(Object.entries(settings).filter(([key]) => !skip.has(key)));
  const system = instructionsOf(settings);
  const userPrepareStep = prepareStepOf(settings);
  const userOnError = settings.onError as ((event: { error: unknown }) => unknown) | undefined;
  const userStepCallback = settings[STEP_CALLBACK] as ((step: StepParts) => unknown) | undefined;
  const userRepair = settings.experimental_repairToolCall as
    | ((options: Record<string, unknown>) => unknown)
    | undefined;
  const segments = Object.entries(settings).every(
    ([key, value]) => value === undefined || SEGMENT_SAFE.has(key),
  );

  /** The SDK call's arguments; `open` for a call kept open across a segment's steps. */
  const callArgs = (at: () => Current, open?: OpenCall): Record<string, unknown> => {
    const { signal } = at().request;
    return {
      ...callSettings,
      ...(system === undefined ? {} : { system }),
      // The SDK checks a call's `messages` against its schema, at a cost that grows with their size,
      // then sends each step the messages `prepareStep` returns as they are. The history comes from
      // the continuation, checked when it was parsed, so it goes through `prepareStep`, and the
      // call itself carries one empty user message (the model never sees it).
      messages: [{ role: 'user', content: '' }],
      ...(userRepair
        ? {
            experimental_repairToolCall: (options: Record<string, unknown>) =>
              userRepair({ ...options, messages: at().history }),
          }
        : {}),
      prepareStep: async (options: Record<string, unknown>) => {
        const { request, history } = at();
        // The user's prepareStep sees the run's real step number and the whole history; in a call
        // kept open, what a call of its own would show: no earlier steps, the settings' context.
        const seen = open ? { steps: [], experimental_context: settings.experimental_context } : {};
        const own = (await userPrepareStep?.({
          ...options,
          ...seen,
          stepNumber: request.step,
          messages: history,
        })) as Record<string, unknown> | undefined;
        return {
          ...own,
          messages: own?.messages ?? history,
          ...(open
            ? { experimental_context: own?.experimental_context ?? settings.experimental_context }
            : {}),
        };
      },
      tools: open ? placeholderTools : modelTools,
      stopWhen: open ? async () => !(await open.decision?.promise) : stepCountIs(1),
      ...(signal ? { abortSignal: signal } : {}),
    };
  };

  const generate = async (current: Current): Promise<ModelResponse> => {
    const result = await generateText(
      callArgs(() => current) as unknown as Parameters<typeof generateText>[0],
    );
    return toResponse(result.response.messages, result.usage, result.finishReason, result.rawFinishReason, {
      accepted,
      content: result.content as readonly StepPart[],
    });
  };

  async function* stream(current: Current): AsyncIterable<ModelStreamEvent> {
    let failure: { error: unknown } | undefined;
    // The step as the SDK hands it to the step callback. Reading the result's promises instead
    // (`response`, `usage`, ...) would split the stream once more for each of them.
    let finished: StepParts | undefined;
    const result = streamText({
      ...(callArgs(() => current) as unknown as Parameters<typeof streamText>[0]),
      onError: async (event: { error: unknown }) => {
        failure ??= { error: event.error };
        await userOnError?.(event);
      },
      [STEP_CALLBACK]: async (step: StepParts) => {
        finished = step;
        await userStepCallback?.(step);
      },
    });
    for await (const part of result.fullStream) {
      const event = streamEvent(part);
      if (event) yield event;
      else if (part.type === 'error') failure ??= { error: part.error };
    }
    if (failure) throw failure.error;
    const step = finished ?? {
      response: await result.response,
      usage: await result.usage,
      finishReason: await result.finishReason,
      rawFinishReason: await result.rawFinishReason,
    };
    yield { type: 'finish', response: responseOf(step) };
  }

  /** A call kept open: the step callback hands each step over, then waits for the next request. */
  const openCall = (signal: AbortSignal | undefined): OpenCall => ({
    signal,
    next: deferred(),
    decision: undefined,
    decided: false,
    closed: false,
    done: false,
    seen: 0,
    parts: undefined,
    failure: undefined,
  });
  const handOver = (call: OpenCall, step: StepParts) => {
    const all = step.response.messages;
    const own = STEP_RESPONSE_MESSAGES === 'own' ? all : all.slice(call.seen);
    call.seen = all.length;
    call.decision = call.closed ? settled(false) : deferred();
    call.decided = call.closed;
    call.next.resolve({
      response: { messages: own },
      usage: step.usage,
      finishReason: step.finishReason,
      rawFinishReason: step.rawFinishReason,
      ...(step.content ? { content: step.content } : {}),
    });
  };
  /** Decide for a call that handed its step over: one more step (`true`) or end (`false`). */
  const release = (call: OpenCall, more: boolean) => {
    if (!more) call.closed = true;
    if (!call.decision || call.decided) return;
    call.decided = true;
    // The step the engine asks for next; a call that returns before making it leaves it `undefined`.
    if (more) call.next = call.done ? settled(undefined) : deferred();
    call.decision.resolve(more);
  };

  const startGenerate = (at: () => Current): OpenCall => {
    const call = openCall(at().request.signal);
    generateText({
      ...callArgs(at, call),
      [STEP_CALLBACK]: (step: StepParts) => handOver(call, step),
    } as unknown as Parameters<typeof generateText>[0]).then(
      () => {
        call.done = true;
        call.next.resolve(undefined);
      },
      (error: unknown) => {
        call.done = true;
        call.next.reject(error);
      },
    );
    return call;
  };

  const startStream = (at: () => Current): OpenCall => {
    const call = openCall(at().request.signal);
    const result = streamText({
      ...callArgs(at, call),
      onError: async (event: { error: unknown }) => {
        call.failure ??= { error: event.error };
        await userOnError?.(event);
      },
      [STEP_CALLBACK]: (step: StepParts) => handOver(call, step),
    } as unknown as Parameters<typeof streamText>[0]);
    // Read ahead, so that the call ends on its own once the segment no longer reads it.
    call.parts = queuedRun<TextStreamPart<ToolSet>, void>(async (push) => {
      try {
        for await (const part of result.fullStream) push(part);
      } finally {
        call.done = true;
        call.next.resolve(undefined);
      }
    })[Symbol.asyncIterator]();
    return call;
  };

  /** The next part of a streamed call, or `undefined` at its end. */
  const nextPart = async (call: OpenCall): Promise<TextStreamPart<ToolSet> | undefined> => {
    const next = await call.parts!.next();
    return next.done ? undefined : next.value;
  };

  const port: ModelPort = {
    async generate(request) {
      return generate({ request, history: await promptMessages(request.messages, tools) });
    },
    async *stream(request) {
      yield* stream({ request, history: await promptMessages(request.messages, tools) });
    },
  };
  if (!segments) return port;

  return {
    ...port,
    openSegment() {
      let current: Current | undefined;
      let open: OpenCall | undefined;
      const at = () => current!;
      /** The open call can make the next step of this request. */
      const goesOn = (request: ModelRequest) =>
        open?.decision !== undefined &&
        !open.decided &&
        !open.done &&
        open.signal === request.signal &&
        !request.signal?.aborted;
      const end = () => {
        if (open) release(open, false);
        open = undefined;
      };
      return {
        async generate(request) {
          const next = { request, history: await promptMessages(request.messages, tools) };
          if (open && goesOn(request)) {
            current = next;
            const call = open;
            release(call, true);
            const step = await call.next.promise;
            if (step) return responseOf(step);
          }
          // The call ended without this step (it stops on its own after a step it cannot go on
          // from): a new call makes it.
          end();
          current = next;
          const call = startGenerate(at);
          open = call;
          const step = await call.next.promise;
          if (!step) throw new Error('The AI SDK call ended without a step.');
          return responseOf(step);
        },
        async *stream(request) {
          const next = { request, history: await promptMessages(request.messages, tools) };
          let call: OpenCall;
          let fresh = false;
          if (open && goesOn(request)) {
            call = open;
            current = next;
            call.failure = undefined;
            release(call, true);
          } else {
            end();
            current = next;
            call = startStream(at);
            open = call;
            fresh = true;
          }
          let yielded = false;
          let done = false;
          try {
            for (;;) {
              const part = await nextPart(call);
              if (part === undefined || part.type === 'finish-step') break;
              const event = streamEvent(part);
              if (event) {
                yielded = true;
                yield event;
              } else if (part.type === 'error') call.failure ??= { error: part.error };
            }
            if (call.failure) throw call.failure.error;
            const step = await call.next.promise;
            if (step) {
              done = true;
              yield { type: 'finish', response: responseOf(step) };
              return;
            }
            if (fresh || yielded) throw new Error('The AI SDK stream ended before its step finished.');
            // The call ended without this step: a new call makes it.
            open = undefined;
            done = true;
            yield* this.stream!(request);
          } finally {
            // Left before the step's end (a failure, or the reader stopped): this call makes no more steps.
            if (!done && open === call) end();
          }
        },
        close: end,
      };
    },
  };
}

/** The engine's event for one stream part of a step, if it has one. */
function streamEvent(part: TextStreamPart<ToolSet>): ModelStreamEvent | undefined {
  if (part.type === 'text-delta') return { type: 'text-delta', delta: part.text };
  // Tool-input deltas pass through the engine's stream to the UI stream, as the SDK sends them.
  if (part.type === 'tool-input-start' && !part.providerExecuted)
    return { type: 'tool-input-start', toolCallId: part.id, toolName: part.toolName } as never;
  if (part.type === 'tool-input-delta')
    return { type: 'tool-input-delta', toolCallId: part.id, delta: part.delta } as never;
  if (part.type === 'reasoning-delta') return { type: 'reasoning-delta', delta: part.text };
  if (part.type === 'tool-call' && !part.providerExecuted) {
    return {
      type: 'tool-call',
      toolCall: {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        args: part.input as never,
      },
    };
  }
  return undefined;
}

/** What a placeholder tool returns in a call kept open (see `placeholderTools`). */
function placeholderResult(): null {
  return null;
}

/**
 * The prompt for one step. Results the engine recorded carry the tool's return value; like the
 * SDK, send the model what the tool's `toModelOutput` makes of it. A call a human rejected goes
 * in the SDK's own denial form, `execution-denied` with the human's reason.
 */
async function promptMessages(
  messages: readonly Message[],
  tools: Record<string, Tool>,
): Promise<ModelMessage[]> {
  const converted = promptOf(messages);
  if (!Object.values(tools).some((tool) => tool.toModelOutput)) return converted;
  const inputs = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-call') inputs.set(part.toolCallId, part.args);
  }
  return Promise.all(
    converted.map(async (message, index) => {
      const neutral = messages[index]!;
      if (message.role !== 'tool' || neutral.role !== 'tool') return message;
      const content = await Promise.all(
        message.content.map(async (part) => {
          if (part.type !== 'tool-result') return part;
          const source = neutral.content.find((result) => result.toolCallId === part.toolCallId);
          const toModelOutput = tools[part.toolName]?.toModelOutput;
          const ownForm = (source?.providerMetadata?.[AI_SDK_KEY] as { output?: unknown } | undefined)
            ?.output;
          if (!source || !toModelOutput || source.isError || ownForm !== undefined) return part;
          if (part.output.type === 'execution-denied') return part;
          const output = await toModelOutput({
            toolCallId: part.toolCallId,
            input: inputs.get(part.toolCallId),
            output: source.output,
          });
          return { ...part, output };
        }),
      );
      return { ...message, content };
    }),
  );
}

/**
 * Each message of a transcript as the SDK's, converted once: the engine adds to a run's
 * transcript and never changes a message in it, and each step sends the whole transcript.
 */
const promptForms = new WeakMap<Message, ModelMessage>();

/** A transcript's SDK form so far, by the transcript: a step converts only the messages added since. */
const transcriptForms = new WeakMap<readonly Message[], { sources: Message[]; converted: ModelMessage[] }>();

function promptOf(messages: readonly Message[]): ModelMessage[] {
  let known = transcriptForms.get(messages);
  if (!known) {
    known = { sources: [], converted: [] };
    transcriptForms.set(messages, known);
  }
  const { sources, converted } = known;
  let same = 0;
  const shared = Math.min(sources.length, messages.length);
  while (same < shared && sources[same] === messages[same]) same++;
  sources.length = same;
  converted.length = same;
  for (let index = same; index < messages.length; index++) {
    const message = messages[index]!;
    sources.push(message);
    converted.push(promptMessage(message));
  }
  // A copy: the user's `prepareStep` and the SDK may keep or change the array they are given.
  return converted.slice();
}

function promptMessage(message: Message): ModelMessage {
  let converted = promptForms.get(message);
  if (!converted) {
    converted = deniedForm(message, toModelMessage(message));
    promptForms.set(message, converted);
  }
  return converted;
}

/**
 * Rejected calls' results in the SDK's own denial form, `execution-denied`, for continuations
 * written before the core marked rejections: `toModelMessage` gives a marked one that form, and
 * these are recognised by the core's rejection text. The reason is that whole text, with the
 * human's reason in it: the words every adapter's model reads, so a run handed over between
 * frameworks reads the same.
 */
function deniedForm(neutral: Message, message: ModelMessage): ModelMessage {
  if (message.role !== 'tool' || neutral.role !== 'tool') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result') return part;
    const source = neutral.content.find((result) => result.toolCallId === part.toolCallId);
    if (!source || !isUnmarkedRejection(source)) return part;
    changed = true;
    return { ...part, output: { type: 'execution-denied' as const, reason: source.output as string } };
  });
  return changed ? { ...message, content } : message;
}

function toResponse(
  messages: readonly ModelMessage[],
  usage: {
    inputTokens?: number | undefined;
    outputTokens?: number | undefined;
    totalTokens?: number | undefined;
  },
  finishReason: string,
  rawFinishReason: string | undefined,
  validated: { accepted: Accepted; content: readonly StepPart[] | undefined },
): ModelResponse {
  const assistant = messages.find((message) => message.role === 'assistant');
  const converted: AssistantMessage = assistant
    ? (toNeutralMessage(assistant) as AssistantMessage)
    : { role: 'assistant', content: [] };
  const validatedArgs = validated.content
    ? validatedCalls(validated.content, converted, validated.accepted)
    : undefined;
  // The call's own usage and finish reason, for the SDK-shaped steps (`stopWhen`, `onFinish`).
  const step: StepRecord = {
    usage: jsonCopy(usage) as StepRecord['usage'],
    finishReason,
    ...(rawFinishReason === undefined ? {} : { rawFinishReason }),
  };
  const own = (converted.providerMetadata?.[AI_SDK_KEY] ?? {}) as Record<string, unknown>;
  const message: AssistantMessage = {
    ...converted,
    providerMetadata: { ...converted.providerMetadata, [AI_SDK_KEY]: { ...own, step } as never },
  };
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return {
    message,
    usage: { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens },
    finishReason,
    ...(validatedArgs ? { validatedArgs } : {}),
  };
}

/**
 * The calls of `converted` whose arguments the SDK validated as they are, with the value the
 * validation gave: the input the validator accepted has the JSON of the call's `args`, so the
 * engine's tool (same validator) would accept them and give that value.
 */
function validatedCalls(
  content: readonly StepPart[],
  converted: AssistantMessage,
  accepted: Accepted,
): Map<ToolCallPart, unknown> | undefined {
  if (typeof converted.content === 'string') return undefined;
  let found: Map<ToolCallPart, unknown> | undefined;
  for (const part of content) {
    if (part.type !== 'tool-call' || part.providerExecuted) continue;
    const value = part.input;
    if (typeof value !== 'object' || value === null || !accepted.has(value)) continue;
    const call = converted.content.find(
      (each): each is ToolCallPart => each.type === 'tool-call' && each.toolCallId === part.toolCallId,
    );
    if (!call || JSON.stringify(accepted.get(value)) !== JSON.stringify(call.args)) continue;
    found ??= new Map();
    found.set(call, value);
  }
  return found;
}
