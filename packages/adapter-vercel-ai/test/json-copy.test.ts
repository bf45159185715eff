import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../src/json-copy';

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value) as string) as unknown;

describe('jsonCopy', () => {
  it('gives what a JSON round trip gives, for any value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withSparseArray: true,
        }),
        (value) => {
          let expected: unknown;
          try {
            expected = roundTrip(value);
          } catch (error) {
            expect(() => jsonCopy(value)).toThrow((error as Error).constructor as never);
            return;
          }
          expect(jsonCopy(value)).toStrictEqual(expected);
        },
      ),
    );
  });

  it('drops undefined members, writes -0 and non-finite numbers as the text does, and keeps __proto__ a member', () => {
    const value = JSON.parse('{"__proto__":{"a":1}}') as Record<string, unknown>;
    const copy = jsonCopy({
      a: undefined,
      b: [undefined, () => 1, Number.NaN],
      c: -0,
      d: Infinity,
      e: value,
    }) as Record<string, unknown>;
    expect(copy).toStrictEqual({ b: [null, null, null], c: 0, d: null, e: roundTrip(value) });
    expect(Object.is(copy.c, 0)).toBe(true);
    expect(Object.getPrototypeOf(copy.e)).toBe(Object.prototype);
    expect(Object.hasOwn(copy.e as object, '__proto__')).toBe(true);
  });

  it('calls toJSON with the member key, as JSON.stringify does', () => {
    const keys: string[] = [];
    const dated = {
      toJSON: (key: string) => {
        keys.push(key);
        return key === 'skip' ? undefined : `at ${key}`;
      },
    };
    expect(jsonCopy({ when: dated, skip: dated, list: [dated] })).toStrictEqual({
      when: 'at when',
      list: ['at 0'],
    });
    expect(keys).toStrictEqual(['when', 'skip', '0']);
    expect(jsonCopy(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  it('fails as the round trip does on a cycle, a BigInt and a bare function', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    expect(() => jsonCopy(() => 1)).toThrow(SyntaxError);
  });
});
