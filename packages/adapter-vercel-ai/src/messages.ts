/**
 * Lossless conversion between the AI SDK's `ModelMessage`s and the neutral messages of a
 * continuation. Provider options ride in `providerMetadata`; what the neutral format has no place
 * for (approval parts, provider-executed tool calls and results, the original form of binary data
 * and of tool outputs) is kept under the reserved `providerMetadata["ai-sdk"]` key, so that a
 * conversation converted to neutral messages and back is the same conversation.
 */
import {
  type AssistantMessage,
  isRejected,
  type JsonObject,
  type JsonValue,
  type Message,
  type ToolMessage,
  type ToolResultPart,
  type UserMessage,
} from '@agent-continuations/core';
import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserModelMessage } from 'ai';
import {
  AI_SDK_KEY,
  dataFromString,
  dataToString,
  type KeptPart,
  reinsert,
  splitMeta,
  toJson,
  withMeta,
} from './provider-metadata';

export { AI_SDK_KEY };

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolPart = ToolModelMessage['content'][number];
type UserPart = Exclude<UserModelMessage['content'], string>[number];
type ModelToolResult = Extract<ToolPart, { type: 'tool-result' }>;
type ToolResultOutput = ModelToolResult['output'];
type NeutralAssistantPart = Exclude<AssistantMessage['content'], string>[number];
type NeutralUserPart = Exclude<UserMessage['content'], string>[number];

/**
 * Convert AI SDK messages to neutral messages.
 *
 * @example
 * ```ts
 * const neutral = toNeutralMessages(result.response.messages);
 * const again = toModelMessages(neutral); // deep-equal to the original
 * ```
 */
export function toNeutralMessages(messages: readonly ModelMessage[]): Message[] {
  return messages.map(toNeutralMessage);
}

/**
 * Convert neutral messages (from a continuation, possibly made by another adapter) to AI SDK
 * messages.
 *
 * @example
 * ```ts
 * const history = toModelMessages(continuation.messages);
 * await generateText({ model, messages: [...history, { role: 'user', content: 'Go on' }] });
 * ```
 */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  return messages.map(toModelMessage);
}

/**
 * Convert one AI SDK message to a neutral message.
 *
 * @example
 * ```ts
 * const neutral = toNeutralMessage({ role: 'user', content: [{ type: 'image', image: bytes, mediaType: 'image/png' }] });
 * ```
 */
export function toNeutralMessage(message: ModelMessage): Message {
  switch (message.role) {
    case 'system':
      return withMeta({ role: 'system', content: message.content }, message.providerOptions);
    case 'user': {
      if (typeof message.content === 'string') {
        return withMeta({ role: 'user', content: message.content }, message.providerOptions);
      }
      const content = message.content.map(userPartToNeutral);
      return withMeta({ role: 'user', content }, message.providerOptions);
    }
    case 'assistant': {
      if (typeof message.content === 'string') {
        return withMeta({ role: 'assistant', content: message.content }, message.providerOptions);
      }
      const kept: KeptPart[] = [];
      const content: NeutralAssistantPart[] = [];
      message.content.forEach((part, index) => {
        const neutral = assistantPartToNeutral(part);
        if (neutral) content.push(neutral);
        else kept.push({ index, part: toJson(part) });
      });
      return withMeta({ role: 'assistant', content }, message.providerOptions, kept);
    }
    case 'tool': {
      const kept: KeptPart[] = [];
      const content: ToolResultPart[] = [];
      message.content.forEach((part, index) => {
        if (part.type === 'tool-result') content.push(toolResultToNeutral(part));
        else kept.push({ index, part: toJson(part) });
      });
      return withMeta({ role: 'tool', content } satisfies ToolMessage, message.providerOptions, kept);
    }
  }
}

/**
 * Convert one neutral message to an AI SDK message.
 *
 * @example
 * ```ts
 * const last = toModelMessage(continuation.messages.at(-1)!);
 * ```
 */
export function toModelMessage(message: Message): ModelMessage {
  const { options, kept } = splitMeta(message.providerMetadata);
  const base = options ? { providerOptions: options as never } : {};
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content, ...base };
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? message.content : message.content.map(userPartToModel),
        ...base,
      };
    case 'assistant': {
      if (typeof message.content === 'string')
        return { role: 'assistant', content: message.content, ...base };
      const parts: AssistantPart[] = message.content.map(assistantPartToModel);
      return { role: 'assistant', content: reinsert(parts, kept) as AssistantPart[], ...base };
    }
    case 'tool': {
      const parts: ToolPart[] = message.content.map(toolResultToModel);
      return { role: 'tool', content: reinsert(parts, kept) as ToolPart[], ...base };
    }
  }
}

/**
 * The neutral `output` of an AI SDK tool result: the value of `json`, `text` and `error-*`
 * outputs; the reason of a denied execution, which is a rejection; the parts of a `content` output.
 */
