/**
 * Conversion between LangChain messages and the neutral messages of the core. What a LangChain
 * message carries beyond the neutral shape (its id, its name) rides in `providerMetadata.langchain`,
 * so a round trip gives the same message back.
 */
import type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  Message,
  ToolMessage as NeutralToolMessage,
  ToolResultPart,
  UserMessage,
} from '@agent-continuations/core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';

/** Marks a tool message whose neutral output was JSON rather than a string. */
const JSON_OUTPUT = 'ac_output_json';
/** Provider extras of content parts, aligned with the content blocks. */
const PART_METADATA = 'ac_part_metadata';
/** Provider extras of tool calls, by tool-call id. */
const CALL_METADATA = 'ac_tool_call_metadata';
/** An assistant message whose only text part became string content next to its tool calls. */
const TEXT_PART = 'ac_text_part';

type Block = Record<string, unknown>;

/**
 * Neutral messages to LangChain messages. A tool message with several results becomes one
 * `ToolMessage` per result, as LangChain expects.
 *
 * @example
 * ```ts
 * const lc = toLangChainMessages([{ role: 'user', content: 'Restart web-1' }]);
 * await graph.invoke({ messages: lc });
 * ```
 */
export function toLangChainMessages(messages: readonly Message[]): BaseMessage[] {
  return messages.flatMap((message) => toLangChain(message));
}

/**
 * LangChain messages to neutral messages. Consecutive `ToolMessage`s become one neutral tool
 * message; a tool result whose text is a JSON object or array is parsed back into JSON.
 *
 * @example
 * ```ts
 * const state = await graph.invoke({ messages });
 * const neutral = fromLangChainMessages(state.messages);
 * ```
 */
export function fromLangChainMessages(messages: readonly BaseMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const neutral = fromLangChain(message);
    const last = out[out.length - 1];
    if (neutral.role === 'tool' && last?.role === 'tool') {
      last.content.push(...neutral.content);
    } else out.push(neutral);
  }
  return out;
}

/** The neutral messages of a graph state's messages channel. */
export function neutralMessages(values: Record<string, unknown>, messagesKey: string): Message[] {
  return fromLangChainMessages((values[messagesKey] ?? []) as BaseMessage[]);
}

/** One neutral tool result as the LangChain `ToolMessage` a tool node would have written. */
export function toolResultMessage(part: ToolResultPart): ToolMessage {
  const isString = typeof part.output === 'string';
  return new ToolMessage({
    content: isString ? (part.output as string) : JSON.stringify(part.output),
    tool_call_id: part.toolCallId,
    name: part.toolName,
    status: part.isError ? 'error' : 'success',
    additional_kwargs: { [JSON_OUTPUT]: !isString },
  });
}

/** A LangChain `ToolMessage` as a neutral tool result. */
export function toolResultPart(message: ToolMessage): ToolResultPart {
  const flag = message.additional_kwargs?.[JSON_OUTPUT];
  const text = textContent(message.content);
  let output: JsonValue = text;
  if (flag === true || (flag === undefined && /^\s*[[{]/.test(text))) {
    try {
      output = JSON.parse(text) as JsonValue;
    } catch {
      output = text;
    }
  }
  const part: ToolResultPart = {
    type: 'tool-result',
    toolCallId: message.tool_call_id,
    toolName: message.name ?? 'unknown',
    output,
  };
  if (message.status === 'error') part.isError = true;
  return part;
}

function toLangChain(message: Message): BaseMessage[] {
  const extra = langchainExtras(message.providerMetadata);
  switch (message.role) {
    case 'system':
      return [new SystemMessage({ content: message.content, ...extra })];
    case 'user':
      return [
        new HumanMessage({ ...userContent(message), ...extra } as ConstructorParameters<
          typeof HumanMessage
        >[0]),
      ];
    case 'assistant':
      return [assistantToLangChain(message, extra)];
    case 'tool':
      return message.content.map((part) => {
        const tool = toolResultMessage(part);
        const id = langchainExtras(part.providerMetadata).id;
        if (id) tool.id = id;
        return tool;
      });
  }
}

function userContent(message: UserMessage): {
  content: string | Block[];
  additional_kwargs?: Record<string, unknown>;
} {
  if (typeof message.content === 'string') return { content: message.content };
  const blocks = message.content.map((part): Block => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image') {
      return isUrl(part.image)
        ? { type: 'image', url: part.image, ...(part.mediaType ? { mimeType: part.mediaType } : {}) }
        : { type: 'image', data: part.image, mimeType: part.mediaType ?? 'image/png' };
    }
    const file = {
      type: 'file',
      mimeType: part.mediaType,
      ...(part.filename ? { filename: part.filename } : {}),
    };
    return isUrl(part.data) ? { ...file, url: part.data } : { ...file, data: part.data };
  });
  return { content: blocks, ...partMetadata(message.content) };
}

