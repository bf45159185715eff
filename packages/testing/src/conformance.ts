/**
 * The adapter conformance suite: every adapter's test file calls {@link runConformanceSuite} with
 * a harness, and the same scenarios (DESIGN section 4) run against its framework.
 */
import {
  type Continuation,
  createMemoryStore,
  everyTurns,
  isContinuationError,
  type JsonValue,
  maxDuration,
  maxTokens,
  onAbort,
  parseContinuation,
  type RunResult,
  resumeStored,
  type SuspendedResult,
  serializeContinuation,
} from '@agent-continuations/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Counts,
  countedScript,
  lookupTool,
  nestedChain,
  reportResults,
  transferTool,
} from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { lastToolResults } from './scripted-model';

function suspended<O>(result: RunResult<O>): SuspendedResult {
  if (result.status !== 'suspended')
    throw new Error(
      `Expected a suspended run, got ${result.status}: ${JSON.stringify(result).slice(0, 400)}`,
    );
  return result;
}

function completed<O>(result: RunResult<O>) {
  if (result.status !== 'completed') throw new Error(`Expected a completed run, got ${result.status}`);
  return result;
}

/** Simulate a process boundary: the continuation goes through JSON text and back. */
function throughText(continuation: Continuation): Continuation {
  return parseContinuation(JSON.parse(JSON.stringify(serializeContinuation(continuation))) as string);
}

async function rejects(promise: Promise<unknown>, code: Parameters<typeof isContinuationError>[1]) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isContinuationError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
}

/**
 * Run every conformance scenario against an adapter.
 *
 * @example
 * ```ts
 * runConformanceSuite({
 *   name: 'my-adapter',
 *   createAgent: (spec) => myAdapter.createAgent({ name: spec.name, ... }),
 * });
 * ```
 */
