/**
 * The engine's model response for one SDK step: its assistant message (with the step's own usage
 * and finish reason under `providerMetadata["ai-sdk"].step`) and the tool calls whose arguments
 * the SDK's validation already accepted.
 */
import type { AssistantMessage, ModelResponse, ToolCallPart } from '@agent-continuations/core';
import type { ModelMessage } from 'ai';
import type { Accepted } from './input-schemas';
import { jsonCopy } from './json-copy';
import { AI_SDK_KEY, toNeutralMessage } from './messages';
import type { StepRecord } from './steps';

/** What the port reads of one SDK step. */
export interface StepParts {
  response: { messages: readonly ModelMessage[] };
  usage: Parameters<typeof toResponse>[1];
  finishReason: string;
  rawFinishReason: string | undefined;
  /** The step's parts as the SDK made them (its response messages are copies). */
  content?: readonly StepPart[];
}

/** What the port reads of a step's part. */
export interface StepPart {
  type: string;
  toolCallId?: string;
  input?: unknown;
  providerExecuted?: boolean;
}

/** The response for a step, with what the SDK validated of its tool calls. */
export function toResponse(
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