/**
 * Provider extras of content parts ride in `additional_kwargs` (which chat models do not send),
 * aligned with the content blocks, never inside the blocks themselves.
 */
function partMetadata(parts: ReadonlyArray<{ providerMetadata?: JsonObject | undefined }>): {
  additional_kwargs?: Record<string, unknown>;
} {
  if (!parts.some((part) => part.providerMetadata)) return {};
  return { additional_kwargs: { [PART_METADATA]: parts.map((part) => part.providerMetadata ?? null) } };
}

function metadataAt(message: BaseMessage, index: number): { providerMetadata?: JsonObject } {
  const list = message.additional_kwargs?.[PART_METADATA];
  const meta = Array.isArray(list) ? (list[index] as JsonObject | null | undefined) : undefined;
  return meta ? { providerMetadata: meta } : {};
}

function assistantToLangChain(message: AssistantMessage, extra: { id?: string; name?: string }): AIMessage {
  if (typeof message.content === 'string') return new AIMessage({ content: message.content, ...extra });
  const blocks: Block[] = [];
  const blockParts: Array<{ providerMetadata?: JsonObject | undefined }> = [];
  const toolCalls: Array<{ id: string; name: string; args: Record<string, unknown>; type: 'tool_call' }> = [];
  const callMetadata: Record<string, JsonObject> = {};
  for (const part of message.content) {
    if (part.type === 'tool-call') {
      toolCalls.push({
        id: part.toolCallId,
        name: part.toolName,
        args: part.args as Record<string, unknown>,
        type: 'tool_call',
      });
      if (part.providerMetadata) callMetadata[part.toolCallId] = part.providerMetadata;
      continue;
    }
    if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
    else if (part.type === 'reasoning') blocks.push({ type: 'reasoning', reasoning: part.text });
    else blocks.push({ type: 'file', data: part.data, mimeType: part.mediaType });
    blockParts.push(part);
  }
  const additional: Record<string, unknown> = { ...partMetadata(blockParts).additional_kwargs };
  if (Object.keys(callMetadata).length > 0) additional[CALL_METADATA] = callMetadata;
  const onlyText = blocks.length === 1 && blocks[0]!.type === 'text' && toolCalls.length > 0;
  if (onlyText) additional[TEXT_PART] = true;
  return new AIMessage({
    content: onlyText ? (blocks[0]!.text as string) : (blocks as AIMessage['content']),
    tool_calls: toolCalls,
    additional_kwargs: additional,
    // Standard content blocks: chat models send the text and drop what their provider cannot take (reasoning).
    ...(onlyText ? {} : { response_metadata: { output_version: 'v1' } }),
    ...extra,
  });
}

function fromLangChain(message: BaseMessage): Message {
  const type = message.getType();
  const providerMetadata = extrasOf(message);
  const withMeta = <M extends Message>(value: M): M =>
    providerMetadata ? { ...value, providerMetadata } : value;
  if (type === 'system') return withMeta({ role: 'system', content: textContent(message.content) });
  if (type === 'tool') {
    // The id rides on the result, so that consecutive results still merge into one tool message.
    const part = toolResultPart(message as ToolMessage);
    return {
      role: 'tool',
      content: [providerMetadata ? { ...part, providerMetadata } : part],
    } as NeutralToolMessage;
  }
  if (type === 'ai') return withMeta(assistantFromLangChain(message as AIMessage));
  return withMeta({ role: 'user', content: userFromLangChain(message) });
}

