/**
 * The zod schema of one decision a human sends on resume; the reader's generated validator
 * (`../validate.generated.ts`) is built from it, as the continuation's is.
 */
import { z } from 'zod';
import type { Decision } from '../engine/protocol';
import { jsonValueSchema } from './json';

/** One decision: approve (optionally with edited arguments), reject, or an answer to an input request. */
export const decisionSchema: z.ZodType<Decision> = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('approve'),
      args: jsonValueSchema.optional(),
      by: z.string().optional(),
      reason: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('reject'), reason: z.string().optional(), by: z.string().optional() }).strict(),
  z.object({ type: z.literal('input'), value: jsonValueSchema, by: z.string().optional() }).strict(),
]);
