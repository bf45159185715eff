/**
 * The Chat Completions wire format of the scripted OpenAI server: a request body to the neutral
 * model request a script sees, and a neutral reply to a completion or a stream of chunks.
 */
import type {
  AssistantMessage,
  JsonValue,
  Message,
  ModelRequest,
  ModelResponse,
  ToolResultPart,
  ToolSpec,
  Usage,
} from '@agent-continuations/core';
import { type ReplyParts, replyParts, splitWords, type WireOptions } from './wire-common';

/** A chat request body as it arrives (loosely typed: any client may send it). */
export interface ChatRequestBody {
  model?: string;
  messages?: any[];
  tools?: any[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

/** Turn a chat request into the neutral request a script decides from. */
export function chatRequestToModelRequest(body: ChatRequestBody): ModelRequest {
  const wire = Array.isArray(body.messages) ? body.messages : [];
  const instructions: string[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  let leading = true;
  for (const message of wire) {
    const role = message?.role;
    if ((role === 'system' || role === 'developer') && leading) {
      instructions.push(contentText(message.content));
      continue;
    }
    leading = false;
    if (role === 'system' || role === 'developer')
      messages.push({ role: 'system', content: contentText(message.content) });
    else if (role === 'user') messages.push(userMessage(message.content));
    else if (role === 'assistant') messages.push(assistantMessage(message, toolNames));
    else if (role === 'tool') appendToolResult(messages, toolResult(message, toolNames));
  }
  const tools: ToolSpec[] = (body.tools ?? [])
    .filter((tool) => tool?.type === 'function' && tool.function?.name)
    .map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      inputSchema: tool.function.parameters ?? { type: 'object', properties: {} },
    }));
  return {
    ...(instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {}),
    messages,
    tools,
    step: messages.filter((message) => message.role === 'assistant').length,
  };
}

/** A whole `chat.completion` object for a reply. */
export function chatCompletion(
  response: ModelResponse,
  model: string,
  id: string,
  options: WireOptions,
): object {
  const parts = replyParts(response.message, options);
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: parts.text.length > 0 || parts.calls.length === 0 ? parts.text : null,
          refusal: null,
          annotations: [],
          ...(parts.reasoning ? { reasoning_content: parts.reasoning } : {}),
          ...(parts.calls.length > 0
            ? {
                tool_calls: parts.calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason(parts),
      },
    ],
    usage: chatUsage(response.usage),
  };
}

/** The chunks of a streamed reply, in order (without the final `[DONE]`). */
export function chatChunks(
  response: ModelResponse,
  model: string,
  id: string,
  options: WireOptions & { includeUsage: boolean },
): object[] {
  const parts = replyParts(response.message, options);
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: object[], extra: object = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: null,
    choices,
    ...extra,
  });
  const delta = (value: object, finish: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finish }]);
  const chunks: object[] = [delta({ role: 'assistant', content: '', refusal: null })];
  if (parts.reasoning)
    for (const piece of splitWords(parts.reasoning)) chunks.push(delta({ reasoning_content: piece }));
  for (const piece of splitWords(parts.text)) chunks.push(delta({ content: piece }));
  parts.calls.forEach((call, index) => {
    chunks.push(
      delta({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    // Arguments arrive in pieces on the real wire; clients must join them.
    const middle = Math.ceil(call.arguments.length / 2);
    for (const piece of [call.arguments.slice(0, middle), call.arguments.slice(middle)]) {
      if (piece) chunks.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(delta({}, finishReason(parts)));
  if (options.includeUsage) chunks.push(chunk([], { usage: chatUsage(response.usage) }));
  return chunks;
}

function finishReason(parts: ReplyParts): string {
  return parts.calls.length > 0 ? 'tool_calls' : 'stop';
}

function chatUsage(usage: Partial<Usage> | undefined): object {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage?.totalTokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : (part?.refusal ?? ''))).join('');
}

function userMessage(content: unknown): Message {
  if (typeof content === 'string') return { role: 'user', content };
  const parts: Exclude<Extract<Message, { role: 'user' }>['content'], string> = [];
  for (const part of Array.isArray(content) ? content : []) {
    if (part?.type === 'text') parts.push({ type: 'text', text: String(part.text ?? '') });
    else if (part?.type === 'image_url')
      parts.push({ type: 'image', image: String(part.image_url?.url ?? '') });
    else if (part?.type === 'file') {
      parts.push({
        type: 'file',
        data: String(part.file?.file_data ?? part.file?.file_id ?? ''),
        mediaType: 'application/octet-stream',
        ...(part.file?.filename ? { filename: String(part.file.filename) } : {}),
      });
    } else if (part?.type === 'input_audio') {
      parts.push({
        type: 'file',
        data: String(part.input_audio?.data ?? ''),
        mediaType: `audio/${part.input_audio?.format ?? 'wav'}`,
      });
    }
  }
  return { role: 'user', content: parts };
}

function assistantMessage(message: any, toolNames: Map<string, string>): AssistantMessage {
  const content: Exclude<AssistantMessage['content'], string> = [];
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) {
    content.push({ type: 'reasoning', text: message.reasoning_content });
  }
  const text = contentText(message.content);
  if (text) content.push({ type: 'text', text });
  if (typeof message.refusal === 'string' && message.refusal)
    content.push({ type: 'text', text: message.refusal });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const name = String(call?.function?.name ?? '');
    toolNames.set(String(call?.id), name);
    content.push({
      type: 'tool-call',
      toolCallId: String(call?.id),
      toolName: name,
      args: parseArguments(call?.function?.arguments),
    });
  }
  return { role: 'assistant', content };
}

function toolResult(message: any, toolNames: Map<string, string>): ToolResultPart {
  const id = String(message.tool_call_id ?? '');
  return {
    type: 'tool-result',
    toolCallId: id,
    toolName: toolNames.get(id) ?? 'unknown',
    output: parseArguments(contentText(message.content)),
  };
}

/** Consecutive tool results form one tool message, as the neutral format has it. */
export function appendToolResult(messages: Message[], part: ToolResultPart): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') last.content.push(part);
  else messages.push({ role: 'tool', content: [part] });
}

/** JSON text to a value; text that is not JSON stays a string (as a model's malformed arguments do). */
export function parseArguments(text: unknown): JsonValue {
  if (typeof text !== 'string') return (text ?? null) as JsonValue;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
