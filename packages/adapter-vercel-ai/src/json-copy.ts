/**
 * `jsonCopy(value)`: what `JSON.parse(JSON.stringify(value))` gives, made without the text in
 * between for plain data (plain objects, arrays, strings, finite numbers, booleans, null). Any
 * other value (a `Date`, a class instance, anything with `toJSON`, a very deep or cyclic value)
 * goes through JSON text, so the result, and the error, are the round trip's.
 */
export function jsonCopy(value: unknown): unknown {
  const copy = copyOf(value, '', 0);
  return copy === DROPPED ? JSON.parse(JSON.stringify(value) as string) : copy;
}

/** A member the round trip leaves out (in an array it becomes `null`). */
const DROPPED: unique symbol = Symbol('dropped');

/** Past this depth the copy goes through JSON text, which reports a cycle as the round trip does. */
const DEEPEST = 64;

function copyOf(value: unknown, key: string, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // `-0` is written as `0`; NaN and the infinities as `null`.
      return Number.isFinite(value) ? value + 0 : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return DROPPED;
    case 'object':
      if (value === null) return null;
      if (depth < DEEPEST && !('toJSON' in value)) {
        if (Array.isArray(value)) return arrayCopy(value, depth);
        const prototype = Object.getPrototypeOf(value);
        if (prototype === Object.prototype || prototype === null) return objectCopy(value, depth);
      }
      return throughText(value, key);
    default:
      return throughText(value, key);
  }
}

function arrayCopy(value: readonly unknown[], depth: number): unknown[] {
  const copy = new Array<unknown>(value.length);
  for (let index = 0; index < value.length; index++) {
    const item = copyOf(value[index], String(index), depth + 1);
    copy[index] = item === DROPPED ? null : item;
  }
  return copy;
}

function objectCopy(value: object, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copyOf((value as Record<string, unknown>)[key], key, depth + 1);
    if (member === DROPPED) continue;
    // `JSON.parse` makes `__proto__` an own member; an assignment would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: member,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = member;
  }
  return copy;
}

/** The round trip itself, with `toJSON` called with the member's own key. */
function throughText(value: unknown, key: string): unknown {
  const text = JSON.stringify({ [key]: value });
  const parsed = JSON.parse(text) as Record<string, unknown>;
  return Object.hasOwn(parsed, key) ? parsed[key] : DROPPED;
}
