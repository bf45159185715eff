/**
 * Property, at scale: over 20,000 random mutations (12,000 runs of one to three each) of a valid
 * three-level continuation with parallel calls at every level. Each one either parses and writes back exactly what it read, or is refused
 * with a typed error; never a TypeError, a RangeError, a polluted prototype or a hang. A sample of
 * those that parse is then resumed with every action decided: no call runs twice, none whose
 * result the continuation already held runs again, and the unchanged ones run exactly the seven
 * approved calls. Fixed seed; `MUTATION_RUNS` overrides the count.
 */
import {
  type Continuation,
  type Decisions,
  isContinuationError,
  listActions,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depth3 } from './fixtures/depth3';
import {
  jsonText,
  type MutationStep,
  mutate,
  mutateText,
  pathsOf,
  position,
  textMutation,
} from './fixtures/mutations';

const SEED = 20_261_201;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const RUNS = Number(process.env.MUTATION_RUNS ?? 12_000);
/** At most this many parsed mutants are resumed (each resume runs three agents). */
const RESUMES = 600;

/** Cheap junk: values JSON has no form for, and small JSON. */
const junk = fc.oneof(
  fc.constantFrom<unknown>(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -0,
    undefined,
    2n ** 64n,
    Symbol('s'),
    () => 1,
    new Date(0),
    new Map(),
    null,
    '',
    [],
    {},
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const step: fc.Arbitrary<MutationStep> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: position }),
  fc.record({ kind: fc.constant('replace' as const), at: position, value: junk }),
  fc.record({ kind: fc.constant('retype' as const), at: position }),
  fc.record({ kind: fc.constant('proto' as const), at: position, value: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({
    kind: fc.constant('deep' as const),
    at: position,
    depth: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 600 }), weight: 9 },
      { arbitrary: fc.constant(1000), weight: 1 },
    ),
    array: fc.boolean(),
  }),
  // Changes inside the JSON a continuation carries: these keep it valid.
  fc.record({ kind: fc.constant('payload' as const), at: position, value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({
    kind: fc.constant('dataKey' as const),
    at: position,
    key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
    value: fc.jsonValue({ maxDepth: 1 }),
  }),
);

const scenario = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 2 }),
  textMutations: fc.array(textMutation, { minLength: 0, maxLength: 1 }),
  form: fc.constantFrom('object' as const, 'string' as const, 'bytes' as const),
  resume: fc.nat({ max: 9 }),
});

/** Approve every approval, answer every input request. */
function decideAll(continuation: Continuation): Decisions {
  const decisions: Decisions = {};
  for (const action of listActions(continuation)) {
    decisions[action.id] = action.kind === 'approval' ? { type: 'approve' } : { type: 'input', value: 'yes' };
  }
  return decisions;
}

/** The idempotency keys of the calls whose results a continuation holds, at every depth. */
function doneKeys(continuation: Continuation, out = new Set<string>()): Set<string> {
  for (const entry of continuation.done) out.add(`${continuation.runId}:${entry.toolCallId}`);
  for (const entry of continuation.pending) if (entry.kind === 'agent') doneKeys(entry.child, out);
  return out;
}

describe('over 20,000 mutations of a three-level continuation with parallel calls', () => {
  it('each is a typed refusal or a faithful round trip; resumed, no call runs twice', async () => {
    const started = performance.now();
    // One tree resumes every sample: its models decide from the transcript alone.
    const tree = depth3();
    const run = await tree.ops.run('go');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    expect(run.actions).toHaveLength(7);
    expect(tree.executed).toHaveLength(3);
    const baseText = serializeContinuation(run.continuation);
    const basePaths = pathsOf(JSON.parse(baseText));

    const counts = { mutations: 0, parsed: 0, unchanged: 0, refused: new Map<string, number>() };
    const toResume: Array<{ continuation: Continuation; unchanged: boolean }> = [];
    fc.assert(
      fc.property(scenario, ({ steps, textMutations, form, resume }) => {
        counts.mutations += steps.length + textMutations.length;
        let value: unknown = JSON.parse(baseText);
        steps.forEach((each, i) => {
          value = mutate(value, each, i === 0 ? basePaths : undefined);
        });
        let input: unknown = value;
        let source: unknown = value;
        const text = textMutations.length > 0 || form !== 'object' ? jsonText(value) : undefined;
        if (text !== undefined) {
          let mutated = text;
          for (const each of textMutations) mutated = mutateText(mutated, each);
          input = form === 'bytes' ? encoder.encode(mutated) : mutated;
          // Bytes carry a lone surrogate as U+FFFD: compare with what they say.
          source = form === 'bytes' ? decoder.decode(input as Uint8Array) : mutated;
        }
        let parsed: Continuation;
        try {
          parsed = parseContinuation(input);
        } catch (error) {
          if (!isContinuationError(error)) throw error;
          if (error.message.length >= 500)
            throw new Error(`an unbounded message: ${error.message.slice(0, 500)}`);
          counts.refused.set(error.code, (counts.refused.get(error.code) ?? 0) + 1);
          return;
        }
        counts.parsed++;
        const written = serializeContinuation(parsed);
        if (serializeContinuation(parseContinuation(written)) !== written)
          throw new Error(`no round trip: ${written}`);
        // Nothing dropped or changed on the way in.
        const read = serializeContinuation(
          (typeof source === 'string' ? JSON.parse(source) : source) as Continuation,
        );
        if (read !== written) throw new Error(`changed on the way in: ${read} became ${written}`);
        const unchanged = written === baseText;
        if (unchanged) counts.unchanged++;
        if ((resume === 0 || unchanged) && toResume.length < RESUMES)
          toResume.push({ continuation: parsed, unchanged });
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const outcomes = new Map<string, number>();
    for (const { continuation, unchanged } of toResume) {
      tree.executed.length = 0;
      let status: string;
      try {
        status = (await tree.ops.resume(continuation, decideAll(continuation))).status;
      } catch (error) {
        if (!isContinuationError(error)) {
          throw new Error(`an untyped error resuming ${serializeContinuation(continuation)}`, {
            cause: error,
          });
        }
        status = error.code;
      }
      outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
      // No call ran twice, and none whose result the continuation already held.
      expect(new Set(tree.executed).size, serializeContinuation(continuation)).toBe(tree.executed.length);
      const done = doneKeys(continuation);
      for (const key of tree.executed) expect(done.has(key), key).toBe(false);
      if (unchanged) {
        // The seven approved calls, each once; the three done ones not again.
        expect(status).toBe('completed');
        expect(tree.executed).toHaveLength(7);
      }
    }

    if (RUNS >= 12_000) expect(counts.mutations).toBeGreaterThanOrEqual(20_000);
    expect(counts.parsed).toBeGreaterThan(RUNS / 10);
    expect(outcomes.get('completed') ?? 0).toBeGreaterThan(toResume.length / 4);
    expect([...counts.refused.keys()]).toEqual(
      expect.arrayContaining([
        'INVALID_CONTINUATION',
        'INVALID_FORMAT',
        'INVALID_JSON',
        'UNSAFE_KEY',
        'UNSUPPORTED_VERSION',
      ]),
    );
    console.info('mutations:', {
      runs: RUNS,
      mutations: counts.mutations,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      parsed: counts.parsed,
      unchanged: counts.unchanged,
      refused: Object.fromEntries(counts.refused),
      resumed: toResume.length,
      outcomes: Object.fromEntries(outcomes),
    });
  }, 180_000);
});
