/**
 * The seeded fault simulation (issue 11) on this adapter: a custom graph and the prebuilt ReAct
 * agent over the scripted chat model, through the conformance harness. A failure prints its seed
 * and operation log.
 */
import { formatFailure, formatSummary, runSimulation } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { graphHarness } from './harness';

/** Sequences per CI run, kept to about 30 s on a busy 2-core machine; `SIMULATION_RUNS` asks for more. */
const SEQUENCES = Number(process.env.SIMULATION_RUNS ?? 30);
const SEED = Number(process.env.SIMULATION_SEED ?? 1);

describe('fault simulation: langgraph adapter', () => {
  (['custom', 'react'] as const).forEach((kind, index) => {
    it(`${Math.ceil(SEQUENCES / 2)} seeded sequences (${kind} graph) keep every invariant`, {
      timeout: 300_000,
    }, async () => {
      const summary = await runSimulation({
        harness: graphHarness(kind),
        seed: SEED + index * 1_000_000,
        runs: Math.ceil(SEQUENCES / 2),
        modes: ['direct', 'stored'],
        maxWidth: 2,
        maxOps: 5,
      });
      console.log(formatSummary(summary, `langgraph (${kind}) simulation`));
      // Replays the failing sequence alone (and one sequence of each other test).
      const replay = (seed: number) =>
        `SIMULATION_SEED=${seed - index * 1_000_000} SIMULATION_RUNS=2 npx vitest run packages/adapter-langgraph/test/simulation.test.ts`;
      expect(summary.failures.slice(0, 3).map((failure) => formatFailure(failure, replay))).toEqual([]);
    });
  });
});
