/**
 * Canonical JSON: keys sorted, no white space, `undefined` members left out. One pass over the
 * value, so the cost is linear in its size.
 *
 * `preserveOrderUnder` names members whose values are the user's or the model's own JSON (tool
 * arguments, outputs, metadata): their key order is kept as given, so a resumed conversation sends
 * the provider the same bytes it produced (prompt caches keep hitting). Order within them is
 * already deterministic, since JSON parsing keeps it.
 */
import type { JsonValue } from './json';

/**
 * Encode a JSON value canonically (stable key order), for storage and for sealing.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(
  value: unknown,
  options: { preserveOrderUnder?: ReadonlySet<string> } = {},
): string {
  const out: string[] = [];
  write(value, out, options.preserveOrderUnder, true);
  return out.join('');
}

function write(
  value: unknown,
  out: string[],
  preserve: ReadonlySet<string> | undefined,
  sort: boolean,
): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('Cannot encode a non-finite number as JSON');
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      throw new TypeError(`Cannot encode a ${typeof value} as JSON`);
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const item = value[i];
      write(item === undefined ? null : item, out, preserve, sort);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = sort ? Object.keys(record).sort() : Object.keys(record);
  out.push('{');
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(member, out, preserve, sort && !preserve?.has(key));
  }
  out.push('}');
}

/** A deep copy of a JSON value (structuredClone would also copy non-JSON values silently). */
export function cloneJson<T extends JsonValue>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
