/**
 * Chat Completions messages to neutral messages and back. What the neutral format has no field
 * for (roles such as `developer`, names, refusals, image detail, raw argument text) rides in
 * `providerMetadata.openai`, so a chat transcript survives the round trip unchanged.
 */
import type {
  AssistantMessage,
  FilePart,
  ImagePart,
  JsonValue,
  Message,
  TextPart,
  ToolResultPart,
} from '@agent-continuations/core';
import type OpenAI from 'openai';
import { mediaTypeOf, openaiMeta, parseWireJson, printWireJson, withMeta } from './wire-json';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type UserParts = Exclude<Extract<Message, { role: 'user' }>['content'], string>;
type AssistantParts = Exclude<AssistantMessage['content'], string>;

/**
 * Convert chat messages (e.g. an existing loop's history) to neutral messages. Consecutive `tool`
 * messages become one neutral tool message, as one model turn's results.
 *
 * @example
 * ```ts
 * const messages = fromChatMessages(history);
 * const result = await agent.run(messages);
 * ```
 */
export function fromChatMessages(messages: readonly ChatMessage[]): Message[] {
  const result: Message[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      const meta = {
        role: message.role === 'developer' ? 'developer' : undefined,
        name: message.name,
        ...textShape(message.content),
      };
      result.push({ role: 'system', content: joinText(message.content), ...withMeta(meta) });
    } else if (message.role === 'user') {
      result.push({
        role: 'user',
        content: userContent(message.content),
        ...withMeta({ name: message.name }),
      });
    } else if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? [])
        if (call.type === 'function') toolNames.set(call.id, call.function.name);
      result.push(fromChatAssistant(message));
    } else if (message.role === 'tool') {
      const text = joinText(message.content);
      const { value, raw } = parseWireJson(text, true);
      const part: ToolResultPart = {
        type: 'tool-result',
        toolCallId: message.tool_call_id,
        toolName: toolNames.get(message.tool_call_id) ?? 'unknown',
        output: value,
        ...withMeta({ raw, ...textShape(message.content) }),
      };
      const last = result[result.length - 1];
      if (last?.role === 'tool') last.content.push(part);
      else result.push({ role: 'tool', content: [part] });
    }
    // Legacy `function` messages predate tool calls and have no tool-call id to pair with.
  }
  return result;
}

/**
 * Convert an assistant message from a completion (or a chat history) to a neutral one.
 *
 * @example
 * ```ts
 * const completion = await client.chat.completions.create({ model, messages });
 * const message = fromChatAssistant(completion.choices[0].message);
 * ```
 */
export function fromChatAssistant(
  message: OpenAI.Chat.ChatCompletionAssistantMessageParam | OpenAI.Chat.ChatCompletionMessage,
): AssistantMessage {
  const parts: AssistantParts = [];
  const reasoning = (message as { reasoning_content?: unknown }).reasoning_content;
  // OpenAI-compatible servers (vLLM, DeepSeek and others) send reasoning as `reasoning_content`.
  if (typeof reasoning === 'string')
    parts.push({ type: 'reasoning', text: reasoning, ...withMeta({ field: 'reasoning_content' }) });
  const content = message.content;
  if (typeof content === 'string') parts.push({ type: 'text', text: content });
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === 'text') parts.push({ type: 'text', text: part.text, ...withMeta({ part: true }) });
      else parts.push({ type: 'text', text: part.refusal, ...withMeta({ refusal: true, part: true }) });
    }
  }
  if (typeof message.refusal === 'string')
    parts.push({ type: 'text', text: message.refusal, ...withMeta({ refusal: true }) });
  for (const call of message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const { value, raw } = parseWireJson(call.function.arguments, false);
    parts.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.function.name,
      args: value,
      ...withMeta({ raw }),
    });
  }
  const meta = {
    name: 'name' in message ? message.name : undefined,
    // How the content was absent, where printing back would not guess it: with tool calls it is
    // `null`, without them `''`. A `refusal: null` says nothing and is not kept.
    content:
      content === undefined ? 'absent' : content === null && !message.tool_calls?.length ? 'null' : undefined,
    audio: message.audio ? (message.audio as unknown as JsonValue) : undefined,
    // Citations are kept for the reader; the API takes no annotations back.
    annotations:
      'annotations' in message && message.annotations?.length
        ? (message.annotations as unknown as JsonValue)
        : undefined,
  };
  return { role: 'assistant', content: parts, ...withMeta(meta) };
}

/**
 * Convert neutral messages to chat messages, with the instructions as a leading system message.
 *
 * @example
 * ```ts
 * const messages = toChatMessages(continuation.messages, 'You help with bank accounts.');
 * ```
 */
export function toChatMessages(messages: readonly Message[], instructions?: string): ChatMessage[] {
  const result: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
  for (const message of messages) {
    const meta = openaiMeta(message.providerMetadata);
    const name = typeof meta.name === 'string' ? { name: meta.name } : {};
    if (message.role === 'system') {
      const content =
        meta.textShape === 'parts' ? [{ type: 'text' as const, text: message.content }] : message.content;
      result.push({ role: meta.role === 'developer' ? 'developer' : 'system', content, ...name });
    } else if (message.role === 'user') {
      const content =
        typeof message.content === 'string' ? message.content : message.content.map(toChatUserPart);
      result.push({ role: 'user', content, ...name });
    } else if (message.role === 'assistant') {
      result.push(toChatAssistant(message));
    } else {
      for (const part of message.content) {
        const partMeta = openaiMeta(part.providerMetadata);
        const text = printWireJson(part.output, partMeta.raw, true);
        const content = partMeta.textShape === 'parts' ? [{ type: 'text' as const, text }] : text;
        result.push({ role: 'tool', tool_call_id: part.toolCallId, content });
      }
    }
  }
  return result;
}

