/**
 * Responses API items to neutral messages and back. Each item's fields that the neutral format has
 * no place for (item ids, statuses, annotations, encrypted reasoning) ride in
 * `providerMetadata.openai`, so items survive the round trip unchanged.
 */
import type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  Message,
  ToolResultPart,
} from '@agent-continuations/core';
import type OpenAI from 'openai';
import { mediaTypeOf, openaiMeta, parseWireJson, printWireJson, withMeta } from './wire-json';

type Item = OpenAI.Responses.ResponseInputItem;
type UserParts = Exclude<Extract<Message, { role: 'user' }>['content'], string>;
type AssistantParts = Exclude<AssistantMessage['content'], string>;
type Loose = { [key: string]: any };

/**
 * Convert Responses API items (input items, or a response's `output`) to neutral messages. Items of
 * one model turn (reasoning, messages, function calls) become one assistant message; consecutive
 * function-call outputs become one tool message. Items with no neutral form (built-in tools'
 * calls, item references) are left out.
 *
 * @example
 * ```ts
 * const response = await client.responses.create({ model, input });
 * const [message] = fromResponsesItems(response.output);
 * ```
 */
export function fromResponsesItems(
  items: readonly (Item | OpenAI.Responses.ResponseOutputItem)[],
): Message[] {
  const result: Message[] = [];
  const toolNames = new Map<string, string>();
  const assistant = (): AssistantParts => {
    const last = result[result.length - 1];
    if (last?.role === 'assistant' && Array.isArray(last.content)) return last.content;
    const message: AssistantMessage = { role: 'assistant', content: [] };
    result.push(message);
    return message.content as AssistantParts;
  };
  for (const raw of items) {
    const item = raw as Loose;
    const type = item.type ?? 'message';
    if (type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      const { content, ...extra } = item;
      result.push({
        role: 'system',
        content: joinText(content),
        ...withMeta({ item: { ...extra, ...(Array.isArray(content) ? { content } : {}) } }),
      });
    } else if (type === 'message' && item.role === 'user') {
      const { content, ...extra } = item;
      result.push({
        role: 'user',
        content: typeof content === 'string' ? content : userParts(content),
        ...withMeta({ item: extra }),
      });
    } else if (type === 'message' && item.role === 'assistant') {
      const { content, ...extra } = item;
      const parts = assistant();
      if (typeof content === 'string')
        parts.push({ type: 'text', text: content, ...withMeta({ item: extra, easy: true }) });
      else {
        for (const part of content as Loose[]) {
          const { text, refusal, ...partExtra } = part;
          parts.push({
            type: 'text',
            text: text ?? refusal ?? '',
            ...withMeta({ item: extra, part: partExtra }),
          });
        }
      }
    } else if (type === 'reasoning') {
      const text = (item.summary as Loose[]).map((part) => part.text ?? '').join('\n');
      // Kept whole: the API wants a reasoning item back exactly as it sent it.
      assistant().push({ type: 'reasoning', text, ...withMeta({ item: item as JsonValue }) });
    } else if (type === 'function_call') {
      const { call_id, name, arguments: args, ...extra } = item;
      toolNames.set(call_id, name);
      const { value, raw } = parseWireJson(args, false);
      assistant().push({
        type: 'tool-call',
        toolCallId: call_id,
        toolName: name,
        args: value,
        ...withMeta({ raw, item: extra }),
      });
    } else if (type === 'function_call_output') {
      const { call_id, output, ...extra } = item;
      const parsed =
        typeof output === 'string' ? parseWireJson(output, true) : { value: output as JsonValue };
      const part: ToolResultPart = {
        type: 'tool-result',
        toolCallId: call_id,
        toolName: toolNames.get(call_id) ?? 'unknown',
        output: parsed.value,
        ...withMeta({ raw: parsed.raw, item: extra, list: Array.isArray(output) ? true : undefined }),
      };
      const last = result[result.length - 1];
      if (last?.role === 'tool') last.content.push(part);
      else result.push({ role: 'tool', content: [part] });
    }
  }
  return result;
}

/**
 * Convert neutral messages to Responses API input items.
 *
 * @example
 * ```ts
 * const response = await client.responses.create({ model, instructions, input: toResponsesItems(messages) });
 * ```
 */
