import {
  type Continuation,
  ContinuationError,
  isContinuationError,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { fixtureAgents } from './fixtures/agents';
import { validFixture, validFixtureNames } from './fixtures/corpus';

const nestedText = validFixture('nested-depth-3.json');

describe('parseContinuation input forms', () => {
  it('reads a string, a parsed object and UTF-8 bytes to the same continuation', () => {
    const fromString = parseContinuation(nestedText);
    const fromObject = parseContinuation(JSON.parse(nestedText));
    const fromBytes = parseContinuation(new TextEncoder().encode(nestedText));
    expect(fromObject).toEqual(fromString);
    expect(fromBytes).toEqual(fromString);
    expect(fromString.pending[0]?.kind).toBe('agent');
  });

  it('reads bytes with non-ASCII text intact', () => {
    const source = JSON.parse(validFixture('flat-approval.json'));
    source.metadata = { note: 'Zoë paid 5 € 🚀 \u2028 end' };
    const parsed = parseContinuation(new TextEncoder().encode(JSON.stringify(source)));
    expect(parsed.metadata.note).toBe('Zoë paid 5 € 🚀 \u2028 end');
  });

  it('leaves an object input untouched', () => {
    const input = JSON.parse(nestedText);
    const before = JSON.stringify(input);
    parseContinuation(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('refuses values that are not a continuation at all, with a typed error', () => {
    for (const value of [null, undefined, 42, true, [], 'null', '"text"', new Uint8Array([0xff, 0xfe])]) {
      let caught: unknown;
      try {
        parseContinuation(value);
      } catch (error) {
        caught = error;
      }
      expect(isContinuationError(caught), `for ${String(value)}`).toBe(true);
    }
  });
});

describe('serializeContinuation', () => {
  it.each(validFixtureNames())('%s: output does not depend on the key order of the format', (name) => {
    const value = JSON.parse(validFixture(name));
    const reversedKeys = reverseKeys(value) as unknown as Continuation;
    expect(Object.keys(reversedKeys)[0]).not.toBe(Object.keys(value)[0]);
    expect(serializeContinuation(reversedKeys)).toBe(serializeContinuation(value));
  });

  it("keeps the key order of tool arguments, outputs and metadata: they are the model's and the user's own", () => {
    const value = JSON.parse(validFixture('parallel-pending.json'));
    value.metadata = { zeta: 1, alpha: { y: 2, b: 3 } };
    const text = serializeContinuation(parseContinuation(value));
    expect(text).toContain('"args":{"to":"carol","amount":500}');
    expect(text).toContain('"metadata":{"zeta":1,"alpha":{"y":2,"b":3}}');
    expect(text).toContain('"output":{"account":"acc-9","balance":1200}');
  });

  it.each(validFixtureNames())('%s: round trips, and serialize(parse(x)) is idempotent', (name) => {
    const first = serializeContinuation(parseContinuation(validFixture(name)));
    const again = serializeContinuation(parseContinuation(first));
    expect(again).toBe(first);
    expect(parseContinuation(first)).toEqual(parseContinuation(validFixture(name)));
  });

  it('writes sorted keys with no white space, and nested children as JSON, not JSON-in-a-string', () => {
    const text = serializeContinuation(parseContinuation(nestedText));
    expect(text).not.toMatch(/\n|": /);
    const parsed = JSON.parse(text);
    for (const keys of [
      Object.keys(parsed),
      Object.keys(parsed.pending[0]),
      Object.keys(parsed.pending[0].child),
    ]) {
      expect(keys).toEqual([...keys].sort());
    }
    // A child stored as an escaped string would show as `"child":"{\"...`.
    expect(text).toContain('"child":{"agent":{');
    expect(text).not.toContain('\\"');
  });

  it('round trips a continuation fresh from the engine, which still resumes after it', async () => {
    const agents = fixtureAgents();
    const run = await agents.hr.run('Give ann a raise');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    const text = serializeContinuation(run.continuation);
    expect(parseContinuation(text)).toEqual(JSON.parse(JSON.stringify(run.continuation)));
    const resumed = await fixtureAgents().hr.resume(text, { [run.actions[0]!.id]: { type: 'approve' } });
    expect(resumed.status).toBe('completed');
  });
});

describe('parse errors are typed and say what is wrong', () => {
  const flat = () => JSON.parse(validFixture('flat-approval.json'));

  it('INVALID_JSON names the JSON problem and hints at truncation', () => {
    const error = caught(() => parseContinuation(validFixture('flat-approval.json').slice(0, 100)));
    expect(error.code).toBe('INVALID_JSON');
    expect(error.message).toMatch(/not valid JSON.*truncated/);
  });

  it('UNSUPPORTED_VERSION for a newer version tells to upgrade', () => {
    const error = caught(() => parseContinuation({ ...flat(), version: 7 }));
    expect(error.code).toBe('UNSUPPORTED_VERSION');
    expect(error.message).toContain('version 7 is newer');
    expect(error.message).toContain('upgrade @agent-continuations/core');
    expect(error.path).toBe('$.version');
  });

  it('INVALID_FORMAT quotes the wrong tag', () => {
    const error = caught(() => parseContinuation({ ...flat(), format: 'something-else' }));
    expect(error.code).toBe('INVALID_FORMAT');
    expect(error.message).toContain('"something-else"');
  });

  it('INVALID_CONTINUATION points at the field, also deep inside a child', () => {
    const value = JSON.parse(nestedText);
    value.pending[0].child.pending[0].child.step = -1;
    const error = caught(() => parseContinuation(value));
    expect(error.code).toBe('INVALID_CONTINUATION');
    expect(error.path).toBe('$.pending[0].child.pending[0].child.step');
    expect(error.message).toContain('$.pending[0].child.pending[0].child.step');
  });

  it("UNSAFE_KEY names the key and where it is, in the format's own objects", () => {
    const text = validFixture('nested-depth-3.json').replace(
      '"usage": {',
      '"usage": {"__proto__": {"admin": true},',
    );
    const error = caught(() => parseContinuation(text));
    expect(error.code).toBe('UNSAFE_KEY');
    expect(error.message).toContain('"__proto__"');
    expect(error.path).toBe('$.pending[0].child.pending[0].child.usage.__proto__');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a __proto__ key in metadata is data: kept as an own property, never a prototype', () => {
    const text = validFixture('nested-depth-3.json').replace(
      '"metadata": {}',
      '"metadata": {"__proto__": {"admin": true}}',
    );
    const parsed = parseContinuation(text);
    expect(Object.hasOwn(parsed.metadata, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(parsed.metadata)).toBe(Object.prototype);
    expect(serializeContinuation(parsed)).toContain('"metadata":{"__proto__":{"admin":true}}');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('absurd nesting is refused with a typed error, not a stack overflow', () => {
    const depth = 100_000;
    const text = JSON.stringify({ ...flat(), metadata: { deep: 'DEEP' } }).replace(
      '"DEEP"',
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
    );
    const error = caught(() => parseContinuation(text));
    expect(error.code).toBe('INVALID_CONTINUATION');
    expect(error.message).toContain('nested deeper');
  });

  it('errors are ContinuationError instances named after their class', () => {
    const error = caught(() => parseContinuation('{'));
    expect(error).toBeInstanceOf(ContinuationError);
    expect(error.name).toBe('ContinuationError');
  });
});

function caught(fn: () => unknown): ContinuationError {
  try {
    fn();
  } catch (error) {
    if (isContinuationError(error)) return error;
    throw new Error(`expected a ContinuationError, got ${String(error)}`);
  }
  throw new Error('expected an error, nothing was thrown');
}

/**
 * The same continuation with the keys of every object the format defines in reverse order; the
 * JSON inside (arguments, outputs, metadata) is left as it is, since its order is the user's.
 */
function reverseKeys(continuation: Record<string, unknown>): Record<string, unknown> {
  const list = (value: unknown, each: (item: any) => unknown) => (value as unknown[]).map(each);
  const structural: Record<string, (value: any) => unknown> = {
    agent: reversed,
    usage: reversed,
    suspendedBy: reversed,
    seal: reversed,
    done: (value) => list(value, reversed),
    decisions: (value) => list(value, reversed),
    messages: (value) =>
      list(value, (message) =>
        reversed({
          ...message,
          content: Array.isArray(message.content) ? list(message.content, reversed) : message.content,
        }),
      ),
    pending: (value) =>
      list(value, (entry) => reversed(entry.child ? { ...entry, child: reverseKeys(entry.child) } : entry)),
  };
  return reversed(
    Object.fromEntries(
      Object.entries(continuation).map(([key, value]) => [
        key,
        structural[key] ? structural[key](value) : value,
      ]),
    ),
  );
}

function reversed<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).reverse()) as T;
}
