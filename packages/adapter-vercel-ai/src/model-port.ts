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
} from '@agent-continuations/core';
import { generateText, type ModelMessage, stepCountIs, streamText, type Tool } from 'ai';
import { type AnySettings, instructionsOf, LOOP_ONLY_KEYS, prepareStepOf, STEP_CALLBACK } from './compat';
import { AI_SDK_KEY, toModelMessages, toNeutralMessage } from './messages';
import { isRejection } from './rejection';
import type { StepRecord } from './steps';

/** What the port reads of one SDK step. */
interface StepParts {
  response: { messages: readonly ModelMessage[] };
  usage: Parameters<typeof toResponse>[1];
  finishReason: string;
  rawFinishReason: string | undefined;
}

/** The engine's model port for an agent's settings. */
export function createModelPort(settings: AnySettings): ModelPort {
  const tools = settings.tools ?? {};
  const modelTools = Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const {
        execute: _execute,
        needsApproval: _needsApproval,
        ...schemaOnly
      } = tool as Tool & Record<string, unknown>;
      return [name, schemaOnly];
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

  const stepArgs = async (request: ModelRequest): Promise<Record<string, unknown>> => {
    const history = await promptMessages(request.messages, tools);
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
              userRepair({ ...options, messages: history }),
          }
        : {}),
      prepareStep: async (options: Record<string, unknown>) => {
        // The user's prepareStep sees the run's real step number and the whole history.
        const own = (await userPrepareStep?.({ ...options, stepNumber: request.step, messages: history })) as
          | Record<string, unknown>
          | undefined;
        return { ...own, messages: own?.messages ?? history };
      },
      tools: modelTools,
      stopWhen: stepCountIs(1),
      ...(request.signal ? { abortSignal: request.signal } : {}),
    };
  };

  return {
    async generate(request) {
      const result = await generateText(
        (await stepArgs(request)) as unknown as Parameters<typeof generateText>[0],
      );
      return toResponse(result.response.messages, result.usage, result.finishReason, result.rawFinishReason);
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      let failure: { error: unknown } | undefined;
      // The step as the SDK hands it to the step callback. Reading the result's promises instead
      // (`response`, `usage`, ...) would split the stream once more for each of them.
      let finished: StepParts | undefined;
      const result = streamText({
        ...((await stepArgs(request)) as unknown as Parameters<typeof streamText>[0]),
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
        if (part.type === 'text-delta') yield { type: 'text-delta', delta: part.text };
        // Tool-input deltas pass through the engine's stream to the UI stream, as the SDK sends them.
        else if (part.type === 'tool-input-start' && !part.providerExecuted)
          yield { type: 'tool-input-start', toolCallId: part.id, toolName: part.toolName } as never;
        else if (part.type === 'tool-input-delta')
          yield { type: 'tool-input-delta', toolCallId: part.id, delta: part.delta } as never;
        else if (part.type === 'reasoning-delta') yield { type: 'reasoning-delta', delta: part.text };
        else if (part.type === 'tool-call' && !part.providerExecuted) {
          yield {
            type: 'tool-call',
            toolCall: {
              type: 'tool-call',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              args: part.input as never,
            },
          };
        } else if (part.type === 'error') failure ??= { error: part.error };
      }
      if (failure) throw failure.error;
      const step = finished ?? {
        response: await result.response,
        usage: await result.usage,
        finishReason: await result.finishReason,
        rawFinishReason: await result.rawFinishReason,
      };
      yield {
        type: 'finish',
        response: toResponse(step.response.messages, step.usage, step.finishReason, step.rawFinishReason),
      };
    },
  };
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
  const converted = deniedForm(messages, toModelMessages(messages));
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
 * Rejected calls' results (the core's rejection text, marked as an error) in the SDK's own denial
 * form, `execution-denied`. Its reason is the core's whole text, with the human's reason in it:
 * the words every adapter's model reads, so a run handed over between frameworks reads the same.
 */
function deniedForm(messages: readonly Message[], converted: ModelMessage[]): ModelMessage[] {
  return converted.map((message, index) => {
    const neutral = messages[index]!;
    if (message.role !== 'tool' || neutral.role !== 'tool') return message;
    let changed = false;
    const content = message.content.map((part) => {
      if (part.type !== 'tool-result') return part;
      const source = neutral.content.find((result) => result.toolCallId === part.toolCallId);
      if (!source?.isError || !isRejection(source.output)) return part;
      changed = true;
      return { ...part, output: { type: 'execution-denied' as const, reason: source.output as string } };
    });
    return changed ? { ...message, content } : message;
  });
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
): ModelResponse {
  const assistant = messages.find((message) => message.role === 'assistant');
  const converted: AssistantMessage = assistant
    ? (toNeutralMessage(assistant) as AssistantMessage)
    : { role: 'assistant', content: [] };
  // The call's own usage and finish reason, for the SDK-shaped steps (`stopWhen`, `onFinish`).
  const step: StepRecord = {
    usage: JSON.parse(JSON.stringify(usage)) as StepRecord['usage'],
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
  };
}
