/**
 * The reader's validator, generated from the zod schemas of `src/zod` (the format's one source)
 * through their JSON Schema: ajv compiles it to standalone code that needs neither zod nor ajv
 * at run time. `generate.ts` writes it to `src/format/validate.generated.ts`; a test regenerates it in
 * memory and fails when the committed file is stale.
 */
import Ajv2020 from 'ajv/dist/2020';
import standalone from 'ajv/dist/standalone';
import { z } from 'zod';
import { decisionSchema } from '../src/zod/decision';
import { continuationJsonSchema } from './continuation-json-schema';

/** Where the generated validator lives, relative to the core package's root. */
export const VALIDATOR_FILE = 'src/format/validate.generated.ts';

type Schema = Record<string, any>;

/**
 * What the error path needs to explain a refusal as the schema would, keyed by the failing
 * keyword's schema path as ajv reports it (relative to the root or to the `$defs` entry the
 * check sits in, so one path can name objects of several definitions: each is listed): the
 * members an object has with the type zod names for each, and the values a discriminator takes
 * (keyed by path and member).
 */
interface Hints {
  members: Record<string, Array<Record<string, string>>>;
  options: Record<string, string[]>;
}

/** The first type a member of `schema` may have, as zod names it in "missing (expected …)". */
function expectedType(schema: Schema, root: Schema): string {
  if (schema.$ref === '#') return 'object';
  if (typeof schema.$ref === 'string') return expectedType(resolve(root, schema.$ref), root);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return expectedType(branches[0] as Schema, root);
  if (schema.type === 'integer') return 'number';
  if (typeof schema.type === 'string') return schema.type;
  return 'value';
}

function resolve(root: Schema, ref: string): Schema {
  return ref
    .slice(2)
    .split('/')
    .reduce((node: Schema, key) => node[key], root);
}

/**
 * Mark each `oneOf` whose branches all fix one member to a constant as a discriminated union, so
 * ajv picks the branch by that member (and says so when it fits none), as zod does. Also gathers
 * the {@link Hints} of every object and union, by schema path.
 */
function annotate(node: unknown, pointer: string, root: Schema, hints: Hints): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) annotate(item, `${pointer}/${i}`, root, hints);
    return;
  }
  const schema = node as Schema;
  // ajv compiles each definition as a function of its own, whose schema paths start again at `#`.
  if (/^#\/\$defs\/[^/]+$/.test(pointer)) pointer = '#';
  if (Array.isArray(schema.oneOf)) {
    const branches = schema.oneOf as Schema[];
    const tag = ['type', 'role', 'kind'].find((key) =>
      branches.every((branch) => branch.properties?.[key]?.const !== undefined),
    );
    if (tag) {
      // ajv's discriminator checks objects only: a non-object must fail on its type.
      schema.type = 'object';
      schema.discriminator = { propertyName: tag };
      hints.options[`${pointer}/discriminator ${tag}`] = branches.map(
        (branch) => branch.properties[tag].const,
      );
    }
  }
  if (schema.properties) {
    const members = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Schema>).map(([key, member]) => [
        key,
        expectedType(member, root),
      ]),
    );
    for (const keyword of ['required', 'additionalProperties']) {
      const list = hints.members[`${pointer}/${keyword}`] ?? [];
      hints.members[`${pointer}/${keyword}`] = [...list, members];
    }
  }
  for (const [key, value] of Object.entries(schema)) annotate(value, `${pointer}/${key}`, root, hints);
}

/** The JSON Schema of one decision, from its zod schema. */
function decisionJsonSchema(): Schema {
  const { $schema, ...body } = z.toJSONSchema(decisionSchema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
    cycles: 'ref',
    reused: 'inline',
  }) as Schema;
  return { $schema, ...body };
}

/**
 * The generated module's text: `validateContinuation` and `validateDecision` (ajv standalone
 * validators, first error only) and the `HINTS` their error path reads.
 *
 * @example
 * ```ts
 * writeFileSync(VALIDATOR_FILE, validatorSource());
 * ```
 */
export function validatorSource(): string {
  const hints: Hints = { members: {}, options: {} };
  const continuation = continuationJsonSchema() as Schema;
  delete continuation.title;
  delete continuation.description;
  annotate(continuation, '#', continuation, hints);
  const decision = decisionJsonSchema();
  const decisionHints: Hints = { members: {}, options: {} };
  annotate(decision, '#', decision, decisionHints);
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: true },
    // The error path words each refusal from its keyword and params: ajv's own messages are not read.
    messages: false,
    // Lengths in UTF-16 code units, as zod counts them (and no run-time helper to import).
    unicode: false,
    // The date-time `pattern` the schema carries is the rule; `format` is documentation.
    validateFormats: false,
    discriminator: true,
    strict: false,
    logger: false,
  });
  ajv.addSchema(continuation, 'continuation');
  ajv.addSchema(decision, 'decision');
  const code = standalone(ajv, { validateContinuation: 'continuation', validateDecision: 'decision' });
  return [
    '// Generated from the zod schemas of src/zod by scripts/generate.ts: do not edit by hand.',
    '// Regenerate with `pnpm --filter @agent-continuations/core generate`.',
    '// @ts-nocheck',
    code.replace(/^"use strict";\n?/, ''),
    '',
    `export const CONTINUATION_HINTS = ${JSON.stringify(hints)};`,
    `export const DECISION_HINTS = ${JSON.stringify(decisionHints)};`,
    '',
  ].join('\n');
}