function assistantFromLangChain(message: AIMessage): AssistantMessage {
  const calls = message.tool_calls ?? [];
  const callMeta = (message.additional_kwargs?.[CALL_METADATA] ?? {}) as Record<string, JsonObject>;
  const withCalls = (content: Exclude<AssistantMessage['content'], string>): AssistantMessage => {
    for (const call of calls) content.push(toolCallPart(call, call.id ? callMeta[call.id] : undefined));
    return { role: 'assistant', content };
  };
  if (typeof message.content === 'string') {
    if (calls.length === 0) return { role: 'assistant', content: message.content };
    const text = message.content !== '' || message.additional_kwargs?.[TEXT_PART];
    return withCalls(text ? [{ type: 'text', text: message.content, ...metadataAt(message, 0) }] : []);
  }
  const content: Exclude<AssistantMessage['content'], string> = [];
  (message.content as Block[]).forEach((raw, index) => {
    const meta = metadataAt(message, index);
    if (raw.type === 'text') content.push({ type: 'text', text: String(raw.text ?? ''), ...meta });
    else if (raw.type === 'reasoning')
      content.push({ type: 'reasoning', text: String(raw.reasoning ?? ''), ...meta });
    else if (raw.type === 'thinking') content.push({ type: 'reasoning', text: String(raw.thinking ?? '') });
    else if (raw.type === 'file' && typeof raw.data === 'string') {
      content.push({
        type: 'file',
        data: raw.data,
        mediaType: String(raw.mimeType ?? 'application/octet-stream'),
        ...meta,
      });
    }
  });
  return withCalls(content);
}

function toolCallPart(call: { id?: string; name: string; args: unknown }, meta: JsonObject | undefined) {
  return {
    type: 'tool-call' as const,
    toolCallId: call.id ?? `${call.name}_call`,
    toolName: call.name,
    args: (call.args ?? {}) as JsonValue,
    ...(meta ? { providerMetadata: meta } : {}),
  };
}

function userFromLangChain(message: BaseMessage): UserMessage['content'] {
  const content = message.content;
  if (typeof content === 'string') return content;
  const parts: Exclude<UserMessage['content'], string> = [];
  (content as Block[]).forEach((raw, index) => {
    const meta = metadataAt(message, index);
    const mediaType = typeof raw.mimeType === 'string' ? raw.mimeType : undefined;
    if (raw.type === 'text') parts.push({ type: 'text', text: String(raw.text ?? ''), ...meta });
    else if (raw.type === 'image_url') {
      const url =
        typeof raw.image_url === 'string' ? raw.image_url : String((raw.image_url as Block)?.url ?? '');
      parts.push({ type: 'image', image: url, ...meta });
    } else if (raw.type === 'image') {
      parts.push({
        type: 'image',
        image: String(raw.url ?? raw.data ?? ''),
        ...(mediaType ? { mediaType } : {}),
        ...meta,
      });
    } else if (raw.type === 'file') {
      parts.push({
        type: 'file',
        data: String(raw.url ?? raw.data ?? ''),
        mediaType: mediaType ?? 'application/octet-stream',
        ...(typeof raw.filename === 'string' ? { filename: raw.filename } : {}),
        ...meta,
      });
    }
  });
  return parts;
}

/** The text of LangChain content: the string, or its text blocks joined. */
export function textContent(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content as Block[])
    .filter((block) => block.type === 'text')
    .map((block) => String(block.text ?? ''))
    .join('');
}

function extrasOf(message: BaseMessage): JsonObject | undefined {
  const langchain: JsonObject = {};
  if (message.id) langchain.id = message.id;
  if (message.name && message.getType() !== 'tool') langchain.name = message.name;
  return Object.keys(langchain).length > 0 ? { langchain } : undefined;
}

function langchainExtras(meta: JsonObject | undefined): { id?: string; name?: string } {
  const langchain = meta?.langchain;
  if (!langchain || typeof langchain !== 'object' || Array.isArray(langchain)) return {};
  const out: { id?: string; name?: string } = {};
  if (typeof langchain.id === 'string') out.id = langchain.id;
  if (typeof langchain.name === 'string') out.name = langchain.name;
  return out;
}

function isUrl(value: string): boolean {
  return /^(https?:|data:)/.test(value);
}