function toChatAssistant(message: AssistantMessage): OpenAI.Chat.ChatCompletionAssistantMessageParam {
  const meta = openaiMeta(message.providerMetadata);
  const parts: AssistantParts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const texts: TextPart[] = [];
  const contentParts: OpenAI.Chat.ChatCompletionAssistantMessageParam['content'] & unknown[] = [];
  const refusals: string[] = [];
  const reasoning: string[] = [];
  const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of parts) {
    const partMeta = openaiMeta(part.providerMetadata);
    if (part.type === 'text' && partMeta.part === true) {
      contentParts.push(
        partMeta.refusal ? { type: 'refusal', refusal: part.text } : { type: 'text', text: part.text },
      );
    } else if (part.type === 'text' && partMeta.refusal === true) refusals.push(part.text);
    else if (part.type === 'text') texts.push(part);
    // Only chat-borne reasoning goes back on the wire: OpenAI itself refuses unknown message fields.
    else if (part.type === 'reasoning' && partMeta.field === 'reasoning_content') reasoning.push(part.text);
    else if (part.type === 'tool-call') {
      const args = printWireJson(part.args, partMeta.raw, false);
      calls.push({
        id: part.toolCallId,
        type: 'function',
        function: { name: part.toolName, arguments: args },
      });
    }
  }
  const result: OpenAI.Chat.ChatCompletionAssistantMessageParam & { reasoning_content?: string } = {
    role: 'assistant',
  };
  if (reasoning.length > 0) result.reasoning_content = reasoning.join('');
  if (contentParts.length > 0) result.content = contentParts;
  else if (texts.length > 0) result.content = texts.map((part) => part.text).join('');
  else if (meta.content === 'null' || (meta.content !== 'absent' && calls.length > 0)) result.content = null;
  else if (meta.content !== 'absent') result.content = '';
  if (refusals.length > 0) result.refusal = refusals.join('');
  if (calls.length > 0) result.tool_calls = calls;
  if (typeof meta.name === 'string') result.name = meta.name;
  if (meta.audio)
    result.audio = meta.audio as unknown as OpenAI.Chat.ChatCompletionAssistantMessageParam.Audio;
  return result;
}

function userContent(
  content: OpenAI.Chat.ChatCompletionUserMessageParam['content'],
): Extract<Message, { role: 'user' }>['content'] {
  if (typeof content === 'string') return content;
  const parts: UserParts = [];
  for (const part of content) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'image_url') {
      parts.push({
        type: 'image',
        image: part.image_url.url,
        ...mediaTypeOf(part.image_url.url),
        ...withMeta({ detail: part.image_url.detail }),
      });
    } else if (part.type === 'input_audio') {
      parts.push({
        type: 'file',
        data: part.input_audio.data,
        mediaType: `audio/${part.input_audio.format}`,
      });
    } else if (part.type === 'file') {
      const file: FilePart = {
        type: 'file',
        data: part.file.file_data ?? '',
        mediaType: mediaTypeOf(part.file.file_data ?? '').mediaType ?? 'application/octet-stream',
        ...withMeta({ fileId: part.file.file_id, chatFile: true }),
      };
      if (part.file.filename !== undefined) file.filename = part.file.filename;
      parts.push(file);
    }
  }
  return parts;
}

function toChatUserPart(part: UserParts[number]): OpenAI.Chat.ChatCompletionContentPart {
  const meta = openaiMeta(part.providerMetadata);
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image') {
    const detail =
      meta.detail === 'auto' || meta.detail === 'low' || meta.detail === 'high'
        ? { detail: meta.detail as 'auto' | 'low' | 'high' }
        : {};
    return { type: 'image_url', image_url: { url: asDataUrl(part), ...detail } };
  }
  if (part.mediaType.startsWith('audio/') && meta.chatFile !== true) {
    const format = part.mediaType === 'audio/mpeg' ? 'mp3' : part.mediaType.slice('audio/'.length);
    return {
      type: 'input_audio',
      input_audio: { data: part.data, format: format === 'mp3' ? 'mp3' : 'wav' },
    };
  }
  const file: OpenAI.Chat.ChatCompletionContentPart.File['file'] = {};
  if (part.data)
    file.file_data =
      part.data.startsWith('data:') || meta.chatFile
        ? part.data
        : `data:${part.mediaType};base64,${part.data}`;
  if (typeof meta.fileId === 'string') file.file_id = meta.fileId;
  if (part.filename !== undefined) file.filename = part.filename;
  return { type: 'file', file };
}

/** An image as the wire wants it: URLs as they are, bare base64 as a data URL. */
function asDataUrl(part: ImagePart): string {
  if (/^(https?:|data:)/.test(part.image) || !part.mediaType) return part.image;
  return `data:${part.mediaType};base64,${part.image}`;
}

function joinText(content: string | readonly { type: string; text?: string }[] | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

function textShape(content: unknown): { textShape?: string } {
  return Array.isArray(content) ? { textShape: 'parts' } : {};
}
