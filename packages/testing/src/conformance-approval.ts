/**
 * Conformance scenarios. Approvals: approve, reject, edit, audit, bad decisions.
 */
import type { JsonValue } from '@agent-continuations/core';
import { describe, expect, it } from 'vitest';
import { type Counts, countedScript, reportResults, transferTool } from './conformance-fixtures';
import type { ConformanceHarness } from './conformance-harness';
import { completed, rejects, type Skip, suspended, throughText } from './conformance-helpers';

export function approvalScenarios(harness: ConformanceHarness, skip: Skip): void {
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

    it('runs an approved call with edited arguments and audits the edit', async (ctx) => {
      skip('editArgs', ctx);
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

    it('ends the run as rejected when configured to', async (ctx) => {
      skip('rejectEnd', ctx);
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
}
