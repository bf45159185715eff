/**
 * Canonical JSON: keys sorted, no white space, `undefined` members left out. One pass over the
 * value, so the cost is linear in its size.
 *
 * `preserveOrderUnder` names members whose values are the user's or the model's own JSON (tool
 * arguments, outputs, metadata): their key order is kept as given, so a resumed conversation sends
 * the provider the same bytes it produced (prompt caches keep hitting). Order within them is
 * already deterministic, since JSON parsing keeps it.
 *
 * A `__proto__` key is written like any other: it is data (an own property, as `JSON.parse` makes).
 */
import { ContinuationError } from './errors';
import type { JsonValue } from './json';
import { copyJson, jsonPath, MAX_JSON_DEPTH } from './json';

/** Options of {@link canonicalJson}. */
export interface CanonicalOptions {
  /** Members whose values keep their own key order (see the module comment). */
  preserveOrderUnder?: ReadonlySet<string>;
  /**
   * Refuse what JSON would change silently: objects that are not plain (a `Date`, a `Map`...) and
   * nesting deeper than a parse accepts. Continuations are written this way, so that whatever is
   * written can be read back.
   */
  strict?: boolean;
}

/**
 * Encode a JSON value canonically (stable key order), for storage and for sealing. A value that
 * JSON cannot hold (a bigint, a function, `NaN`) is refused with `INVALID_JSON`, naming where.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown, options: CanonicalOptions = {}): string {
  const out = { text: '' };
  write(value, out, options, true, [], 0);
  return out.text;
}

/** The text written so far (appending to one string is cheaper than joining many pieces). */
interface Out {
  text: string;
}

function write(
  value: unknown,
  out: Out,
  options: CanonicalOptions,
  sort: boolean,
  path: Array<string | number>,
  depth: number,
): void {
  if (value === null) {
    out.text += 'null';
    return;
  }
  switch (typeof value) {
    case 'string':
      out.text += JSON.stringify(value);
      return;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(`the number ${value}`, path);
      out.text += JSON.stringify(value);
      return;
    case 'boolean':
      out.text += value ? 'true' : 'false';
      return;
    case 'object':
      break;
    default:
      throw notJson(`a ${typeof value}`, path);
  }
  if (depth > MAX_JSON_DEPTH) {
    throw new ContinuationError(
      'INVALID_JSON',
      `Cannot encode JSON nested deeper than ${MAX_JSON_DEPTH} levels (or cyclic) at ${jsonPath(path)}.`,
      { path: jsonPath(path) },
    );
  }
  if (Array.isArray(value)) {
    out.text += '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.text += ',';
      const item = value[i];
      path.push(i);
      write(item === undefined ? null : item, out, options, sort, path, depth + 1);
      path.pop();
    }
    out.text += ']';
    return;
  }
  if (options.strict) {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw notJson(
        `a ${(prototype as { constructor?: { name?: string } }).constructor?.name ?? 'non-plain object'}`,
        path,
      );
    }
  }
  const record = value as Record<string, unknown>;
  const keys = sort ? Object.keys(record).sort() : Object.keys(record);
  out.text += '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out.text += ',';
    first = false;
    out.text += `${JSON.stringify(key)}:`;
    path.push(key);
    write(member, out, options, sort && !options.preserveOrderUnder?.has(key), path, depth + 1);
    path.pop();
  }
  out.text += '}';
}

function notJson(kind: string, path: ReadonlyArray<string | number>): ContinuationError {
  const where = jsonPath(path);
  return new ContinuationError('INVALID_JSON', `Cannot encode ${kind} as JSON at ${where}.`, { path: where });
}

/**
 * A deep copy of a JSON value (structuredClone would also copy non-JSON values silently). Keys
 * such as `__proto__` stay own data properties; anything that is not JSON is refused with
 * `INVALID_JSON`.
 *
 * @example
 * ```ts
 * const args = cloneJson(decision.args);
 * ```
 */
export function cloneJson<T extends JsonValue>(value: T): T {
  return copyJson(value);
}

/**
 * Members of a continuation holding the user's or the model's own JSON: written in their own key
 * order, and inside them any key (`__proto__` included) is data.
 */
export const PAYLOAD_KEYS: ReadonlySet<string> = new Set([
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

/** A continuation's canonical text: the format's keys sorted, payloads in their own order. */
export function continuationText(value: unknown): string {
  return canonicalJson(value, { preserveOrderUnder: PAYLOAD_KEYS, strict: true });
}
