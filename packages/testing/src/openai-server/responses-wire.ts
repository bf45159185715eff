/**
 * The Responses API wire format of the scripted OpenAI server: input items to the neutral model
 * request a script sees, and a neutral reply to output items, a response object, or its events.
 */
import type {
  AssistantMessage,
  Message,
  ModelRequest,
  ModelResponse,
  ToolSpec,
  Usage,
} from '@agent-continuations/core';
import { appendToolResult, parseArguments } from './chat-wire';
import { replyParts, splitWords, type WireOptions } from './wire-common';

/** A responses request body as it arrives. */
export interface ResponsesRequestBody {
  model?: string;
  input?: string | any[];
  instructions?: string | null;
  previous_response_id?: string | null;
  tools?: any[];
  stream?: boolean;
}

/** Turn a responses request into the neutral request a script decides from. */
export function responsesRequestToModelRequest(
  body: ResponsesRequestBody,
  /** Items the server sent earlier, by id, to resolve `item_reference` inputs. */
  known: ReadonlyMap<string, any>,
  /** The items of an earlier response's conversation, when the request continues it by `previous_response_id`. */
  earlier: readonly any[] = [],
): ModelRequest {
  const instructions: string[] = body.instructions ? [body.instructions] : [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  const items = [...earlier, ...input];
  let leading = true;
  // Reasoning, text and function calls of one model turn arrive as separate items: one assistant message.
  const assistant = (): Exclude<AssistantMessage['content'], string> => {
    const last = messages[messages.length - 1];
    if (last?.role === 'assistant' && Array.isArray(last.content)) return last.content;
    const fresh: AssistantMessage = { role: 'assistant', content: [] };
    messages.push(fresh);
    return fresh.content as Exclude<AssistantMessage['content'], string>;
  };
  for (const raw of items) {
    const item = raw?.type === 'item_reference' ? known.get(String(raw.id)) : raw;
    if (!item) continue;
    const type = item.type ?? 'message';
    if (type === 'message' && (item.role === 'system' || item.role === 'developer')) {
      if (leading) instructions.push(inputText(item.content));
      else messages.push({ role: 'system', content: inputText(item.content) });
      continue;
    }
    leading = false;
    if (type === 'message' && item.role === 'user') messages.push(userMessage(item.content));
    else if (type === 'message' && item.role === 'assistant') {
      const text = inputText(item.content);
      if (text) assistant().push({ type: 'text', text });
    } else if (type === 'reasoning') {
      const text = (item.summary ?? []).map((part: any) => part?.text ?? '').join('');
      assistant().push({ type: 'reasoning', text });
    } else if (type === 'function_call') {
      toolNames.set(String(item.call_id), String(item.name));
      assistant().push({
        type: 'tool-call',
        toolCallId: String(item.call_id),
        toolName: String(item.name),
        args: parseArguments(item.arguments),
      });
    } else if (type === 'function_call_output') {
      const id = String(item.call_id);
      const output = typeof item.output === 'string' ? parseArguments(item.output) : inputText(item.output);
      appendToolResult(messages, {
        type: 'tool-result',
        toolCallId: id,
        toolName: toolNames.get(id) ?? 'unknown',
        output,
      });
    }
  }
  const tools: ToolSpec[] = (body.tools ?? [])
    .filter((tool) => tool?.type === 'function' && tool.name)
    .map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.parameters ?? { type: 'object', properties: {} },
    }));
  return {
    ...(instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {}),
    messages,
    tools,
    step: messages.filter((message) => message.role === 'assistant').length,
  };
}

/** The output items of a reply; `nextId` makes item ids. */
export function outputItems(
  response: ModelResponse,
  nextId: (prefix: string) => string,
  options: WireOptions,
): any[] {
  const parts = replyParts(response.message, options);
  const items: any[] = [];
  if (parts.reasoning) {
    items.push({
      type: 'reasoning',
      id: nextId('rs'),
      summary: [{ type: 'summary_text', text: parts.reasoning }],
    });
  }
  if (parts.text) {
    items.push({
      type: 'message',
      id: nextId('msg'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: parts.text, annotations: [], logprobs: [] }],
    });
  }
  for (const call of parts.calls) {
    items.push({
      type: 'function_call',
      id: nextId('fc'),
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    });
  }
  return items;
}

/** A whole `response` object. */
export function responseObject(
  id: string,
  body: ResponsesRequestBody,
  output: any[],
  usage: Partial<Usage> | undefined,
  status: 'in_progress' | 'completed',
): object {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: null,
    model: body.model ?? 'scripted',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: status === 'completed' ? responsesUsage(usage) : null,
    metadata: {},
  };
}

/** The events of a streamed response, in order, each with its `type` and `sequence_number`. */
export function responseEvents(
  id: string,
  body: ResponsesRequestBody,
  output: any[],
  usage: Partial<Usage> | undefined,
): any[] {
  const events: any[] = [];
  const emit = (event: object) => events.push({ ...event, sequence_number: events.length });
  emit({ type: 'response.created', response: responseObject(id, body, [], undefined, 'in_progress') });
  emit({ type: 'response.in_progress', response: responseObject(id, body, [], undefined, 'in_progress') });
  output.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    if (item.type === 'message') {
      const text: string = item.content[0].text;
      emit({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const empty = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      emit({ type: 'response.content_part.added', ...at, content_index: 0, part: empty });
      for (const delta of splitWords(text)) {
        emit({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] });
      }
      emit({ type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] });
      emit({ type: 'response.content_part.done', ...at, content_index: 0, part: item.content[0] });
    } else if (item.type === 'reasoning') {
      const text: string = item.summary[0].text;
      emit({ type: 'response.output_item.added', output_index, item: { ...item, summary: [] } });
      emit({
        type: 'response.reasoning_summary_part.added',
        ...at,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const delta of splitWords(text))
        emit({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta });
      emit({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text });
      emit({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: item.summary[0] });
    } else if (item.type === 'function_call') {
      emit({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      const args: string = item.arguments;
      const middle = Math.ceil(args.length / 2);
      for (const delta of [args.slice(0, middle), args.slice(middle)]) {
        if (delta) emit({ type: 'response.function_call_arguments.delta', ...at, delta });
      }
      emit({ type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: args });
    }
    emit({ type: 'response.output_item.done', output_index, item });
  });
  emit({ type: 'response.completed', response: responseObject(id, body, output, usage, 'completed') });
  return events;
}

function responsesUsage(usage: Partial<Usage> | undefined): object {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage?.totalTokens ?? input + output,
  };
}

function inputText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part?.text === 'string' ? part.text : typeof part?.refusal === 'string' ? part.refusal : '',
    )
    .join('');
}

function userMessage(content: unknown): Message {
  if (typeof content === 'string') return { role: 'user', content };
  const parts: Exclude<Extract<Message, { role: 'user' }>['content'], string> = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (part?.type === 'input_text') parts.push({ type: 'text', text: String(part.text ?? '') });
    else if (part?.type === 'input_image')
      parts.push({ type: 'image', image: String(part.image_url ?? part.file_id ?? '') });
    else if (part?.type === 'input_file') {
      parts.push({
        type: 'file',
        data: String(part.file_data ?? part.file_url ?? part.file_id ?? ''),
        mediaType: 'application/octet-stream',
        ...(part.filename ? { filename: String(part.filename) } : {}),
      });
    }
  }
  return { role: 'user', content: parts };
}