export function runConformanceSuite(harness: ConformanceHarness): void {
  const skip = (feature: keyof NonNullable<ConformanceHarness['unsupported']>) =>
    harness.unsupported?.[feature] !== undefined;

  describe(`conformance: ${harness.name}`, () => {
    afterEach(async () => {
      await harness.cleanup?.();
    });

    describe('single approval', () => {
      const spec = (counts: Counts, ran: JsonValue[], model: { calls: number }) => ({
        name: 'accounts',
        instructions: 'You help with bank accounts.',
        script: countedScript(model, [
          { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
          reportResults,
        ]),
        tools: [transferTool(counts, ran)],
      });

      it('suspends before the tool runs and runs it once on approve', async () => {
        const counts: Counts = {};
        const ran: JsonValue[] = [];
        const model = { calls: 0 };
        const agent = await harness.createAgent(spec(counts, ran, model));
        const first = suspended(await agent.run('Send 50 to bob'));
        expect(counts.transfer ?? 0).toBe(0);
        expect(first.actions).toHaveLength(1);
        const [action] = first.actions;
        expect(action).toMatchObject({
          kind: 'approval',
          toolName: 'transfer',
          args: { to: 'bob', amount: 50 },
        });
        expect(action!.path).toHaveLength(1);
        expect(action!.path[0]).toMatchObject({ agent: 'accounts', toolName: 'transfer' });

        const fresh = await harness.createAgent(spec(counts, ran, model));
        const done = completed(
          await fresh.resume(throughText(first.continuation), {
            [action!.id]: { type: 'approve', by: 'ann' },
          }),
        );
        expect(counts.transfer).toBe(1);
        expect(ran).toEqual([{ to: 'bob', amount: 50 }]);
        expect(String(done.output)).toContain('transfer={"ok":true,"to":"bob","amount":50}');
        expect(done.runId).toBe(first.continuation.runId);
        expect(model.calls).toBe(2);
      });

      it('does not run a rejected call, and the model gets the reason', async () => {
        const counts: Counts = {};
        const model = { calls: 0 };
        const agent = await harness.createAgent(spec(counts, [], model));
        const first = suspended(await agent.run('Send 50 to bob'));
        const done = completed(
          await agent.resume(first.continuation, {
            [first.actions[0]!.id]: { type: 'reject', reason: 'bob is not a customer' },
          }),
        );
        expect(counts.transfer ?? 0).toBe(0);
        expect(String(done.output)).toContain('bob is not a customer');
      });

      it('runs an approved call with edited arguments and audits the edit', async () => {
        if (skip('editArgs')) return;
        const counts: Counts = {};
        const ran: JsonValue[] = [];
        const agent = await harness.createAgent(spec(counts, ran, { calls: 0 }));
        const first = suspended(await agent.run('Send 50 to bob'));
        const id = first.actions[0]!.id;
        const done = completed(
          await agent.resume(first.continuation, {
            [id]: { type: 'approve', args: { to: 'bob', amount: 20 }, by: 'ann' },
          }),
        );
        expect(ran).toEqual([{ to: 'bob', amount: 20 }]);
        expect(String(done.output)).toContain('"amount":20');
      });

      it('keeps the audit trail and metadata in the next continuation', async () => {
        const counts: Counts = {};
        const twoApprovals = {
          name: 'accounts',
          instructions: 'You help with bank accounts.',
          script: [
            { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
            { toolCalls: [{ name: 'transfer', args: { to: 'eve', amount: 5 } }] },
            reportResults,
          ],
          tools: [transferTool(counts)],
        };
        const agent = await harness.createAgent(twoApprovals);
        const first = suspended(
          await agent.run('Pay bob then eve', { metadata: { tenant: 'acme', ticket: 42 } }),
        );
        const id = first.actions[0]!.id;
        const second = suspended(
          await agent.resume(first.continuation, {
            [id]: { type: 'approve', args: { to: 'bob', amount: 40 }, by: 'ann' },
          }),
        );
        expect(second.continuation.metadata).toEqual({ tenant: 'acme', ticket: 42 });
        expect(second.continuation.runId).toBe(first.continuation.runId);
        expect(second.continuation.id).not.toBe(first.continuation.id);
        expect(second.continuation.decisions).toHaveLength(1);
        expect(second.continuation.decisions[0]).toMatchObject({
          actionId: id,
          type: 'approve',
          by: 'ann',
          toolName: 'transfer',
          args: { to: 'bob', amount: 50 },
          editedArgs: { to: 'bob', amount: 40 },
        });
        expect(counts.transfer).toBe(1);
      });

      it('refuses bad decisions before anything runs', async () => {
        const counts: Counts = {};
        const agent = await harness.createAgent(spec(counts, [], { calls: 0 }));
        const first = suspended(await agent.run('Send 50 to bob'));
        const id = first.actions[0]!.id;
        await rejects(
          agent.resume(first.continuation, { 'no-such-action': { type: 'approve' } }),
          'UNKNOWN_ACTION',
        );
        await rejects(
          agent.resume(first.continuation, { [id]: { type: 'input', value: 'yes' } }),
          'WRONG_DECISION_KIND',
        );
        if (!skip('editArgs')) {
          await rejects(
            agent.resume(first.continuation, { [id]: { type: 'approve', args: { to: 'bob', amount: -5 } } }),
            'INVALID_ARGS',
          );
        }
        await rejects(agent.resume('{"format":"agent-continuation","vers', {}), 'INVALID_JSON');
        expect(counts.transfer ?? 0).toBe(0);
      });

      it('ends the run as rejected when configured to', async () => {
        if (skip('rejectEnd')) return;
        const counts: Counts = {};
        const agent = await harness.createAgent({ ...spec(counts, [], { calls: 0 }), onReject: 'end' });
        const first = suspended(await agent.run('Send 50 to bob'));
        const result = await agent.resume(first.continuation, {
          [first.actions[0]!.id]: { type: 'reject', reason: 'no' },
        });
        expect(result.status).toBe('rejected');
        if (result.status === 'rejected')
          expect(result.rejection).toMatchObject({ toolName: 'transfer', reason: 'no' });
        expect(counts.transfer ?? 0).toBe(0);
      });
    });

    describe('human input', () => {
      it('a human tool suspends and the answer becomes its result', async () => {
        if (skip('humanTool')) return;
        const agent = await harness.createAgent({
          name: 'planner',
          instructions: 'Ask the manager when unsure.',
          script: [
            { toolCalls: [{ name: 'ask_manager', args: { question: 'Which budget?' } }] },
            reportResults,
          ],
          tools: [
            {
              kind: 'human',
              name: 'ask_manager',
              description: 'Ask the manager a question',
              parameters: z.object({ question: z.string() }),
              response: z.object({ answer: z.string() }),
            },
          ],
        });
        const first = suspended(await agent.run('Plan the offsite'));
        const [action] = first.actions;
        expect(action).toMatchObject({ kind: 'input', toolName: 'ask_manager' });
        expect(action!.request).toEqual({ question: 'Which budget?' });
        await rejects(
          agent.resume(first.continuation, { [action!.id]: { type: 'input', value: { wrong: 1 } } }),
          'INVALID_INPUT',
        );
        const done = completed(
          await agent.resume(first.continuation, {
            [action!.id]: { type: 'input', value: { answer: 'Q3' } },
          }),
        );
        expect(String(done.output)).toContain('ask_manager={"answer":"Q3"}');
      });

      it('ctx.requestInput suspends; the tool runs again and its side effect happens once', async () => {
        if (skip('requestInput')) return;
        const counts: Counts = {};
        const spec = {
          name: 'payer',
          instructions: 'Pay invoices.',
          script: [{ toolCalls: [{ name: 'pay_invoice', args: { invoice: 'INV-7' } }] }, reportResults],
          tools: [
            {
              kind: 'function' as const,
              name: 'pay_invoice',
              description: 'Pay an invoice after asking for a reference',
              parameters: z.object({ invoice: z.string() }),
              async execute(
                { invoice }: { invoice: string },
                ctx: { requestInput(r: JsonValue): Promise<JsonValue> },
              ) {
                counts.started = (counts.started ?? 0) + 1;
                const reference = await ctx.requestInput({ question: `Reference for ${invoice}?` });
                counts.paid = (counts.paid ?? 0) + 1;
                return { paid: invoice, reference };
              },
            },
          ],
        };
        const agent = await harness.createAgent(spec);
        const first = suspended(await agent.run('Pay INV-7'));
        expect(first.actions[0]).toMatchObject({
          kind: 'input',
          toolName: 'pay_invoice',
          request: { question: 'Reference for INV-7?' },
        });
        expect(counts.paid ?? 0).toBe(0);
        const fresh = await harness.createAgent(spec);
        const done = completed(
          await fresh.resume(throughText(first.continuation), {
            [first.actions[0]!.id]: { type: 'input', value: 'REF-1' },
          }),
        );
        expect(counts.paid).toBe(1);
        expect(String(done.output)).toContain('"reference":"REF-1"');
      });
    });

    describe('nesting', () => {
      for (const depth of [1, 2, 3]) {
        it(`depth ${depth}: the deepest approval surfaces with its path and resumes every level`, async () => {
          const counts: Counts = {};
          const ran: JsonValue[] = [];
          const root = await harness.createAgent(await nestedChain(harness, depth, counts, ran));
          const first = suspended(await root.run('pay bob 50'));
          expect(first.actions).toHaveLength(1);
          const [action] = first.actions;
          expect(action!.toolName).toBe('transfer');
          expect(action!.args).toEqual({ to: 'bob', amount: 50 });
          expect(action!.path.map((segment) => segment.agent)).toEqual(
            Array.from({ length: depth }, (_, i) => `level${i + 1}`),
          );
          expect(action!.path.map((segment) => segment.toolName)).toEqual([
            ...Array.from({ length: depth - 1 }, (_, i) => `ask_level${i + 2}`),
            'transfer',
          ]);
          expect(counts.transfer ?? 0).toBe(0);

          const freshRoot = await harness.createAgent(await nestedChain(harness, depth, counts, ran));
          const done = completed(
            await freshRoot.resume(throughText(first.continuation), { [action!.id]: { type: 'approve' } }),
          );
          expect(counts.transfer).toBe(1);
          expect(String(done.output)).toContain('done:');
          if (depth > 1) expect(String(done.output)).toContain(`ask_level2=`);
          else expect(String(done.output)).toContain('transfer={"ok":true');
        });
      }

      it('two parallel sub-agents each suspend; both actions are listed and resume together', async () => {
        const counts: Counts = {};
        const makeRoot = async () => {
          const child = (name: string, to: string) =>
            harness.createAgent({
              name,
              instructions: `You pay ${to}.`,
              script: [{ toolCalls: [{ name: 'transfer', args: { to, amount: 10 } }] }, reportResults],
              tools: [transferTool(counts)],
            });
          return harness.createAgent({
            name: 'orchestrator',
            instructions: 'Delegate payments.',
            script: [
              {
                toolCalls: [
                  { name: 'pay_bob', args: { input: 'pay bob' } },
                  { name: 'pay_eve', args: { input: 'pay eve' } },
                ],
              },
              reportResults,
            ],
            tools: [
              {
                kind: 'agent',
                name: 'pay_bob',
                description: 'Pays bob',
                agent: await child('bob_payer', 'bob'),
              },
              {
                kind: 'agent',
                name: 'pay_eve',
                description: 'Pays eve',
                agent: await child('eve_payer', 'eve'),
              },
            ],
          });
        };
        const first = suspended(await (await makeRoot()).run('pay both'));
        expect(first.actions.map((a) => a.path[0]!.toolName).sort()).toEqual(['pay_bob', 'pay_eve']);
        const decisions = Object.fromEntries(first.actions.map((a) => [a.id, { type: 'approve' as const }]));
        const done = completed(await (await makeRoot()).resume(throughText(first.continuation), decisions));
        expect(counts.transfer).toBe(2);
        expect(String(done.output)).toContain('pay_bob=');
        expect(String(done.output)).toContain('pay_eve=');
      });
    });

    describe('turns with several calls', () => {
      const spec = (counts: Counts, model: { calls: number }) => ({
        name: 'accounts',
        instructions: 'You help with bank accounts.',
        script: countedScript(model, [
          {
            toolCalls: [
              { name: 'lookup_account', args: { account: 'A-1' } },
              { name: 'transfer', args: { to: 'bob', amount: 50 } },
              { name: 'transfer', args: { to: 'eve', amount: 7 } },
            ],
          },
          reportResults,
        ]),
        tools: [lookupTool(counts), transferTool(counts)],
      });

      it('a sibling that needs nothing runs once, before the turn suspends', async () => {
        const counts: Counts = {};
        const model = { calls: 0 };
        const agent = await harness.createAgent(spec(counts, model));
        const first = suspended(await agent.run('check and pay'));
        expect(counts.lookup_account).toBe(1);
        expect(first.actions).toHaveLength(2);
        const decisions = Object.fromEntries(first.actions.map((a) => [a.id, { type: 'approve' as const }]));
        const done = completed(
          await (await harness.createAgent(spec(counts, model))).resume(
            throughText(first.continuation),
            decisions,
          ),
        );
        expect(counts.lookup_account).toBe(1);
        expect(counts.transfer).toBe(2);
        expect(String(done.output)).toContain('lookup_account={"account":"A-1","balance":120}');
      });

      it('partial decisions: decided calls run, the rest stay pending, the model is not called', async () => {
        const counts: Counts = {};
        const model = { calls: 0 };
        const agent = await harness.createAgent(spec(counts, model));
        const first = suspended(await agent.run('check and pay'));
        const [bob, eve] = first.actions;
        const second = suspended(await agent.resume(first.continuation, { [bob!.id]: { type: 'approve' } }));
        expect(counts.transfer).toBe(1);
        expect(model.calls).toBe(1);
        expect(second.actions.map((a) => a.id)).toEqual([eve!.id]);
        await rejects(
          agent.resume(second.continuation, { [bob!.id]: { type: 'approve' } }),
          'UNKNOWN_ACTION',
        );
        const done = completed(
          await agent.resume(throughText(second.continuation), {
            [eve!.id]: { type: 'reject', reason: 'too small' },
          }),
        );
        expect(counts.transfer).toBe(1);
        expect(counts.lookup_account).toBe(1);
        expect(model.calls).toBe(2);
        expect(String(done.output)).toContain('too small');
      });
    });

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
        it(`${testCase.label} suspends with no pending actions, and resumes with no decisions`, async () => {
          if (skip('predicates')) return;
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

      it('onAbort(signal) suspends at the next step boundary', async () => {
        if (skip('predicates')) return;
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
        const done = completed(
          await (await harness.createAgent(rest)).resume(throughText(first.continuation)),
        );
        expect(done.output).toBe('looked up 1 at the end');
        expect(counts.lookup_account).toBe(4);
      });
    });

    describe('stores', () => {
      it('the same continuation resumed twice through a claim runs nothing twice', async () => {
        const counts: Counts = {};
        const spec = {
          name: 'accounts',
          instructions: 'You help with bank accounts.',
          script: [{ toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] }, reportResults],
          tools: [transferTool(counts)],
        };
        const store = createMemoryStore();
        const first = suspended(await (await harness.createAgent(spec)).run('Send 50 to bob'));
        await store.save(first.continuation);
        const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
        const [a, b] = await Promise.allSettled([
          resumeStored(store, await harness.createAgent(spec), first.continuation.id, decisions),
          resumeStored(store, await harness.createAgent(spec), first.continuation.id, decisions),
        ]);
        const outcomes = [a!, b!];
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const failure = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        expect(isContinuationError(failure.reason, 'CLAIM_CONFLICT')).toBe(true);
        await rejects(
          resumeStored(store, await harness.createAgent(spec), first.continuation.id, decisions),
          'CLAIM_CONFLICT',
        );
        expect(counts.transfer).toBe(1);
      });
    });
  });
}
