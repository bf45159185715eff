/**
 * The zod schema of the continuation format: the one source of the format. The published JSON
 * Schema (`schema/continuation.v1.schema.json`) and the validator the reader runs
 * (`../validate.generated.ts`) are generated from it: `pnpm --filter @agent-continuations/core generate`.
 */
import { z } from 'zod';
import {
  type AuditEntry,
  type Continuation,
  CURRENT_VERSION,
  FORMAT,
  type PendingEntry,
  type Usage,
} from '../format/format';
import { jsonObjectSchema, jsonValueSchema } from './json';
import { messageSchema, rejectedSchema } from './messages';

const nonNegativeInt = z.number().int().nonnegative();

export const usageSchema: z.ZodType<Usage> = z.object({
  inputTokens: nonNegativeInt,
  outputTokens: nonNegativeInt,
  totalTokens: nonNegativeInt,
});

const pendingBase = {
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  args: jsonValueSchema,
  approved: z.boolean().optional(),
  journal: z.array(jsonValueSchema).optional(),
  deadline: z.iso.datetime({ offset: true }).optional(),
};

const pendingKindSchema = z.enum(['approval', 'input', 'agent']);

/** The agent's policy for an action a human acts on: what the human is told, what they may decide. */
const actionPolicy = {
  description: z.string().optional(),
  allowedDecisions: z
    .array(z.enum(['approve', 'edit', 'reject', 'input']))
    .min(1)
    .optional(),
};

export const pendingEntrySchema: z.ZodType<PendingEntry> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('approval'),
        ...pendingBase,
        ...actionPolicy,
        inDoubt: z.literal(true).optional(),
      })
      .strict(),
    z
      .object({ kind: z.literal('input'), request: jsonValueSchema, ...pendingBase, ...actionPolicy })
      .strict(),
    z.object({ kind: z.literal('agent'), child: continuationSchema, ...pendingBase }).strict(),
  ]),
);

export const auditEntrySchema: z.ZodType<AuditEntry> = z
  .object({
    actionId: z.string().min(1),
    type: z.enum(['approve', 'reject', 'input']),
    toolName: z.string().min(1),
    toolCallId: z.string().min(1),
    at: z.string(),
    by: z.string().optional(),
    reason: z.string().optional(),
    args: jsonValueSchema.optional(),
    editedArgs: jsonValueSchema.optional(),
    value: jsonValueSchema.optional(),
  })
  .strict();

/** The zod schema of a continuation, recursive through pending `agent` entries. */
export const continuationSchema: z.ZodType<Continuation> = z
  .object({
    format: z.literal(FORMAT),
    version: z.literal(CURRENT_VERSION),
    id: z.string().min(1),
    runId: z.string().min(1),
    agent: z
      .object({ name: z.string().min(1), framework: z.string().min(1), fingerprint: z.string().optional() })
      .strict(),
    messages: z.array(messageSchema),
    pending: z.array(pendingEntrySchema),
    done: z.array(
      z
        .object({
          toolCallId: z.string().min(1),
          toolName: z.string().min(1),
          output: jsonValueSchema,
          isError: z.boolean().optional(),
          rejected: rejectedSchema,
        })
        .strict(),
    ),
    step: nonNegativeInt,
    usage: usageSchema,
    suspendedBy: z.discriminatedUnion('type', [
      z.object({ type: z.literal('actions'), kinds: z.array(pendingKindSchema) }).strict(),
      z.object({ type: z.literal('predicate'), predicates: z.array(z.string()) }).strict(),
      z.object({ type: z.literal('checkpoint') }).strict(),
    ]),
    state: jsonValueSchema.optional(),
    metadata: jsonObjectSchema,
    decisions: z.array(auditEntrySchema),
    createdAt: z.iso.datetime({ offset: true }),
    seal: z
      .object({ alg: z.literal('HMAC-SHA256'), keyId: z.string().optional(), mac: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict() as z.ZodType<Continuation>;
