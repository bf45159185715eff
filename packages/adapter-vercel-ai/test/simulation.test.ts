/**
 * The seeded fault simulation (issue 11) on this adapter: `continuable(ToolLoopAgent)` and
 * `continuable(settings)` streamed, over the SDK mock model, through the conformance harness. A
 * failure prints its seed and operation log.
 */
import {
  type ConformanceHarness,
  formatFailure,
  formatSummary,
  runSimulation,
} from '@agent-continuations/testing';
import { ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { sdkTools, specOptions, streamed } from './support/harness';
import { scriptedLanguageModel } from './support/scripted-language-model';

/** Sequences per CI run, kept to about 30 s on a busy 2-core machine; `SIMULATION_RUNS` asks for more. */
const SEQUENCES = Number(process.env.SIMULATION_RUNS ?? 200);
const SEED = Number(process.env.SIMULATION_SEED ?? 1);

const harnesses: ConformanceHarness[] = [
  {
    name: 'ToolLoopAgent',
    createAgent: (spec) =>
      continuable(
        new ToolLoopAgent({
          model: scriptedLanguageModel(spec.script),
          instructions: spec.instructions,
          tools: sdkTools(spec.tools),
        }),
        specOptions(spec),
      ),
  },
  {
    name: 'generateText settings, streamed',
    createAgent: (spec) =>
      streamed(
        continuable(
          {
            model: scriptedLanguageModel(spec.script),
            system: spec.instructions,
            tools: sdkTools(spec.tools),
          },
          specOptions(spec),
        ),
      ),
  },
];

describe('fault simulation: vercel-ai adapter', () => {
  harnesses.forEach((harness, index) => {
    it(`${Math.ceil(SEQUENCES / 2)} seeded sequences (${harness.name}) keep every invariant`, {
      timeout: 300_000,
    }, async () => {
      const summary = await runSimulation({
        harness,
        seed: SEED + index * 1_000_000,
        runs: Math.ceil(SEQUENCES / 2),
        // A third of the sequences seal their agents and try forged continuations on them.
        seal: { secret: 'simulation-secret', keyId: 'sim-1' },
        modes: ['direct', 'stored'],
        maxWidth: 2,
        maxOps: 5,
      });
      console.log(formatSummary(summary, `vercel-ai (${harness.name}) simulation`));
      // Replays the failing sequence alone (and one sequence of each other test).
      const replay = (seed: number) =>
        `SIMULATION_SEED=${seed - index * 1_000_000} SIMULATION_RUNS=2 npx vitest run packages/adapter-vercel-ai/test/simulation.test.ts`;
      expect(summary.failures.slice(0, 3).map((failure) => formatFailure(failure, replay))).toEqual([]);
    });
  });
});
