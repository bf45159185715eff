/**
 * JSON values, and the one walk that checks untrusted ones: iterative (no recursion on untrusted
 * depth), bounded in depth, and treating keys such as `__proto__` as the data they are.
 */
import { ContinuationError, type ErrorCode } from '../errors';

/** Any value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * The deepest nesting of arrays and objects accepted anywhere untrusted JSON comes in
 * (continuations, decisions), as a guard against stack exhaustion. The root is at depth 0.
 */
export const MAX_JSON_DEPTH = 512;

/** How {@link checkJson} reports and what it refuses. */
export interface JsonCheck {
  /** The error code for a value that is not JSON (a bigint, a function, a `Date`...). */
  code: ErrorCode;
  /** The error code for nesting past {@link MAX_JSON_DEPTH} (or a cycle); `code` unless told. */
  depthCode?: ErrorCode;
  /** What is checked, for messages: `Continuation`, `Decisions`. */
  what: string;
  /** The root's path; `$` unless told. */
  root?: string;
  /**
   * Members whose values are the user's or the model's own JSON. Outside them (in the format's
   * own objects), a `__proto__` key is refused as `UNSAFE_KEY`; inside them it is data. When
   * absent, every key is data.
   */
  dataKeys?: ReadonlySet<string>;
}

type Key = string | number;
interface Frame {
  value: unknown;
  depth: number;
  key: Key;
  parent: Frame | undefined;
  data: boolean;
}

/**
 * Check that `value` is JSON: strings, finite numbers, booleans, null, arrays, and objects whose
 * prototype is `Object.prototype` or null; at most {@link MAX_JSON_DEPTH} deep. `undefined`
 * members of objects are allowed (JSON leaves them out). A `__proto__` key is an own data property
 * here, never a prototype. Throws a {@link ContinuationError} that says what and where.
 *
 * @example
 * ```ts
 * checkJson(JSON.parse(body), { code: 'INVALID_DECISION', what: 'Decisions' });
 * ```
 */
export function checkJson(value: unknown, check: JsonCheck): void {
  const root = check.root ?? '$';
  const stack: Frame[] = [{ value, depth: 0, key: root, parent: undefined, data: !check.dataKeys }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const item = frame.value;
    const kind = nonJsonKind(item, frame.parent !== undefined && !Array.isArray(frame.parent.value));
    if (kind !== undefined) {
      throw new ContinuationError(
        check.code,
        `${check.what} holds ${kind} at ${pathText(frame)}, which is not JSON.`,
        { path: pathText(frame) },
      );
    }
    if (typeof item !== 'object' || item === null) continue;
    if (frame.depth > MAX_JSON_DEPTH) {
      const path = pathText(frame);
      throw new ContinuationError(
        check.depthCode ?? check.code,
        `${check.what} is nested deeper than ${MAX_JSON_DEPTH} levels (or is cyclic) at ${path}.`,
        { path },
      );
    }
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--)
        stack.push({ value: item[i], depth: frame.depth + 1, key: i, parent: frame, data: frame.data });
      continue;
    }
    const keys = Object.keys(item);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (!frame.data && key === '__proto__') {
        const path = `${pathText(frame)}${keyText(key)}`;
        throw new ContinuationError(
          'UNSAFE_KEY',
          `${check.what} has the key "__proto__" at ${path}, where only the format's own keys belong.`,
          { path },
        );
      }
      const data = frame.data || check.dataKeys!.has(key);
      stack.push({
        value: (item as Record<string, unknown>)[key],
        depth: frame.depth + 1,
        key,
        parent: frame,
        data,
      });
    }
  }
}

/**
 * A deep copy of a JSON value, checked first (see {@link checkJson}); `__proto__` keys stay own
 * data properties. Throws `INVALID_JSON` for anything that is not JSON.
 *
 * @example
 * ```ts
 * const args = copyJson(JSON.parse('{"__proto__":{"x":1}}')); // own key, prototype untouched
 * ```
 */
export function copyJson<T>(value: T, check: Partial<JsonCheck> = {}): T {
  checkJson(value, { code: 'INVALID_JSON', what: 'The value', ...check });
  // After the check, JSON text is an exact image; JSON.parse defines `__proto__` as an own property.
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Why `value` is not JSON (`a bigint`, `a Date`...), or undefined when it is, at one level. */
function nonJsonKind(value: unknown, inObject: boolean): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `the number ${String(value)}`;
    case 'undefined':
      return inObject ? undefined : 'undefined';
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      const prototype = Object.getPrototypeOf(value);
      if (prototype === Object.prototype || prototype === null) return undefined;
      const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof name === 'string' && name ? `a ${clip(name, 40)}` : 'an object with a custom prototype';
    }
    default:
      return `a ${typeof value}`;
  }
}

/**
 * A JSON path for messages: `$.pending[0].child`, keys that are not identifiers quoted, each
 * key and the whole path cut to a readable length.
 *
 * @example
 * ```ts
 * jsonPath(['messages', 1, 'content']); // '$.messages[1].content'
 * ```
 */
export function jsonPath(keys: readonly PropertyKey[], root = '$'): string {
  return clipMiddle(root + keys.map((key) => keyText(key)).join(''), 200);
}

function pathText(frame: Frame): string {
  const keys: Key[] = [];
  let f: Frame | undefined = frame;
  for (; f?.parent; f = f.parent) keys.push(f.key);
  return jsonPath(keys.reverse(), String(f?.key ?? '$'));
}

function keyText(key: PropertyKey): string {
  if (typeof key === 'number') return `[${key}]`;
  if (typeof key === 'symbol') return `[${String(key)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${clip(key, 60)}` : `[${quote(key, 60)}]`;
}

/**
 * `text` as a JSON string literal of at most about `max` characters: enough to recognise a
 * value, never a copy of a huge one.
 *
 * @example
 * ```ts
 * quote('x'.repeat(1e6)); // '"xxxx…" (1000000 characters)'
 * ```
 */
export function quote(text: string, max = 60): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (${text.length} characters)`;
}

/**
 * A short description of any value for an error message: JSON for small values, the type and
 * size for large ones.
 *
 * @example
 * ```ts
 * describeValue(42); // '42'
 * describeValue('x'.repeat(1e6)); // 'a string of 1000000 characters'
 * ```
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return value.length <= 60 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}