export function toResponsesItems(messages: readonly Message[]): Item[] {
  const items: Loose[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      const extra = itemOf(message.providerMetadata);
      items.push({ role: 'system', content: message.content, ...extra });
    } else if (message.role === 'user') {
      const extra = itemOf(message.providerMetadata);
      const content =
        typeof message.content === 'string' ? message.content : message.content.map(toInputPart);
      items.push({ role: 'user', content, ...extra });
    } else if (message.role === 'assistant') {
      items.push(...assistantItems(message));
    } else {
      for (const part of message.content) {
        const meta = openaiMeta(part.providerMetadata);
        const output = meta.list === true ? part.output : printWireJson(part.output, meta.raw, true);
        items.push({
          type: 'function_call_output',
          call_id: part.toolCallId,
          output,
          ...itemOf(part.providerMetadata),
        });
      }
    }
  }
  return items as Item[];
}

function assistantItems(message: AssistantMessage): Loose[] {
  const parts: AssistantParts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const items: Loose[] = [];
  let open: { id: unknown; content: Loose[] } | undefined;
  for (const part of parts) {
    const meta = openaiMeta(part.providerMetadata);
    const item = itemOf(part.providerMetadata);
    if (part.type !== 'text') open = undefined;
    if (part.type === 'text') {
      if (meta.easy === true) {
        items.push({ role: 'assistant', content: part.text, ...item });
        open = undefined;
        continue;
      }
      const partExtra = (meta.part ?? { type: 'output_text', annotations: [] }) as Loose;
      const wirePart =
        partExtra.type === 'refusal'
          ? { ...partExtra, refusal: part.text }
          : { ...partExtra, text: part.text };
      // Parts of one output message share its id; a text part from elsewhere starts its own message.
      if (open && item.id !== undefined && open.id === item.id) open.content.push(wirePart);
      else {
        const id = item.id;
        const wire = {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          ...item,
          content: [wirePart],
        };
        if (id === undefined) delete (wire as Loose).id;
        items.push(wire);
        open = { id, content: wire.content };
      }
    } else if (part.type === 'reasoning') {
      // A reasoning item without its id (from another framework) cannot go back to the API.
      if (meta.item && typeof meta.item === 'object') items.push(meta.item as Loose);
    } else if (part.type === 'tool-call') {
      items.push({
        type: 'function_call',
        call_id: part.toolCallId,
        name: part.toolName,
        arguments: printWireJson(part.args, meta.raw, false),
        ...item,
      });
    }
  }
  return items;
}

function userParts(content: Loose[]): UserParts {
  const parts: UserParts = [];
  for (const part of content) {
    const { type, text, image_url, file_data, file_url, filename, ...extra } = part;
    if (type === 'input_text') parts.push({ type: 'text', text, ...withMeta({ part: extra }) });
    else if (type === 'input_image') {
      const mediaType = mediaTypeOf(image_url ?? '');
      const part = { ...extra, ...(image_url === null ? { image_url: null } : {}) };
      parts.push({ type: 'image', image: image_url ?? '', ...mediaType, ...withMeta({ part }) });
    } else if (type === 'input_file') {
      const data = file_data ?? file_url ?? '';
      parts.push({
        type: 'file',
        data,
        mediaType: mediaTypeOf(data).mediaType ?? 'application/octet-stream',
        ...(filename === undefined ? {} : { filename }),
        ...withMeta({ part: extra, url: file_url === undefined ? undefined : true }),
      });
    }
  }
  return parts;
}

function toInputPart(part: UserParts[number]): Loose {
  const meta = openaiMeta(part.providerMetadata);
  const extra = (meta.part ?? {}) as Loose;
  if (part.type === 'text') return { type: 'input_text', text: part.text, ...extra };
  if (part.type === 'image') {
    const url =
      /^(https?:|data:)/.test(part.image) || !part.mediaType
        ? part.image
        : `data:${part.mediaType};base64,${part.image}`;
    // An image sent by file id has no URL: nothing to add then.
    return { type: 'input_image', detail: 'auto', ...(part.image ? { image_url: url } : {}), ...extra };
  }
  const file: Loose = { type: 'input_file', ...extra };
  if (meta.url === true) file.file_url = part.data;
  else if (part.data)
    file.file_data = part.data.startsWith('data:') ? part.data : `data:${part.mediaType};base64,${part.data}`;
  if (part.filename !== undefined) file.filename = part.filename;
  return file;
}

function itemOf(providerMetadata: JsonObject | undefined): Loose {
  const item = openaiMeta(providerMetadata).item;
  return item && typeof item === 'object' && !Array.isArray(item) ? { ...(item as Loose) } : {};
}

function joinText(content: unknown): string {
  if (typeof content === 'string') return content;
  return ((content as Loose[]) ?? []).map((part) => part.text ?? '').join('');
}
