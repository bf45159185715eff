/**
 * The AI SDK's `steps` rebuilt from a continuation's transcript: one step per model call, with its
 * text, reasoning, tool calls, tool results, finish reason and usage, as `stopWhen` conditions,
 * `onFinish` and the SDK-shaped results read them. Each model call's own usage and finish reason
 * ride on its assistant message (`providerMetadata["ai-sdk"].step`, written by the model port).
 */
import type { JsonObject, JsonValue, Message, SuspendPredicate } from '@agent-continuations/core';
import type { ModelMessage } from 'ai';
import { type AnySettings, STEP_RESPONSE_MESSAGES, stopConditionsOf } from './compat';
import { toModelMessages } from './messages';
import { AI_SDK_KEY } from './provider-metadata';

/** What the model port records of one model call on its assistant message. */
export interface StepRecord {
  usage: JsonObject;
  finishReason: string;
  rawFinishReason?: string;
}

/** A step as the SDK's `StepResult` has it (plain fields, read loosely across majors). */
export type SdkStep = Record<string, unknown> & {
  text: string;
  toolCalls: Array<Record<string, unknown>>;
  toolResults: Array<Record<string, unknown>>;
  usage: Record<string, unknown>;
  finishReason: string;
  response: { messages: ModelMessage[] } & Record<string, unknown>;
};

/**
 * The last `count` model calls of a transcript as SDK steps (a model call's assistant message,
 * and the tool message with its results when there is one).
 */
export function stepsOf(
  messages: readonly Message[],
  count: number,
  settings: AnySettings,
  built?: BuiltSteps,
): SdkStep[] {
  if (count <= 0) return [];
  const starts: number[] = [];
  for (let i = messages.length - 1; i >= 0 && starts.length < count; i--) {
    if (messages[i]!.role === 'assistant') starts.push(i);
  }
  starts.reverse();
  const model = modelRef(settings.model);
  const first = starts[0] ?? messages.length;
  return starts.map((index, stepNumber) => {
    const assistant = messages[index] as Extract<Message, { role: 'assistant' }>;
    const next = messages[index + 1];
    const tool = next?.role === 'tool' ? next : undefined;
    const from = STEP_RESPONSE_MESSAGES === 'own' ? index : first;
    const known = built?.get(assistant);
    if (known && known.tool === tool && known.stepNumber === stepNumber && known.from === from) {
      return known.step;
    }
    const end = tool ? index + 2 : index + 1;
    // Converted when read: most stop conditions never read them, and they are checked every step.
    const responseMessages = () => toModelMessages(messages.slice(from, end));
    const step = buildStep(assistant, tool, stepNumber, model, settings, responseMessages);
    built?.set(assistant, { tool, stepNumber, from, step });
    return step;
  });
}

/**
 * Steps already built, by their assistant message: a step is the same while its message, its
 * tool results and its place in the segment are.
 */
export type BuiltSteps = WeakMap<
  Message,
  { tool: Message | undefined; stepNumber: number; from: number; step: SdkStep }
>;

/**
 * `stopWhen` (the settings', or a `ToolLoopAgent`'s default) as the suspension predicate
 * `stopWhen`: before each model call, the conditions see the steps since the run or its last
 * resume began, as a native call would see its own steps.
 */
export function stopWhenPredicate(settings: AnySettings, isAgent: boolean): SuspendPredicate | undefined {
  const conditions = stopConditionsOf(settings, isAgent);
  if (conditions.length === 0) return undefined;
  // Checked before every model call, each time over all the segment's steps so far.
  const built: BuiltSteps = new WeakMap();
  return {
    name: 'stopWhen',
    async check({ messages, step, segment }) {
      const steps = stepsOf(messages, step - segment.step, settings, built);
      if (steps.length === 0) return false;
      for (const condition of conditions) if (await condition({ steps: steps as never[] })) return true;
      return false;
    },
  };
}

/** The event `onFinish` (`onEnd` in ai@7) receives: the last step, all steps and their total usage. */
export function finishEvent(steps: readonly SdkStep[], settings: AnySettings): Record<string, unknown> {
  const last = steps.at(-1);
  return {
    ...last,
    steps: [...steps],
    totalUsage: totalUsage(steps),
    experimental_context: settings.experimental_context,
    functionId: undefined,
    metadata: undefined,
  };
}

