/**
 * Canonical JSON has two writers: `JSON.stringify` over a copy in key order, for plain JSON, and a
 * careful one for everything else. Whichever writes it, the text is canonical JSON as spelled out
 * plainly here, and what is not JSON is refused.
 */
import {
  ContinuationError,
  canonicalJson,
  isContinuationError,
  serializeContinuation,
} from '@agent-continuations/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { continuationText, PAYLOAD_KEYS } from '../src/format/canonical';

const SEED = 20_261_201;

const key = fc.oneof(
  fc.constantFrom(
    'a',
    'b',
    'B',
    'é',
    '\u{1F600}',
    '',
    'args',
    'output',
    'metadata',
    'state',
    '__proto__',
    'x1',
  ),
  fc.string({ maxLength: 4 }),
);

/** Plain JSON with unsorted keys, `undefined` members and items, and payload members. */
const plain = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.array(fc.oneof(tie('value'), fc.constant(undefined)), { maxLength: 4 }),
    fc.array(fc.tuple(key, fc.oneof(tie('value'), fc.constant(undefined))), { maxLength: 5 }).map(object),
  ),
})).value;

/** Values that are not plain JSON: one of them anywhere sends the whole value to the careful writer. */
const odd = fc.constantFrom<unknown>(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  10n,
  Symbol('s'),
  () => 1,
  new Date(0),
  new Map(),
  Object.assign(Object.create(null), { z: 1, a: 2 }),
  { toJSON: () => 'x' },
  { '2': 'b', '10': 'a', c: 1 },
  { '01': 1, a: 2 },
);

const mixed = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    plain,
    odd,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map(object),
  ),
})).value;

/** An object with these members in this order; `__proto__` as an own member, as JSON.parse makes it. */
function object(entries: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of entries)
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** The text, or `error <code>` when writing is refused. */
function outcome(write: () => string): string {
  try {
    return write();
  } catch (error) {
    if (!isContinuationError(error)) throw error;
    return `error ${error.code}`;
  }
}

/** `value` written at `$.v`: `{"v":...}`. */
function written(value: unknown, keep?: ReadonlySet<string>): string {
  return outcome(() => canonicalJson({ v: value }, { preserveOrderUnder: keep, strict: true }));
}

/** What canonical JSON is, spelled out plainly: the expected text of {@link written}. */
function expected(value: unknown, keep?: ReadonlySet<string>): string {
  return outcome(() => `{"v":${spelled(value, keep, true, 1)}}`);
}

function spelled(
  value: unknown,
  keep: ReadonlySet<string> | undefined,
  sort: boolean,
  depth: number,
): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  const prototype = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  const plain = Array.isArray(value) || prototype === Object.prototype || prototype === null;
  if (!plain || depth > 512) throw new ContinuationError('INVALID_JSON', 'not JSON');
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : spelled(item, keep, sort, depth + 1))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((name) => record[name] !== undefined);
  if (sort) keys.sort();
  const members = keys.map(
    (name) => `${JSON.stringify(name)}:${spelled(record[name], keep, sort && !keep?.has(name), depth + 1)}`,
  );
  return `{${members.join(',')}}`;
}

describe('canonical JSON', () => {
  it('writes plain JSON exactly as the careful writer does', () => {
    fc.assert(
      fc.property(plain, fc.boolean(), (value, payloads) => {
        const keep = payloads ? PAYLOAD_KEYS : undefined;
        expect(written(value, keep)).toBe(expected(value, keep));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('writes or refuses any value as the careful writer does', () => {
    fc.assert(
      fc.property(mixed, fc.boolean(), (value, payloads) => {
        const keep = payloads ? PAYLOAD_KEYS : undefined;
        expect(written(value, keep)).toBe(expected(value, keep));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('refuses nesting past the bound alike, inside payloads too', () => {
    for (const depth of [509, 510, 511, 512, 513]) {
      expect(written(nest(depth))).toBe(expected(nest(depth)));
      expect(written({ args: nest(depth) }, PAYLOAD_KEYS)).toBe(
        expected({ args: nest(depth) }, PAYLOAD_KEYS),
      );
    }
    expect(written(nest(520))).toBe('error INVALID_JSON');
  });

  it('sorts the format’s keys and keeps the payloads’ own order', () => {
    const value = { b: 1, a: { z: 1, y: 2 }, args: { z: 1, y: [{ d: 1, c: 2 }] } };
    expect(continuationText(value)).toBe('{"a":{"y":2,"z":1},"args":{"z":1,"y":[{"d":1,"c":2}]},"b":1}');
    // A value read back from canonical text is written unchanged, and so is the same object again.
    const parsed = JSON.parse(continuationText(value));
    expect(continuationText(parsed)).toBe(continuationText(value));
    expect(serializeContinuation(parsed)).toBe(continuationText(value));
    // Objects of many keys, in order and not.
    const names = Array.from({ length: 40 }, (_, i) => `k${String.fromCharCode(122 - i)}${i}`);
    for (const order of [names, [...names].sort(), [...names].reverse()]) {
      const wide = Object.fromEntries(order.map((name, i) => [name, { b: i, a: [i] }]));
      expect(written(wide)).toBe(expected(wide));
    }
  });
});
