/**
 * The hostile-input corpus (`fixtures/hostile.ts`): every case comes to its expected typed error,
 * before anything runs, or parses and writes back what it read.
 */
import {
  canonicalJson,
  checkDecisions,
  type Decisions,
  isContinuationError,
  openContinuation,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SEAL_SECRET, fixtureAgents } from './fixtures/agents';
import { validFixture } from './fixtures/corpus';
import { type DecisionCase, hostileCorpus, type ParseCase } from './fixtures/hostile';

const corpus = hostileCorpus();
const parseCases = corpus.filter((each): each is ParseCase => each.kind === 'parse');
const decisionCases = corpus.filter((each): each is DecisionCase => each.kind === 'decisions');

async function outcome(run: () => unknown): Promise<{ code: string; message: string } | { value: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    if (!isContinuationError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('the hostile-input corpus', () => {
  it('holds at least 100 cases, each named once', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    expect(new Set(corpus.map((each) => each.name)).size).toBe(corpus.length);
  });

  it.each(parseCases.map((each) => [each.name, each.expect, each] as const))(
    '%s: %s',
    async (_name, expected, spec) => {
      const input = spec.input();
      const result = await outcome(() =>
        spec.sealed ? openContinuation(input, { secret: FIXTURE_SEAL_SECRET }) : parseContinuation(input),
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      if (expected !== 'ok') {
        expect(result).toMatchObject({ code: expected });
        // Says what and where, in bounded length.
        const { message } = result as { message: string };
        expect(message.length).toBeGreaterThan(20);
        expect(message.length).toBeLessThan(500);
        return;
      }
      expect(result).not.toHaveProperty('code');
      const parsed = (result as { value: Parameters<typeof serializeContinuation>[0] }).value;
      const written = serializeContinuation(parsed);
      expect(serializeContinuation(parseContinuation(written))).toBe(written);
      // Nothing was dropped or changed: the same JSON as the input, key order aside.
      const source =
        typeof input === 'string'
          ? JSON.parse(input)
          : input instanceof Uint8Array
            ? JSON.parse(new TextDecoder().decode(input))
            : input;
      expect(canonicalJson(parsed)).toBe(canonicalJson(source));
    },
  );

  it.each(decisionCases.map((each) => [each.name, each.expect, each] as const))(
    '%s: %s before anything runs',
    async (_name, expected, spec) => {
      const agents = fixtureAgents();
      const checked = await outcome(() =>
        checkDecisions(
          parseContinuation(validFixture(spec.continuation)),
          spec.decisions() as Decisions,
          agents[spec.agent].tools,
        ),
      );
      expect(checked).toMatchObject({ code: expected });
      if (spec.engineGap) return;
      const result = await outcome(() =>
        agents[spec.agent].resume(validFixture(spec.continuation), spec.decisions() as Decisions),
      );
      expect(result).toMatchObject({ code: expected });
      expect((result as { message: string }).message.length).toBeLessThan(500);
      expect(agents.counts.tools).toEqual({});
      expect(agents.counts.modelCalls()).toBe(0);
    },
  );
});
