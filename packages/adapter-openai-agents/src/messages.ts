/**
 * The SDK's items (`AgentInputItem`, the model's `AgentOutputItem`s) to and from the core's neutral
 * messages. What the neutral format has no field for (item ids, `providerData`, raw argument text)
 * rides in `providerMetadata.openaiAgents`, so a transcript goes back to the SDK as it came.
 */
import {
  type AssistantMessage,
  ContinuationError,
  type JsonObject,
  type JsonValue,
  type Message,
} from '@agent-continuations/core';
import type { AgentInputItem, AgentOutputItem } from '@openai/agents';

type Part = Exclude<AssistantMessage['content'], string>[number];
type Meta = { [key: string]: JsonValue | undefined };

/**
 * Neutral messages to the items an SDK model takes as `input`.
 *
 * @example
 * ```ts
 * toAgentItems([{ role: 'user', content: 'Hi' }]); // [{ type: 'message', role: 'user', content: 'Hi' }]
 * ```
 */
export function toAgentItems(messages: readonly Message[]): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  for (const message of messages) {
    if (message.role === 'system') items.push({ type: 'message', role: 'system', content: message.content });
    else if (message.role === 'user') items.push(userItem(message.content));
    else if (message.role === 'tool') {
      for (const part of message.content) {
        items.push({
          type: 'function_call_result',
          callId: part.toolCallId,
          name: part.toolName,
          status: 'completed',
          output: {
            type: 'text',
            text: typeof part.output === 'string' ? part.output : JSON.stringify(part.output),
          },
        } as AgentInputItem);
      }
    } else items.push(...assistantItems(message));
  }
  return items;
}

/**
 * The items of one model response to one neutral assistant message.
 *
 * @example
 * ```ts
 * fromAgentOutput([{ type: 'function_call', callId: 'c1', name: 'lookup', arguments: '{"id":"A1"}' }]);
 * // { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', args: { id: 'A1' } }] }
 * ```
 */
export function fromAgentOutput(output: readonly AgentOutputItem[]): AssistantMessage {
  const content: Part[] = [];
  for (const item of output) {
    const { type } = item as { type?: string };
    if (type === 'function_call') {
      const call = item as Extract<AgentOutputItem, { type: 'function_call' }>;
      const args = parseArgs(call.arguments);
      content.push({
        type: 'tool-call',
        toolCallId: call.callId,
        toolName: call.name,
        args: args.value,
        ...withMeta({ id: call.id, providerData: json(call.providerData), raw: args.raw }),
      });
    } else if (type === 'reasoning') {
      const reasoning = item as Extract<AgentOutputItem, { type: 'reasoning' }>;
      content.push({
        type: 'reasoning',
        text: reasoning.content.map((each) => each.text).join(''),
        ...withMeta({
          id: reasoning.id,
          providerData: json(reasoning.providerData),
          rawContent: json(reasoning.rawContent),
          content: reasoning.content.length > 1 ? json(reasoning.content) : undefined,
        }),
      });
    } else if (type === 'message' || (item as { role?: string }).role === 'assistant') {
      const message = item as Extract<AgentOutputItem, { role: 'assistant' }>;
      for (const each of message.content) {
        if (each.type === 'output_text') {
          content.push({
            type: 'text',
            text: each.text,
            ...withMeta({ id: message.id, providerData: json(each.providerData) }),
          });
        } else if (each.type === 'refusal') {
          content.push({ type: 'text', text: each.refusal, ...withMeta({ id: message.id, refusal: true }) });
        } else {
          throw new ContinuationError(
            'INVALID_OPERATION',
            `The model answered with ${each.type} content, which a continuation cannot hold.`,
          );
        }
      }
    } else {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `The model answered with a "${type}" item, which this adapter does not run (only function tools).`,
      );
    }
  }
  return { role: 'assistant', content };
}

function userItem(content: Extract<Message, { role: 'user' }>['content']): AgentInputItem {
  if (typeof content === 'string') return { type: 'message', role: 'user', content };
  return {
    type: 'message',
    role: 'user',
    content: content.map((part) => {
      if (part.type === 'text') return { type: 'input_text', text: part.text };
      if (part.type === 'image') return { type: 'input_image', image: part.image };
      return {
        type: 'input_file',
        file: part.data,
        ...(part.filename === undefined ? {} : { filename: part.filename }),
      };
    }),
  } as AgentInputItem;
}

function assistantItems(message: AssistantMessage): AgentInputItem[] {
  if (typeof message.content === 'string') {
    return [
      {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: message.content }],
      },
    ];
  }
  const items: AgentInputItem[] = [];
  let text:
    | { type: 'message'; role: 'assistant'; status: 'completed'; id?: string; content: unknown[] }
    | undefined;
  for (const part of message.content) {
    const meta = metaOf(part.providerMetadata);
    if (part.type === 'text') {
      if (!text) {
        text = {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          ...(typeof meta.id === 'string' ? { id: meta.id } : {}),
          content: [],
        };
        items.push(text as AgentInputItem);
      }
      text.content.push(
        meta.refusal === true
          ? { type: 'refusal', refusal: part.text }
          : {
              type: 'output_text',
              text: part.text,
              ...(meta.providerData ? { providerData: meta.providerData } : {}),
            },
      );
      continue;
    }
    text = undefined;
    if (part.type === 'tool-call') {
      items.push({
        type: 'function_call',
        callId: part.toolCallId,
        name: part.toolName,
        status: 'completed',
        arguments: typeof meta.raw === 'string' ? meta.raw : JSON.stringify(part.args),
        ...(typeof meta.id === 'string' ? { id: meta.id } : {}),
        ...(meta.providerData ? { providerData: meta.providerData } : {}),
      } as AgentInputItem);
    } else if (part.type === 'reasoning') {
      items.push({
        type: 'reasoning',
        content: Array.isArray(meta.content) ? meta.content : [{ type: 'input_text', text: part.text }],
        ...(typeof meta.id === 'string' ? { id: meta.id } : {}),
        ...(meta.providerData ? { providerData: meta.providerData } : {}),
        ...(Array.isArray(meta.rawContent) ? { rawContent: meta.rawContent } : {}),
      } as AgentInputItem);
    } else {
      throw new ContinuationError(
        'INVALID_OPERATION',
        'An assistant file part cannot go back to an OpenAI Agents model; remove it from the transcript.',
      );
    }
  }
  return items;
}

/** Arguments text to a value; text that is not JSON stays a string (the tool's validation answers it). */
function parseArgs(text: string): { value: JsonValue; raw?: string } {
  try {
    const value = JSON.parse(text) as JsonValue;
    return JSON.stringify(value) === text ? { value } : { value, raw: text };
  } catch {
    return { value: text, raw: text };
  }
}

/** A JSON copy of SDK data, or nothing. */
function json(value: unknown): JsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && Object.keys(value).length === 0) return undefined;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

function metaOf(providerMetadata: JsonObject | undefined): Meta {
  const value = providerMetadata?.openaiAgents;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Meta) : {};
}

function withMeta(meta: Meta): { providerMetadata?: JsonObject } {
  const entries = Object.entries(meta).filter(([, value]) => value !== undefined) as [string, JsonValue][];
  return entries.length > 0 ? { providerMetadata: { openaiAgents: Object.fromEntries(entries) } } : {};
}
