/**
 * The seeded fault simulation on this adapter: `@openai/agents` agents over the SDK's own OpenAI
 * models (Chat Completions and Responses) on the real `openai` client, speaking HTTP to the scripted
 * server, through the conformance harness. A failure prints its seed and operation log.
 */
import {
  formatFailure,
  formatSummary,
  runSimulation,
  setupScriptedOpenAIServer,
} from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { agentsHarness } from './harness';

/** Sequences per CI run, as the other adapters run them; `SIMULATION_RUNS` asks for more. */
const SEQUENCES = Number(process.env.SIMULATION_RUNS ?? 200);
const SEED = Number(process.env.SIMULATION_SEED ?? 1);

const server = setupScriptedOpenAIServer({ scripts: {} });

describe('fault simulation: openai-agents adapter', () => {
  for (const api of ['chat', 'responses'] as const) {
    it(`${Math.ceil(SEQUENCES / 2)} seeded sequences over the ${api} API keep every invariant`, {
      timeout: 300_000,
    }, async () => {
      const summary = await runSimulation({
        harness: agentsHarness(api, () => server),
        seed: SEED + (api === 'chat' ? 0 : 1_000_000),
        runs: Math.ceil(SEQUENCES / 2),
        // A third of the sequences seal their agents and try forged continuations on them.
        seal: { secret: 'simulation-secret', keyId: 'sim-1' },
        modes: ['direct', 'stored'],
        maxWidth: 2,
        maxOps: 5,
      });
      console.log(formatSummary(summary, `openai-agents (${api}) simulation`));
      // Replays the failing sequence alone (and one sequence of each other test).
      const replay = (seed: number) =>
        `SIMULATION_SEED=${seed - (api === 'chat' ? 0 : 1_000_000)} SIMULATION_RUNS=2 npx vitest run packages/adapter-openai-agents/test/simulation.test.ts`;
      expect(summary.failures.slice(0, 3).map((failure) => formatFailure(failure, replay))).toEqual([]);
    });
  }
});
