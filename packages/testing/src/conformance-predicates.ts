/**
 * Conformance scenarios. Suspension predicates, and resuming with no decisions.
 */
import { everyTurns, maxDuration, maxTokens, onAbort } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { type Counts, lookupTool } from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { completed, type Skip, suspended, throughText } from './conformance-helpers';
import { lastToolResults } from './scripted-model';

export function predicateScenarios(harness: ConformanceHarness, skip: Skip): void {
  describe('suspension predicates', () => {
    const looping = (counts: Counts) => ({
      name: 'looper',
      instructions: 'Look things up.',
      script: (request: { messages: readonly import('@agent-continuations/core').Message[] }) => {
        const turns = request.messages.filter((m) => m.role === 'assistant').length;
        if (turns < 4) return { toolCalls: [{ name: 'lookup_account', args: { account: `A-${turns}` } }] };
        return `looked up ${lastToolResults(request.messages).length} at the end`;
      },
      tools: [lookupTool(counts)],
    });

    const predicateCases = [
      { label: 'everyTurns(2)', make: () => [everyTurns(2)], name: 'everyTurns(2)' },
      { label: 'maxTokens(30)', make: () => [maxTokens(30)], name: 'maxTokens(30)' },
      { label: 'maxDuration(0)', make: () => [maxDuration(0)], name: 'maxDuration(0)' },
      {
        label: 'a plain function',
        make: () => [
          function afterTwoSteps(context: { step: number; segment: { step: number } }) {
            return context.step - context.segment.step >= 2;
          },
        ],
        name: 'afterTwoSteps',
      },
    ];
    for (const testCase of predicateCases) {
      it(`${testCase.label} suspends with no pending actions, and resumes with no decisions`, async (ctx) => {
        skip('predicates', ctx);
        const counts: Counts = {};
        const spec = { ...looping(counts), suspendWhen: testCase.make() };
        let result = await (await harness.createAgent(spec)).run('go');
        let suspensions = 0;
        while (result.status === 'suspended') {
          suspensions++;
          expect(result.actions).toEqual([]);
          expect(result.continuation.pending).toEqual([]);
          expect(result.continuation.suspendedBy).toEqual({
            type: 'predicate',
            predicates: [testCase.name],
          });
          result = await (await harness.createAgent(spec)).resume(throughText(result.continuation));
          expect(suspensions).toBeLessThan(10);
        }
        expect(suspensions).toBeGreaterThan(0);
        expect(completed(result).output).toBe('looked up 1 at the end');
        expect(counts.lookup_account).toBe(4);
      });
    }

    it('onAbort(signal) suspends at the next step boundary', async (ctx) => {
      skip('predicates', ctx);
      const counts: Counts = {};
      const shutdown = new AbortController();
      const base = looping(counts);
      const spec = {
        ...base,
        tools: [
          {
            ...(base.tools[0] as Extract<(typeof base.tools)[0], { kind: 'function' }>),
            async execute(args: { account: string }) {
              counts.lookup_account = (counts.lookup_account ?? 0) + 1;
              if (counts.lookup_account === 2) shutdown.abort();
              return { account: args.account, balance: 120 };
            },
          },
        ],
        suspendWhen: [onAbort(shutdown.signal)],
      };
      const first = suspended(await (await harness.createAgent(spec)).run('go'));
      expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['onAbort'] });
      expect(counts.lookup_account).toBe(2);
      const rest = { ...looping(counts) };
      const done = completed(await (await harness.createAgent(rest)).resume(throughText(first.continuation)));
      expect(done.output).toBe('looked up 1 at the end');
      expect(counts.lookup_account).toBe(4);
    });
  });
}