export function outputToNeutral(output: ToolResultOutput): {
  output: JsonValue;
  isError: boolean;
  rejected: boolean;
} {
  switch (output.type) {
    case 'text':
    case 'json':
    case 'content':
      return { output: toJson(output.value), isError: false, rejected: false };
    case 'error-text':
    case 'error-json':
      return { output: toJson(output.value), isError: true, rejected: false };
    case 'execution-denied':
      return { output: output.reason ?? 'The tool execution was denied.', isError: true, rejected: true };
  }
}

/**
 * The AI SDK output for a neutral result, as the SDK itself would make it: from a tool's return
 * value, or, for a rejection, a denied execution whose reason is the rejection's text.
 */
export function defaultOutput(output: JsonValue, isError: boolean, rejected = false): ToolResultOutput {
  if (rejected && typeof output === 'string') return { type: 'execution-denied', reason: output };
  if (isError)
    return typeof output === 'string'
      ? { type: 'error-text', value: output }
      : { type: 'error-json', value: output };
  return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: output };
}

function userPartToNeutral(part: UserPart): NeutralUserPart {
  switch (part.type) {
    case 'text':
      return withMeta({ type: 'text', text: part.text }, part.providerOptions);
    case 'image': {
      const { data, kind } = dataToString(part.image);
      return withMeta(
        {
          type: 'image',
          image: data,
          ...(part.mediaType === undefined ? {} : { mediaType: part.mediaType }),
        },
        part.providerOptions,
        undefined,
        kind ? { data: kind } : undefined,
      );
    }
    case 'file':
      return fileToNeutral(part);
  }
}

function userPartToModel(part: NeutralUserPart): UserPart {
  const { options, extra } = splitMeta(part.providerMetadata);
  const base = options ? { providerOptions: options as never } : {};
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...base };
    case 'image':
      return {
        type: 'image',
        image: dataFromString(part.image, extra?.data),
        ...(part.mediaType === undefined ? {} : { mediaType: part.mediaType }),
        ...base,
      };
    case 'file':
      return fileToModel(part, options, extra);
  }
}

function assistantPartToNeutral(part: AssistantPart): NeutralAssistantPart | undefined {
  switch (part.type) {
    case 'text':
      return withMeta({ type: 'text' as const, text: part.text }, part.providerOptions);
    case 'reasoning':
      return withMeta({ type: 'reasoning' as const, text: part.text }, part.providerOptions);
    case 'file':
      return fileToNeutral(part);
    case 'tool-call':
      // A provider-executed call is the provider's business, not a call for the engine to settle.
      if (part.providerExecuted) return undefined;
      return withMeta(
        {
          type: 'tool-call' as const,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          args: toJson(part.input),
        },
        part.providerOptions,
        undefined,
        part.providerExecuted === false ? { providerExecuted: false } : undefined,
      );
    default:
      return undefined;
  }
}

function assistantPartToModel(part: NeutralAssistantPart): AssistantPart {
  const { options, extra } = splitMeta(part.providerMetadata);
  const base = options ? { providerOptions: options as never } : {};
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...base };
    case 'reasoning':
      return { type: 'reasoning', text: part.text, ...base };
    case 'file':
      return fileToModel(part, options, extra);
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.args,
        ...(extra?.providerExecuted === false ? { providerExecuted: false } : {}),
        ...base,
      };
  }
}

function fileToNeutral(part: Extract<UserPart, { type: 'file' }>) {
  const { data, kind } = dataToString(part.data);
  return withMeta(
    {
      type: 'file' as const,
      data,
      mediaType: part.mediaType,
      ...(part.filename === undefined ? {} : { filename: part.filename }),
    },
    part.providerOptions,
    undefined,
    kind ? { data: kind } : undefined,
  );
}

function fileToModel(
  part: Extract<NeutralUserPart, { type: 'file' }>,
  options: JsonObject | undefined,
  extra: JsonObject | undefined,
): Extract<UserPart, { type: 'file' }> {
  return {
    type: 'file',
    data: dataFromString(part.data, extra?.data),
    mediaType: part.mediaType,
    ...(part.filename === undefined ? {} : { filename: part.filename }),
    ...(options ? { providerOptions: options as never } : {}),
  };
}

function toolResultToNeutral(part: ModelToolResult): ToolResultPart {
  const { output, isError, rejected } = outputToNeutral(part.output);
  const { providerOptions: outputOptions, ...shape } = part.output as ToolResultOutput & {
    providerOptions?: unknown;
  };
  // Keep the output's own form whenever the default rule would not rebuild it exactly.
  const rebuilt = defaultOutput(output, isError, rejected);
  const exact = outputOptions === undefined && JSON.stringify(rebuilt) === JSON.stringify(shape);
  return withMeta(
    {
      type: 'tool-result',
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output,
      ...(isError ? { isError: true } : {}),
      ...(rejected ? { rejected: true as const } : {}),
    },
    part.providerOptions,
    undefined,
    exact ? undefined : { output: toJson(part.output) },
  );
}

function toolResultToModel(part: ToolResultPart): ModelToolResult {
  const { options, extra } = splitMeta(part.providerMetadata);
  const output =
    (extra?.output as ToolResultOutput | undefined) ??
    defaultOutput(part.output, part.isError === true, isRejected(part));
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output,
    ...(options ? { providerOptions: options as never } : {}),
  };
}
