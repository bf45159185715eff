/**
 * The seeded fault simulation (issue 11) on this adapter: a custom graph and the prebuilt ReAct
 * agent over the scripted chat model, through the conformance harness. A failure prints its seed
 * and operation log.
 */
import { type Decisions, listActions, type RunResult } from '@agent-continuations/core';
import { formatFailure, formatSummary, runSimulation } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { graphHarness } from './harness';

/** Sequences per CI run, kept to about 30 s on a busy 2-core machine; `SIMULATION_RUNS` asks for more. */
const SEQUENCES = Number(process.env.SIMULATION_RUNS ?? 80);
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
        // About 30% of sequences seal every agent (forged continuations are tried on them).
        seal: { secret: 'simulation-secret' },
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

describe('bugs found by the fault simulation (reproductions)', () => {
  // Sealed sequences failed with SEAL_MISMATCH "in the sub-agent" once a sealed LangGraph sub-agent
  // had suspended twice: its continuation went into the parent's checkpoint as an object, and
  // LangGraph revived the serialized LangChain values in its state (`{ lc: 2, type: 'undefined' }`),
  // so the parent's copy no longer matched the child's seal. It now travels as JSON text.
  it('a sealed sub-agent that suspends a second time is resumed through its sealed parent', async () => {
    const harness = graphHarness('custom');
    const seal = { secret: 'simulation-secret' };
    const paid: string[] = [];
    const child = await harness.createAgent({
      name: 'sealed-child',
      instructions: 'Pay twice.',
      seal,
      tools: [
        {
          kind: 'function',
          name: 'pay',
          description: 'Pay someone.',
          parameters: z.object({ n: z.string() }),
          needsApproval: true,
          execute: async ({ n }: { n: string }) => {
            paid.push(n);
            return n;
          },
        },
      ],
      script: [
        { toolCalls: [{ name: 'pay', args: { n: 'a' } }] },
        { toolCalls: [{ name: 'pay', args: { n: 'b' } }] },
        'paid',
      ],
    });
    const parent = await harness.createAgent({
      name: 'sealed-parent',
      instructions: 'Delegate.',
      seal,
      tools: [{ kind: 'agent', name: 'child', description: 'The paying sub-agent.', agent: child }],
      script: [{ toolCalls: [{ name: 'child', args: { input: 'pay' } }] }, 'done'],
    });
    const approveAll = (result: RunResult<unknown>): Decisions =>
      result.status === 'suspended'
        ? Object.fromEntries(
            listActions(result.continuation).map((action) => [action.id, { type: 'approve' }]),
          )
        : {};
    let result: RunResult<unknown> = await parent.run('go');
    result = await parent.resume(
      JSON.stringify((result as { continuation: unknown }).continuation),
      approveAll(result),
    );
    expect(result.status).toBe('suspended'); // the child waits for its second payment
    result = await parent.resume(
      JSON.stringify((result as { continuation: unknown }).continuation),
      approveAll(result),
    );
    expect(result.status).toBe('completed');
    expect(paid).toEqual(['a', 'b']);
  });
});