/** The steps' usage added up, as the SDK adds it. */
export function totalUsage(steps: readonly SdkStep[]): Record<string, number | undefined> {
  const sum = (key: string) => {
    let total: number | undefined;
    for (const step of steps) {
      const value = step.usage[key];
      if (typeof value === 'number') total = (total ?? 0) + value;
    }
    return total;
  };
  return {
    inputTokens: sum('inputTokens'),
    outputTokens: sum('outputTokens'),
    totalTokens: sum('totalTokens'),
    ...(steps.some((step) => typeof step.usage.reasoningTokens === 'number')
      ? { reasoningTokens: sum('reasoningTokens') }
      : {}),
    ...(steps.some((step) => typeof step.usage.cachedInputTokens === 'number')
      ? { cachedInputTokens: sum('cachedInputTokens') }
      : {}),
  };
}

/** The record the model port keeps on an assistant message. */
export function stepRecordOf(message: Message): StepRecord | undefined {
  const own = message.providerMetadata?.[AI_SDK_KEY] as { step?: StepRecord } | undefined;
  return own?.step;
}

function buildStep(
  assistant: Extract<Message, { role: 'assistant' }>,
  tool: Extract<Message, { role: 'tool' }> | undefined,
  stepNumber: number,
  model: { provider: string; modelId: string },
  settings: AnySettings,
  responseMessages: () => ModelMessage[],
): SdkStep {
  const parts =
    typeof assistant.content === 'string'
      ? [{ type: 'text' as const, text: assistant.content }]
      : assistant.content;
  const inputs = new Map<string, JsonValue>();
  const content: Array<Record<string, unknown>> = [];
  const toolCalls: Array<Record<string, unknown>> = [];
  const reasoning: Array<Record<string, unknown>> = [];
  let text = '';
  for (const part of parts) {
    if (part.type === 'text') {
      text += part.text;
      content.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      const entry = { type: 'reasoning', text: part.text };
      reasoning.push(entry);
      content.push(entry);
    } else if (part.type === 'tool-call') {
      inputs.set(part.toolCallId, part.args);
      const call = {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.args,
      };
      toolCalls.push(call);
      content.push(call);
    }
  }
  const toolResults: Array<Record<string, unknown>> = [];
  for (const result of tool?.content ?? []) {
    const base = {
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      input: inputs.get(result.toolCallId),
    };
    if (result.isError) content.push({ type: 'tool-error', ...base, error: result.output });
    else {
      const entry = { type: 'tool-result', ...base, output: result.output };
      toolResults.push(entry);
      content.push(entry);
    }
  }
  const record = stepRecordOf(assistant);
  const finishReason = record?.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop');
  return {
    stepNumber,
    model,
    functionId: undefined,
    metadata: undefined,
    experimental_context: settings.experimental_context,
    content,
    text,
    reasoning,
    reasoningText: reasoning.length > 0 ? reasoning.map((part) => part.text).join('') : undefined,
    files: [],
    sources: [],
    toolCalls,
    staticToolCalls: toolCalls,
    dynamicToolCalls: [],
    toolResults,
    staticToolResults: toolResults,
    dynamicToolResults: [],
    finishReason,
    rawFinishReason: record?.rawFinishReason ?? finishReason,
    usage: record?.usage ?? { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
    warnings: [],
    request: {},
    response: lazyResponse(model.modelId, responseMessages),
    providerMetadata: undefined,
  };
}

function lazyResponse(modelId: string, messages: () => ModelMessage[]): SdkStep['response'] {
  let converted: ModelMessage[] | undefined;
  return {
    id: undefined,
    timestamp: undefined,
    modelId,
    get messages() {
      converted ??= messages();
      return converted;
    },
  };
}

function modelRef(model: unknown): { provider: string; modelId: string } {
  if (typeof model === 'string') return { provider: 'gateway', modelId: model };
  const ref = model as { provider?: unknown; modelId?: unknown } | undefined;
  return {
    provider: typeof ref?.provider === 'string' ? ref.provider : 'unknown',
    modelId: typeof ref?.modelId === 'string' ? ref.modelId : 'unknown',
  };
}
