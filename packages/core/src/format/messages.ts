/**
 * The neutral message format (docs/design.md section 5): the one transcript shape every adapter converts
 * its framework's messages to and from. Messages and parts hold exactly the keys below (the JSON
 * Schema says the same): provider-specific extras ride in `providerMetadata`, so nothing a
 * continuation carries is dropped on parse or left outside its seal.
 */
import type { z } from 'zod';
import type {
  assistantMessageSchema,
  filePartSchema,
  imagePartSchema,
  messageSchema,
  reasoningPartSchema,
  systemMessageSchema,
  textPartSchema,
  toolCallPartSchema,
  toolMessageSchema,
  toolResultPartSchema,
  userMessageSchema,
} from '../zod/messages';
import type { AuditEntry } from './format';
import type { JsonObject, JsonValue } from './json';

export type TextPart = z.infer<typeof textPartSchema>;
export type ImagePart = z.infer<typeof imagePartSchema>;
export type FilePart = z.infer<typeof filePartSchema>;
export type ReasoningPart = z.infer<typeof reasoningPartSchema>;
export type ToolCallPart = z.infer<typeof toolCallPartSchema>;
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;
export type SystemMessage = z.infer<typeof systemMessageSchema>;
export type UserMessage = z.infer<typeof userMessageSchema>;
export type AssistantMessage = z.infer<typeof assistantMessageSchema>;
export type ToolMessage = z.infer<typeof toolMessageSchema>;
/** One message of the neutral transcript. */
export type Message = z.infer<typeof messageSchema>;

/** Provider-specific extras, carried untouched. */
export type ProviderMetadata = JsonObject;

/**
 * The tool calls of an assistant message, in order.
 *
 * @example
 * ```ts
 * const calls = toolCallsOf(result.messages.at(-1));
 * ```
 */
export function toolCallsOf(message: Message | undefined): ToolCallPart[] {
  if (message?.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/**
 * Whether a tool result (a transcript part or a `done` entry) belongs to a call a human rejected:
 * the call did not run, and the output is the rejection the model reads. It reads the `rejected`
 * mark the core writes with every rejection. Results saved before that mark existed carry only the
 * core's rejection text, so for them it returns false.
 *
 * @example
 * ```ts
 * const refused = continuation.done.filter(isRejected).map((entry) => entry.toolName);
 * ```
 */
export function isRejected(part: Pick<ToolResultPart, 'rejected'>): boolean {
  return part.rejected === true;
}

/**
 * `messages` with each tool result of a call that `audit` records as rejected at this level (the
 * action is the call itself) marked `rejected`: for adapters whose framework writes the
 * rejection's tool message itself, so the mark reads the same whichever adapter made it.
 *
 * @example
 * ```ts
 * const messages = markRejections(fromFramework(state), runState.audit);
 * ```
 */
export function markRejections(messages: Message[], audit: readonly AuditEntry[]): Message[] {
  const rejected = new Set(
    audit
      .filter((entry) => entry.type === 'reject' && entry.actionId === entry.toolCallId)
      .map((entry) => entry.toolCallId),
  );
  if (rejected.size === 0) return messages;
  return messages.map((message) => {
    if (message.role !== 'tool' || !message.content.some((part) => rejected.has(part.toolCallId)))
      return message;
    return {
      ...message,
      content: message.content.map((part) =>
        rejected.has(part.toolCallId) ? { ...part, rejected: true as const } : part,
      ),
    };
  });
}

/**
 * Every tool-call id the transcript's assistant messages use: what a new model response must not
 * reuse (see {@link uniqueToolCallIds}).
 *
 * @example
 * ```ts
 * const taken = toolCallIdsIn(state.messages);
 * ```
 */
export function toolCallIdsIn(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) for (const call of toolCallsOf(message)) ids.add(call.toolCallId);
  return ids;
}

/**
 * The same assistant message with every tool-call id unique, within the message and against the
 * ids `taken` earlier in the transcript (some OpenAI-compatible servers and local models repeat
 * ids, or send empty ones). Deterministic, so a resumed run names calls the same way:
 * - a call whose id is non-empty, not taken and not used by an earlier call of the message keeps it;
 * - an empty id is read as `call`;
 * - any other call gets `<id>~2`, `<id>~3`, ... : the first suffix that no call of the message
 *   keeps, that is not taken and not given to an earlier call (`call_1`, `call_1` become
 *   `call_1`, `call_1~2`).
 * Pure: the message and `taken` are not changed; the very message is returned when no id changes.
 * Every adapter's model response goes through it before its calls are recorded.
 *
 * @example
 * ```ts
 * const message = uniqueToolCallIds(response.message, toolCallIdsIn(state.messages));
 * ```
 */
export function uniqueToolCallIds(message: AssistantMessage, taken: ReadonlySet<string>): AssistantMessage {
  if (typeof message.content === 'string') return message;
  const calls = message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  const kept = new Set<string>();
  for (const call of calls) {
    if (call.toolCallId !== '' && !taken.has(call.toolCallId)) kept.add(call.toolCallId);
  }
  const used = new Set<string>();
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-call') return part;
    const id = part.toolCallId;
    if (id !== '' && kept.has(id) && !used.has(id)) {
      used.add(id);
      return part;
    }
    const base = id === '' ? 'call' : id;
    let unique = base;
    for (let n = 2; taken.has(unique) || kept.has(unique) || used.has(unique); n++) unique = `${base}~${n}`;
    used.add(unique);
    changed = true;
    return { ...part, toolCallId: unique };
  });
  return changed ? { ...message, content } : message;
}

/**
 * The text of a message: the string content, or its text parts joined.
 *
 * @example
 * ```ts
 * textOf({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }); // 'Done.'
 * ```
 */
export function textOf(message: Message | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/**
 * A user message from plain text or neutral messages: how agents turn `run(input)` into a transcript.
 *
 * @example
 * ```ts
 * inputMessages('Hi'); // [{ role: 'user', content: 'Hi' }]
 * ```
 */
export function inputMessages(input: string | Message[]): Message[] {
  return typeof input === 'string' ? [{ role: 'user', content: input }] : [...input];
}

export type { JsonValue };
