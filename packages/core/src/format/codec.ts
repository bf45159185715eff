/**
 * Reading and writing continuations. Reading is a fixed pipeline: bytes (strict UTF-8), JSON, a
 * walk that refuses non-JSON values and absurd depth, the format tag and version at every depth,
 * step-wise migration, full schema validation, consistency of the parts, optional seal check.
 * Nothing in the input is ever executed, and keys such as `__proto__` inside the JSON a
 * continuation carries (arguments, outputs, metadata) stay data: what the engine writes, it reads.
 */

import { ContinuationError } from '../errors';
import { type SealConfig, type SealSecret, verifySeal } from '../trust/seal';
import { continuationText, PAYLOAD_KEYS } from './canonical';
import { checkConsistency } from './consistency';
import { type Continuation, CURRENT_VERSION, FORMAT, SUPPORTED_VERSIONS } from './format';
import { checkJson, describeValue, jsonPath } from './json';
import { continuationIssue, isValidContinuation, type SchemaIssue } from './validate';

/** Options of {@link parseContinuation}. */
export interface ParseOptions {
  /** Verify the seal with this secret (see `sealContinuation`); an unsealed continuation is refused. */
  secret?: SealSecret;
  /** Secrets that were current before `secret`: a seal made with any of them verifies too (rotation). */
  previous?: readonly SealSecret[];
}

/**
 * Steps from each older version to the next. Format version 1 is the first, so there is none yet;
 * a future version 2 adds `1: (v1) => v2` here and keeps reading version 1 files.
 */
const MIGRATIONS: Record<number, (value: Record<string, unknown>) => Record<string, unknown>> = {};

/**
 * Read a continuation from a JSON string, UTF-8 bytes or an already-parsed value, validating it
 * fully. Throws a {@link ContinuationError} with a precise `code` and `path` for anything wrong.
 * With `secret`, the seal is verified too (and the result is a promise).
 *
 * @example
 * ```ts
 * const continuation = parseContinuation(await fs.readFile('run.json', 'utf8'));
 * const sealed = await parseContinuation(body, { secret: process.env.SEAL_SECRET! });
 * const rotated = await parseContinuation(body, { secret: newSecret, previous: [oldSecret] });
 * ```
 */
export function parseContinuation(value: unknown): Continuation;
export function parseContinuation(
  value: unknown,
  options: ParseOptions & { secret: SealSecret },
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
  const text = typeof value === 'string' ? value : undefined;
  return verifySeal(continuation, { secret: options.secret, previous: options.previous }, text).then(
    () => continuation,
  );
}

/**
 * Read a continuation that comes back from outside, on a resume path: parse it fully and, when
 * `seal` is given, refuse it unless its seal verifies with `seal.secret` or one of
 * `seal.previous` (`SEAL_MISSING` for an unsealed one, `SEAL_MISMATCH` for an altered one).
 * Without `seal` it only parses. Always a promise, so every resume path can await it alike.
 *
 * @example
 * ```ts
 * const continuation = await openContinuation(body, { secret: process.env.SEAL_SECRET!, previous: [oldSecret] });
 * ```
 */
export async function openContinuation(input: unknown, seal?: SealConfig): Promise<Continuation> {
  const continuation = decode(input);
  if (seal !== undefined) await verifySeal(continuation, seal, typeof input === 'string' ? input : undefined);
  return continuation;
}

/**
 * Write a continuation as canonical JSON: no white space, the format's own keys sorted, and the
 * JSON of tool arguments, outputs and metadata in its own key order (so the model is sent the
 * same bytes after a resume). `serializeContinuation(parseContinuation(text))` returns `text` for
 * every canonical `text`. A value JSON cannot hold (a bigint, a `Date`) is refused with
 * `INVALID_JSON`, naming where, rather than written in a form that would read back differently.
 *
 * @example
 * ```ts
 * await fs.writeFile('run.json', serializeContinuation(result.continuation));
 * ```
 */
export function serializeContinuation(continuation: Continuation): string {
  return continuationText(continuation);
}

/**
 * The JSON text of each continuation this module returned, when it is known without extra work: an
 * object given back to be read again whose JSON is that same text is a copy of a value that
 * passed every check, so the copy is all that is left to make.
 */
const validatedText = new WeakMap<object, string>();

function decode(input: unknown): Continuation {
  const text = typeof input === 'string' || input instanceof Uint8Array;
  let value: unknown;
  let copied: string | undefined;
  if (typeof input === 'string') value = parseText(input);
  else if (input instanceof Uint8Array) value = parseText(decodeUtf8(input));
  else {
    const known = typeof input === 'object' && input !== null ? validatedText.get(input) : undefined;
    if (known !== undefined) {
      let same = false;
      try {
        same = JSON.stringify(input) === known;
      } catch {
        // Not JSON any more: the full checks below say where.
      }
      if (same) {
        const copy = JSON.parse(known) as Continuation;
        validatedText.set(copy, known);
        return copy;
      }
    }
    checkJson(input, JSON_CHECK);
    // An in-memory value is copied, so the caller's later changes cannot reach the result.
    copied = JSON.stringify(input);
    value = JSON.parse(copied);
  }
  // Parsed text is JSON by construction: one walk checks depth, keys, headers and schema at once.
  // Only when it says no does the full pipeline run, for its precise error.
  const valid = isValidContinuation(value);
  if (!valid) value = checkFully(value, text);
  // The schema only validates: its output would drop `__proto__` members, so the checked input
  // itself is the result (the schema has no defaults or transforms to apply).
  const continuation = value as Continuation;
  checkConsistency(continuation);
  // Only text that reads as it is (no migration) stands for the value it gave.
  const json = typeof input === 'string' ? input : copied;
  if (valid && json !== undefined) validatedText.set(continuation, json);
  return continuation;
}

