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
import { ContinuationError } from '../errors';
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
  // The common case: plain JSON. A copy of the objects whose keys are sorted, built in sorted
  // order (the rest shared as they are), is then written by the engine's own JSON.stringify.
  const ordered = inOrder(value, options.preserveOrderUnder, 0);
  if (ordered !== REFUSED) return JSON.stringify(ordered);
  // Anything else takes the careful writer, which says what and where.
  const out = { text: '' };
  write(value, out, options, true, [], 0);
  return out.text;
}

/** What {@link inOrder} answers for a value that is not plain JSON. */
const REFUSED: unique symbol = Symbol('refused');

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `value` with every object whose keys are sorted rebuilt with its keys in sorted order, so that
 * `JSON.stringify` of it is the canonical text; members named in `keep` (and all below them) are
 * shared unchanged. {@link REFUSED} for anything where `JSON.stringify` and the careful writer
 * could differ: a value that is not plain JSON, nesting past the bound, or a key that looks like an
 * array index (an object lists those first, whatever the order they were added in).
 */
function inOrder(value: unknown, keep: ReadonlySet<string> | undefined, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return isPlainLeaf(value) ? value : REFUSED;
  if (depth > MAX_JSON_DEPTH) return REFUSED;
  if (Array.isArray(value)) {
    // Copied only when an item changes (`undefined` items are written as `null` either way).
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const ordered = item === undefined ? item : inOrder(item, keep, depth + 1);
      if (ordered === REFUSED) return REFUSED;
      if (ordered !== item && copy === undefined) copy = value.slice(0, i);
      if (copy !== undefined) copy[i] = ordered;
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return REFUSED;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // The format's objects have a handful of keys: an insertion sort in place beats a general sort
  // (and finds keys already in order in one pass); a large object takes the general one.
  let sorted = true;
  if (keys.length > 24) {
    for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
    if (!sorted) keys.sort();
  } else {
    for (let i = 1; i < keys.length; i++) {
      const key = keys[i]!;
      let j = i - 1;
      if (keys[j]! < key) continue;
      sorted = false;
      for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
      keys[j + 1] = key;
    }
  }
  // An object already in order (as every one read from canonical text is) is shared, unless a
  // member changes; else it is rebuilt with its keys added in order.
  let copy: Record<string, unknown> | undefined = sorted ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = record[key];
    if (member === undefined) continue;
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57) return REFUSED;
    const ordered = keep?.has(key)
      ? isPlainJson(member, depth + 1)
        ? member
        : REFUSED
      : inOrder(member, keep, depth + 1);
    if (ordered === REFUSED) return REFUSED;
    if (copy === undefined) {
      if (ordered === member) continue;
      copy = {};
      for (let j = 0; j < i; j++) put(copy, keys[j]!, record[keys[j]!]);
    }
    if (key === '__proto__') put(copy, key, ordered);
    else copy[key] = ordered;
  }
  return copy ?? record;
}

/** Set a member; an own `__proto__` member stays data, as `JSON.parse` makes it (assignment would not). */
function put(record: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) return;
  if (key === '__proto__') {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  } else record[key] = value;
}

function isPlainLeaf(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    default:
      return value === null;
  }
}

/**
 * Whether `JSON.stringify` writes `value` exactly as the careful writer does in its own key
 * order: plain objects and arrays, finite numbers, nesting within the bound. `undefined` is left
 * out of objects and written as `null` in arrays by both.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return isPlainLeaf(value);
  if (depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item !== undefined && !isPlainJson(item, depth + 1)) return false;
    }
    return true;
  }
  if (!isPlainObject(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (member !== undefined && !isPlainJson(member, depth + 1)) return false;
  }
  return true;
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
