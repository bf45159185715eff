/**
 * Property: whatever happens to a valid continuation on its way back from outside (a key lost, a
 * type changed, junk, truncation, `__proto__`, absurd nesting), `parseContinuation` either returns a
 * valid continuation or throws a ContinuationError. Never a TypeError, a RangeError or a hang.
 * The seed is fixed so CI runs the same cases every time.
 */
import { isContinuationError, parseContinuation, serializeContinuation } from '@agent-continuations/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { continuationJsonSchema } from '../scripts/continuation-json-schema';
import { FIXTURE_SEAL_SECRET } from './fixtures/agents';
import { validFixture, validFixtureNames } from './fixtures/corpus';
import { jsonText, mutate, mutateText, mutation, position, textMutation } from './fixtures/mutations';

const SEED = 20_261_130;
const bases: unknown[] = validFixtureNames().map((name) => JSON.parse(validFixture(name)));

const scenario = fc.record({
  base: fc.nat({ max: bases.length - 1 }),
  mutations: fc.array(mutation, { minLength: 0, maxLength: 4 }),
  textMutations: fc.array(textMutation, { minLength: 0, maxLength: 2 }),
  form: fc.constantFrom('object' as const, 'string' as const, 'bytes' as const),
});

describe('parseContinuation under random mutation', () => {
  it('returns a valid continuation or throws a ContinuationError, nothing else', () => {
    const outcomes = { parsed: 0, refused: new Map<string, number>() };
    fc.assert(
      fc.property(scenario, ({ base, mutations, textMutations, form }) => {
        let value = structuredClone(bases[base]);
        for (const step of mutations) value = mutate(value, step);
        let input: unknown = value;
        const text = textMutations.length > 0 || form !== 'object' ? jsonText(value) : undefined;
        if (text !== undefined) {
          let mutated = text;
          for (const step of textMutations) mutated = mutateText(mutated, step);
          input = form === 'bytes' ? new TextEncoder().encode(mutated) : mutated;
        }
        let result: ReturnType<typeof parseContinuation>;
        try {
          result = parseContinuation(input);
        } catch (error) {
          if (!isContinuationError(error)) throw error;
          expect(error.message.length).toBeGreaterThan(10);
          outcomes.refused.set(error.code, (outcomes.refused.get(error.code) ?? 0) + 1);
          return;
        }
        // A continuation that parses writes and reads back to the very same text.
        const written = serializeContinuation(result);
        expect(serializeContinuation(parseContinuation(written))).toBe(written);
        outcomes.parsed++;
      }),
      { seed: SEED, numRuns: 1000 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The mutations reach every stage of the pipeline, and some leave a valid continuation.
    expect(outcomes.parsed).toBeGreaterThan(0);
    expect([...outcomes.refused.keys()].sort()).toEqual(
      expect.arrayContaining([
        'INVALID_CONTINUATION',
        'INVALID_FORMAT',
        'INVALID_JSON',
        'UNSAFE_KEY',
        'UNSUPPORTED_VERSION',
      ]),
    );
  });
});

describe('the published JSON Schema under random mutation', () => {
  it('accepts every JSON text the library accepts, and refuses what the library refuses for its shape', () => {
    const validate = new Ajv2020({ strict: true, validateFormats: false }).compile(continuationJsonSchema());
    const jsonMutation = fc.oneof(
      // Depth stays past the library's limit (512) but within what a recursive validator can walk.
      mutation
        .filter((step) => step.kind !== 'replace')
        .map((step) => (step.kind === 'deep' ? { ...step, depth: 1 + (step.depth % 700) } : step)),
      fc.record({
        kind: fc.constant('replace' as const),
        at: position,
        value: fc.jsonValue({ maxDepth: 3 }),
      }),
    );
    let agreedValid = 0;
    fc.assert(
      fc.property(
        fc.nat({ max: bases.length - 1 }),
        fc.array(jsonMutation, { minLength: 1, maxLength: 3 }),
        (base, mutations) => {
          let value = structuredClone(bases[base]);
          for (const step of mutations) value = mutate(value, step);
          const text = JSON.stringify(value);
          const schemaAccepts = validate(JSON.parse(text));
          let code: string | undefined;
          let rule: unknown;
          try {
            parseContinuation(text);
          } catch (error) {
            if (!isContinuationError(error)) throw error;
            code = error.code;
            rule = (error.details as { rule?: unknown } | undefined)?.rule;
          }
          if (code === undefined) {
            expect(schemaAccepts, 'the library accepted what the JSON Schema refuses').toBe(true);
            agreedValid++;
          } else if (schemaAccepts) {
            // Only the guards a schema cannot state tell them apart: `__proto__` in the format's own
            // objects, absurd depth, and parts that contradict each other.
            expect(['UNSAFE_KEY', 'INVALID_CONTINUATION']).toContain(code);
            if (code === 'INVALID_CONTINUATION' && rule === undefined)
              expect(text.length).toBeGreaterThan(1000);
          }
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
    expect(agreedValid).toBeGreaterThan(0);
  });
});

describe('a sealed continuation under random mutation', () => {
  it('verifies only when unchanged; any change that still parses fails the seal check', async () => {
    const sealedText = validFixture('sealed-approval.json');
    const original = serializeContinuation(parseContinuation(sealedText));
    let changed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 2 }), async (mutations) => {
        let value: unknown = JSON.parse(sealedText);
        for (const step of mutations) value = mutate(value, step);
        let parsed: ReturnType<typeof parseContinuation>;
        try {
          parsed = parseContinuation(value);
        } catch (error) {
          if (!isContinuationError(error)) throw error;
          return;
        }
        const verified = parseContinuation(value, { secret: FIXTURE_SEAL_SECRET }).then(
          () => 'ok',
          (error: unknown) => (isContinuationError(error) ? error.code : `untyped: ${String(error)}`),
        );
        if (serializeContinuation(parsed) === original) {
          expect(await verified).toBe('ok');
        } else {
          changed++;
          expect(['SEAL_MISMATCH', 'SEAL_MISSING']).toContain(await verified);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    expect(changed).toBeGreaterThan(0);
  });
});