const JSON_CHECK = {
  code: 'INVALID_JSON',
  depthCode: 'INVALID_CONTINUATION',
  what: 'Continuation',
  dataKeys: PAYLOAD_KEYS,
} as const;

/** The full pipeline: the JSON walk (for text), headers and migrations, then the schema. */
function checkFully(value: unknown, text: boolean): Record<string, unknown> {
  if (text) checkJson(value, JSON_CHECK);
  const record = checkHeaders(value, []);
  const issue = continuationIssue(record);
  if (issue) throw invalid(issue);
  return record;
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    throw new ContinuationError(
      'INVALID_JSON',
      `Continuation is not valid JSON (${reason.length > 120 ? `${reason.slice(0, 120)}…` : reason}); it may be truncated.`,
      { cause: error },
    );
  }
}

/** Strict: invalid UTF-8 throws instead of becoming U+FFFD. Reusable, since it never streams. */
let utf8: TextDecoder | undefined;

function decodeUtf8(bytes: Uint8Array): string {
  try {
    utf8 ??= new TextDecoder('utf-8', { fatal: true });
    return utf8.decode(bytes);
  } catch (error) {
    throw new ContinuationError('INVALID_JSON', 'Continuation bytes are not valid UTF-8.', { cause: error });
  }
}

/**
 * The format tag and version of a continuation and, through pending `agent` entries, of every
 * child, checked (and migrated) before the schema, so that a newer version at any depth reads as
 * `UNSUPPORTED_VERSION`, not as a schema error. Iterative: the walk already bounded the depth.
 */
function checkHeaders(root: unknown, rootPath: Array<string | number>): Record<string, unknown> {
  const queue: Array<{ value: unknown; path: Array<string | number>; set?: (v: unknown) => void }> = [
    { value: root, path: rootPath },
  ];
  let top: Record<string, unknown> | undefined;
  while (queue.length > 0) {
    const { value, path, set } = queue.pop()!;
    const record = checkHeader(value, path);
    if (set) set(record);
    else top = record;
    const pending = record.pending;
    if (!Array.isArray(pending)) continue;
    pending.forEach((entry: unknown, i) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return;
      const holder = entry as Record<string, unknown>;
      if (!Object.hasOwn(holder, 'child') || holder.kind !== 'agent') return;
      queue.push({
        value: holder.child,
        path: [...path, 'pending', i, 'child'],
        set: (migrated) => {
          holder.child = migrated;
        },
      });
    });
  }
  return top!;
}

function checkHeader(value: unknown, path: Array<string | number>): Record<string, unknown> {
  const where = jsonPath(path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ContinuationError(
      path.length === 0 ? 'INVALID_FORMAT' : 'INVALID_CONTINUATION',
      `${path.length === 0 ? 'A continuation' : `The child continuation at ${where}`} must be a JSON object, not ${describeValue(value)}.`,
      { path: where },
    );
  }
  let record = value as Record<string, unknown>;
  if (record.format !== FORMAT) {
    const at = jsonPath([...path, 'format']);
    throw new ContinuationError(
      'INVALID_FORMAT',
      `Not a continuation: "format" at ${at} is ${describeValue(record.format)}, expected "${FORMAT}".`,
      { path: at },
    );
  }
  const version = record.version;
  const at = jsonPath([...path, 'version']);
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ContinuationError(
      'UNSUPPORTED_VERSION',
      `Invalid continuation version ${describeValue(version)} at ${at}.`,
      { path: at },
    );
  }
  if (version > CURRENT_VERSION) {
    throw new ContinuationError(
      'UNSUPPORTED_VERSION',
      `Continuation format version ${version} is newer than this library reads (up to ${CURRENT_VERSION}), at ${at}; upgrade @agent-continuations/core.`,
      { path: at, details: { version, supported: SUPPORTED_VERSIONS } },
    );
  }
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new ContinuationError(
      'UNSUPPORTED_VERSION',
      `Continuation format version ${version} at ${at} is not supported.`,
      { path: at, details: { version, supported: SUPPORTED_VERSIONS } },
    );
  }
  for (let v = version; v < CURRENT_VERSION; v++) {
    const migrate = MIGRATIONS[v];
    if (!migrate)
      throw new ContinuationError('UNSUPPORTED_VERSION', `No migration from version ${v}.`, { path: at });
    record = migrate(record);
  }
  return record;
}

/** The schema's first complaint, as precisely as it can be told: the deepest branch of a union. */
function invalid(issue: SchemaIssue): ContinuationError {
  const where = jsonPath(issue.path);
  const message = issue.message.length > 120 ? `${issue.message.slice(0, 120)}…` : issue.message;
  return new ContinuationError('INVALID_CONTINUATION', `Invalid continuation at ${where}: ${message}.`, {
    path: where,
    details: [{ code: issue.code, path: where }],
  });
}
