/**
 * The neutral message format (DESIGN section 5): the one transcript shape every adapter converts
 * its framework's messages to and from. Messages and parts hold exactly the keys below (the JSON
 * Schema says the same): provider-specific extras ride in `providerMetadata`, so nothing a
 * continuation carries is dropped on parse or left outside its seal.
 */
import { z } from 'zod';
import { type JsonObject, type JsonValue, jsonObjectSchema, jsonValueSchema } from './json';

const providerMetadata = jsonObjectSchema.optional();

export const textPartSchema = z
  .object({
    type: z.literal('text'),
    text: z.string(),
    providerMetadata,
  })
  .strict();

/** An image, as a URL (`https:` or `data:`) or base64 data with its media type. */
export const imagePartSchema = z
  .object({
    type: z.literal('image'),
    image: z.string(),
    mediaType: z.string().optional(),
    providerMetadata,
  })
  .strict();

/** A file, as a URL or base64 data, with its media type. */
export const filePartSchema = z
  .object({
    type: z.literal('file'),
    data: z.string(),
    mediaType: z.string(),
    filename: z.string().optional(),
    providerMetadata,
  })
  .strict();

/** Model reasoning; `text` may be empty when a provider only returns an encrypted or redacted form. */
export const reasoningPartSchema = z
  .object({
    type: z.literal('reasoning'),
    text: z.string(),
    providerMetadata,
  })
  .strict();

/** A model's request to call a tool. `args` is the parsed JSON arguments. */
export const toolCallPartSchema = z
  .object({
    type: z.literal('tool-call'),
    toolCallId: z.string().min(1),
    toolName: z.string().min(1),
    args: jsonValueSchema,
    providerMetadata,
  })
  .strict();

/** The outcome of a tool call, sent back to the model. */
export const toolResultPartSchema = z
  .object({
    type: z.literal('tool-result'),
    toolCallId: z.string().min(1),
    toolName: z.string().min(1),
    output: jsonValueSchema,
    isError: z.boolean().optional(),
    providerMetadata,
  })
  .strict();

export const systemMessageSchema = z
  .object({
    role: z.literal('system'),
    content: z.string(),
    providerMetadata,
  })
  .strict();

export const userMessageSchema = z
  .object({
    role: z.literal('user'),
    content: z.union([
      z.string(),
      z.array(z.discriminatedUnion('type', [textPartSchema, imagePartSchema, filePartSchema])),
    ]),
    providerMetadata,
  })
  .strict();

export const assistantMessageSchema = z
  .object({
    role: z.literal('assistant'),
    content: z.union([
      z.string(),
      z.array(
        z.discriminatedUnion('type', [
          textPartSchema,
          filePartSchema,
          reasoningPartSchema,
          toolCallPartSchema,
        ]),
      ),
    ]),
    providerMetadata,
  })
  .strict();

export const toolMessageSchema = z
  .object({
    role: z.literal('tool'),
    content: z.array(toolResultPartSchema),
    providerMetadata,
  })
  .strict();

export const messageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
]);

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
