/**
 * The zod schemas of the neutral messages (docs/design.md section 5), from which the types in
 * `../messages.ts` are inferred and the JSON Schema is generated.
 */
import { z } from 'zod';
import { jsonObjectSchema, jsonValueSchema } from './json';

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

/**
 * Present, and `true`, only on the result of a call a human rejected (the call did not run):
 * `false` is refused rather than read as a second way to say "not rejected".
 */
export const rejectedSchema = z.literal(true).optional();

/**
 * The outcome of a tool call, sent back to the model. A call a human rejected has an error result
 * (the core's rejection text) marked `rejected`.
 */
export const toolResultPartSchema = z
  .object({
    type: z.literal('tool-result'),
    toolCallId: z.string().min(1),
    toolName: z.string().min(1),
    output: jsonValueSchema,
    isError: z.boolean().optional(),
    rejected: rejectedSchema,
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
