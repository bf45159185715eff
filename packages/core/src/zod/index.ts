/**
 * @agent-continuations/core/zod: the zod schemas of the continuation format (the format's one
 * source) The core's root entry never loads zod (its
 * reader runs a validator generated from these); import from here to validate with zod yourself.
 *
 * @example
 * ```ts
 * import { continuationSchema } from '@agent-continuations/core/zod';
 * const ok = continuationSchema.safeParse(JSON.parse(text)).success;
 * ```
 */
export { decisionSchema } from './decision';
export { auditEntrySchema, continuationSchema, pendingEntrySchema, usageSchema } from './format';
export { jsonObjectSchema, jsonValueSchema } from './json';
export {
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
} from './messages';
