/**
 * Conformance scenarios. A sub-agent is a whole run: at depths 1 to 3, the deepest agent's model
 * error, predicate suspension and drift behave as they would at the root.
 */
import {
  type Continuation,
  everyTurns,
  isContinuationError,
  type ModelRequest,
  type RunResult,
} from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { type Counts, chainTo, lookupTool, reportResults, transferTool } from './conformance-fixtures';
import type { ConformanceAgentSpec, ConformanceHarness } from './conformance-harness';
import { completed, type Skip, suspended, throughText } from './conformance-helpers';

/** The deepest agent: it asks to transfer, then (second model call) reports. */
function payer(
  depth: number,
  counts: Counts,
  extra: { outage?: { down: boolean }; instructions?: string } & Partial<ConformanceAgentSpec> = {},
): ConformanceAgentSpec {
  const { outage, ...rest } = extra;
  return {
    name: `level${depth}`,
    instructions: 'You move money.',
    script: [
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
      (request: ModelRequest) => {
        if (outage?.down) throw new Error('the provider is down');
        return reportResults(request);
      },
    ],
    tools: [transferTool(counts)],
    ...rest,
  };
}

async function failure(promise: Promise<RunResult<unknown>>): Promise<unknown> {
  return promise.then(
    (result) => {
      throw new Error(`Expected the run to fail, it ended ${result.status}`);
    },
    (error: unknown) => error,
  );
}

export function subagentScenarios(harness: ConformanceHarness, skip: Skip): void {
  describe('sub-agents are whole runs', () => {
    for (const depth of [1, 2, 3]) {
      it(`depth ${depth}: a model error after an approved call keeps the tree; resuming retries, the call ran once`, async () => {
        const counts: Counts = {};
        const outage = { down: false };
        const make = async () =>
          harness.createAgent(await chainTo(harness, depth, payer(depth, counts, { outage })));
        const first = suspended(await (await make()).run('pay bob 50'));
        outage.down = true;
        const error = await failure(
          (await make()).resume(throughText(first.continuation), {
            [first.actions[0]!.id]: { type: 'approve' },
          }),
        );
        expect(isContinuationError(error, 'MODEL_ERROR'), String(error)).toBe(true);
        const saved = (error as { continuation?: Continuation }).continuation;
        expect(saved).toBeDefined();
        expect(counts.transfer).toBe(1);

        outage.down = false;
        const done = completed(await (await make()).resume(throughText(saved!), {}));
        expect(counts.transfer).toBe(1);
        expect(String(done.output)).toContain('done:');
      });

      it(`depth ${depth}: a predicate suspension in the deepest agent suspends the root; resume(c, {}) goes on`, async (ctx) => {
        skip('predicates', ctx);
        const counts: Counts = {};
        // Three model calls: transfer (approval), a lookup, the answer; it stops after each.
        const leaf = payer(depth, counts, {
          suspendWhen: [everyTurns(1)],
          script: [
            { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
            { toolCalls: [{ name: 'lookup_account', args: { account: 'bob' } }] },
            reportResults,
          ],
          tools: [transferTool(counts), lookupTool(counts)],
        });
        const make = async () => harness.createAgent(await chainTo(harness, depth, leaf));
        const first = suspended(await (await make()).run('pay bob 50'));
        expect(first.actions.map((action) => action.toolName)).toEqual(['transfer']);
        let result: RunResult<unknown> = await (await make()).resume(throughText(first.continuation), {
          [first.actions[0]!.id]: { type: 'approve' },
        });
        expect(counts.transfer).toBe(1);
        const stopped = suspended(result);
        expect(stopped.actions).toEqual([]);
        expect(stopped.continuation.suspendedBy.type).toBe('predicate');
        const names =
          stopped.continuation.suspendedBy.type === 'predicate'
            ? stopped.continuation.suspendedBy.predicates
            : [];
        expect(names.every((name) => name.endsWith('everyTurns(1)'))).toBe(true);
        for (let round = 0; result.status === 'suspended'; round++) {
          if (round > 4) throw new Error('resume(c, {}) does not move the run on');
          expect(result.actions).toEqual([]);
          result = await (await make()).resume(throughText(result.continuation), {});
        }
        expect(String(completed(result).output)).toContain('done:');
        expect(counts).toEqual({ transfer: 1, lookup_account: 1 });
      });

      it(`depth ${depth}: a changed deepest agent is refused before anything runs, unless allowChangedAgent`, async () => {
        const counts: Counts = {};
        const build = async (instructions: string) =>
          harness.createAgent(await chainTo(harness, depth, payer(depth, counts, { instructions })));
        const first = suspended(await (await build('You move money.')).run('pay bob 50'));
        const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
        const changed = await build('You move money, carefully.');
        const error = await failure(changed.resume(throughText(first.continuation), decisions));
        expect(isContinuationError(error, 'AGENT_CHANGED'), String(error)).toBe(true);
        expect(counts.transfer ?? 0).toBe(0);
        completed(
          await changed.resume(throughText(first.continuation), decisions, { allowChangedAgent: true }),
        );
        expect(counts.transfer).toBe(1);
      });
    }
  });
}
