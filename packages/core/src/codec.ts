/**
 * Reading and writing continuations. Reading is a fixed pipeline: JSON, unsafe-key scan,
 * format tag, version check, step-wise migration, full schema validation, optional seal check.
 * Nothing in the input is ever executed.
 */
import type { z } from 'zod';
import { canonicalJson } from './canonical';
import { ContinuationError } from './errors';
import { type Continuation, CURRENT_VERSION, continuationSchema, FORMAT, SUPPORTED_VERSIONS } from './format';
import { verifySeal } from './seal';

/** Options of {@link parseContinuation}. */
export interface ParseOptions {
  /** Verify the seal with this secret (see `sealContinuation`); an unsealed continuation is refused. */
  secret?: string | Uint8Array;
}

/** The deepest nesting a continuation may have, as a guard against stack exhaustion. */
const MAX_DEPTH = 512;
/** Keys that `Object.assign` or a naive merge would turn into a prototype change. */
const UNSAFE_KEYS = new Set(['__proto__']);

/**
 * Continuations this module produced, and their nested children: a parent's resume hands each
 * child to the child agent's resume, which must not validate the subtree again (that would make
 * resuming a deep tree quadratic). Only objects that came out of validation are in it.
 */
const validated = new WeakSet<object>();

function remember(continuation: Continuation): void {
  validated.add(continuation);
  for (const entry of continuation.pending) if (entry.kind === 'agent') remember(entry.child);
}

/**
 * Steps from each older version to the next. Format version 1 is the first, so there is none yet;
 * a future version 2 adds `1: (v1) => v2` here and keeps reading version 1 files.
 */
const MIGRATIONS: Record<number, (value: Record<string, unknown>) => Record<string, unknown>> = {};

/**
 * Read a continuation from a JSON string or an already-parsed value, validating it fully.
 * Throws a {@link ContinuationError} with a precise `code` for anything wrong.
 *
 * @example
 * ```ts
 * const continuation = parseContinuation(await fs.readFile('run.json', 'utf8'));
 * const sealed = await parseContinuation(body, { secret: process.env.SEAL_SECRET! });
 * ```
 */
export function parseContinuation(value: unknown): Continuation;
export function parseContinuation(
  value: unknown,
  options: ParseOptions & { secret: string | Uint8Array },
): Promise<Continuation>;
export function parseContinuation(
  value: unknown,
  options?: ParseOptions,
): Continuation | Promise<Continuation>;
export function parseContinuation(
  value: unknown,
  options: ParseOptions = {},
): Continuation | Promise<Continuation> {
  const continuation = decode(value);
  if (options.secret === undefined) return continuation;
  return verifySeal(continuation, options.secret).then(() => continuation);
}

/** Members holding the user's or the model's own JSON, written in their own key order. */
const PAYLOAD_KEYS: ReadonlySet<string> = new Set([
  'args',
  'editedArgs',
  'journal',
  'metadata',
  'output',
  'providerMetadata',
  'request',
  'state',
  'value',
]);

/**
 * Write a continuation as canonical JSON: no white space, the format's own keys sorted, and the
 * JSON of tool arguments, outputs and metadata in its own key order (so the model is sent the
 * same bytes after a resume). `serializeContinuation(parseContinuation(text))` returns `text`.
 *
 * @example
 * ```ts
 * await fs.writeFile('run.json', serializeContinuation(result.continuation));
 * ```
 */
export function serializeContinuation(continuation: Continuation): string {
  return canonicalJson(continuation, { preserveOrderUnder: PAYLOAD_KEYS });
}

function decode(input: unknown): Continuation {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw new ContinuationError(
        'INVALID_JSON',
        `Continuation is not valid JSON (${(error as Error).message}); it may be truncated.`,
        { cause: error },
      );
    }
  } else if (input instanceof Uint8Array) {
    return decode(new TextDecoder().decode(input));
  }
  scanKeys(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ContinuationError('INVALID_FORMAT', 'A continuation must be a JSON object.');
  }
  let record = value as Record<string, unknown>;
  if (record.format !== FORMAT) {
    throw new ContinuationError(
      'INVALID_FORMAT',
      `Not a continuation: "format" is ${JSON.stringify(record.format) ?? 'missing'}, expected "${FORMAT}".`,
      { path: '$.format' },
    );
  }
  const version = record.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ContinuationError(
      'UNSUPPORTED_VERSION',
      `Invalid continuation version ${JSON.stringify(version)}.`,
      {
        path: '$.version',
      },
    );
  }
  if (version > CURRENT_VERSION) {
    throw new ContinuationError(
      'UNSUPPORTED_VERSION',
      `Continuation format version ${version} is newer than this library reads (up to ${CURRENT_VERSION}); upgrade @agent-continuations/core.`,
      { path: '$.version', details: { version, supported: SUPPORTED_VERSIONS } },
    );
  }
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new ContinuationError(
      'UNSUPPORTED_VERSION',
      `Continuation format version ${version} is not supported.`,
      {
        path: '$.version',
        details: { version, supported: SUPPORTED_VERSIONS },
      },
    );
  }
  for (let v = version; v < CURRENT_VERSION; v++) {
    const migrate = MIGRATIONS[v];
    if (!migrate) throw new ContinuationError('UNSUPPORTED_VERSION', `No migration from version ${v}.`);
    record = migrate(record);
  }
  const result = continuationSchema.safeParse(record);
  if (!result.success) throw invalid(result.error);
  remember(result.data);
  return result.data;
}

function invalid(error: z.ZodError): ContinuationError {
  const first = error.issues[0];
  const path = first
    ? `$${first.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}`
    : '$';
  return new ContinuationError(
    'INVALID_CONTINUATION',
    `Invalid continuation at ${path}: ${first?.message ?? 'does not match the format'}.`,
    { path, details: error.issues },
  );
}

/** Refuse prototype-polluting keys and absurd nesting, iteratively (no recursion on untrusted depth). */
function scanKeys(root: unknown): void {
  type Frame = { value: unknown; depth: number; key: string | number; parent: Frame | undefined };
  const stack: Frame[] = [{ value: root, depth: 0, key: '$', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH) {
      throw new ContinuationError(
        'INVALID_CONTINUATION',
        `Continuation is nested deeper than ${MAX_DEPTH} levels.`,
        {
          path: pathOf(frame),
        },
      );
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        stack.push({ value: value[i], depth: depth + 1, key: i, parent: frame });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) {
        const path = `${pathOf(frame)}.${key}`;
        throw new ContinuationError(
          'UNSAFE_KEY',
          `Continuation contains the forbidden key "${key}" at ${path}.`,
          { path },
        );
      }
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, key, parent: frame });
    }
  }
}

function pathOf(frame: { key: string | number; parent: unknown }): string {
  const keys: Array<string | number> = [];
  for (let f: any = frame; f; f = f.parent) keys.unshift(f.key);
  return keys.map((key, i) => (i === 0 ? key : typeof key === 'number' ? `[${key}]` : `.${key}`)).join('');
}
