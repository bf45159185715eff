/**
 * The JSON Schema of the continuation format, derived from the core's zod schema so the two can
 * never drift. `generate.ts` writes it to `schema/continuation.v1.schema.json`; a test
 * regenerates it in memory and fails when the committed file is stale.
 */
import { z } from 'zod';
import { CURRENT_VERSION } from '../src/format/format';
import { auditEntrySchema, continuationSchema, pendingEntrySchema, usageSchema } from '../src/zod/format';
import { jsonValueSchema } from '../src/zod/json';
import { messageSchema } from '../src/zod/messages';

/** Where the published schema lives, relative to the core package's root. */
export const SCHEMA_FILE = `schema/continuation.v${CURRENT_VERSION}.schema.json`;

/**
 * Build the JSON Schema (draft 2020-12) of a continuation. Shared parts become named `$defs`;
 * a pending `agent` entry's `child` refers back to the root (`"$ref": "#"`), which is how the
 * format nests to any depth without repeating itself.
 *
 * @example
 * ```ts
 * const schema = continuationJsonSchema();
 * new Ajv2020().compile(schema)(JSON.parse(text));
 * ```
 */
export function continuationJsonSchema(): Record<string, unknown> {
  // A private registry: naming the shared parts here keeps the zod schemas themselves untouched.
  const names = z.registry<{ id: string }>();
  names.add(jsonValueSchema, { id: 'JsonValue' });
  names.add(messageSchema, { id: 'Message' });
  names.add(pendingEntrySchema, { id: 'PendingEntry' });
  names.add(auditEntrySchema, { id: 'AuditEntry' });
  names.add(usageSchema, { id: 'Usage' });
  const { $schema, ...body } = z.toJSONSchema(continuationSchema, {
    target: 'draft-2020-12',
    // What `parseContinuation` accepts (every object, messages and parts included, is closed).
    io: 'input',
    unrepresentable: 'throw',
    cycles: 'ref',
    reused: 'inline',
    metadata: names,
  }) as Record<string, unknown>;
  return {
    $schema,
    title: `Agent continuation, format version ${CURRENT_VERSION}`,
    description:
      'A suspended AI agent run as one JSON value (@agent-continuations/core). Generated from the zod schema by scripts/generate.ts: do not edit by hand.',
    ...body,
  };
}

/** The schema file's exact text: two-space indentation and a final newline. */
export function continuationJsonSchemaText(): string {
  return `${JSON.stringify(continuationJsonSchema(), null, 2)}\n`;
}
