import {
  agentTool,
  type Continuation,
  createApprovalLinks,
  createContinuableAgent,
  createMemoryStore,
  defineTool,
  humanTool,
  isContinuationError,
  listActions,
  resumeStored,
  type SuspendNotice,
  sweepDeadlines,
} from '@agent-continuations/core';
import { reportResults, type Script, scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deepChain } from './deep-chain';

const HOUR = 3_600_000;

/** A payroll agent (refund needs approval within 4 hours) under an HR agent: depth 2. */
function agents(script: { hr: Script; payroll: Extract<Script, (...args: never[]) => unknown> }) {
  const counts = { refunds: 0 };
  const received: string[] = [];
  const payroll = createContinuableAgent({
    name: 'payroll',
    model: scriptedModel((request) => {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'tool') received.push(JSON.stringify(last.content));
      return script.payroll(request);
    }),
    tools: [
      defineTool({
        name: 'refund',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        deadline: 4 * HOUR,
        execute: ({ amount }) => {
          counts.refunds++;
          return { refunded: amount };
        },
      }),
      defineTool({
        name: 'bonus',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: ({ amount }) => ({ bonus: amount }),
      }),
      humanTool({ name: 'ask_manager', parameters: z.object({ question: z.string() }) }),
    ],
  });
  const hr = createContinuableAgent({
    name: 'hr',
    model: scriptedModel(script.hr),
    tools: [agentTool(payroll, { name: 'ask_payroll' })],
  });
  return { hr, payroll, counts, received };
}

const delegate: Script = (request) =>
  request.messages.some((message) => message.role === 'tool')
    ? reportResults(request)
    : { toolCalls: [{ name: 'ask_payroll', args: { input: 'refund and bonus' } }] };

function payrollScript(): Extract<Script, (...args: never[]) => unknown> {
  return (request) =>
    request.messages.some((message) => message.role === 'tool')
      ? reportResults(request)
      : {
          toolCalls: [
            { name: 'refund', args: { amount: 49 } },
            { name: 'bonus', args: { amount: 10 } },
          ],
        };
}

async function savedSuspension(options: Parameters<ReturnType<typeof agents>['hr']['run']>[1] = {}) {
  const built = agents({ hr: delegate, payroll: payrollScript() });
  const before = Date.now();
  const result = await built.hr.run('sort out Ann', options);
  if (result.status !== 'suspended') throw new Error('expected a suspension');
  const store = createMemoryStore();
  await store.save(result.continuation);
  return { ...built, store, continuation: result.continuation, before };
}

function byTool(continuation: Continuation) {
  return Object.fromEntries(listActions(continuation).map((action) => [action.toolName, action]));
}

describe('deadlines', () => {
  it("stamps the tool's own deadline on a nested action at suspend time, and the run's policy on the others", async () => {
    const { continuation, before } = await savedSuspension({
      deadlines: ({ toolName, agent }) =>
        toolName === 'bonus' && agent === 'payroll' ? 2 * HOUR : undefined,
    });
    const actions = byTool(continuation);
    const refund = Date.parse(actions.refund!.deadline!);
    expect(refund - before).toBeGreaterThanOrEqual(4 * HOUR);
    expect(refund - Date.now()).toBeLessThanOrEqual(4 * HOUR);
    expect(Date.parse(actions.bonus!.deadline!) - refund).toBeLessThan(-HOUR);
  });

  it("reaches an action three levels down, and a sweep there rejects it through the root's claim", async () => {
    const counts = { paid: 0 };
    const root = deepChain(3, counts, (agent) => agent);
    const first = await root.run('go', { deadlines: ({ agent }) => (agent === 'level2' ? HOUR : undefined) });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const [action] = first.actions;
    expect(action!.path.map((segment) => segment.agent)).toEqual(['level0', 'level1', 'level2']);
    expect(action!.deadline).toBeDefined();
    const store = createMemoryStore();
    await store.save(first.continuation);
    const report = await sweepDeadlines({
      store,
      agents: { level0: root },
      now: new Date(Date.parse(action!.deadline!) + 1),
    });
    expect(report.rejected).toEqual([{ continuationId: first.continuation.id, actionIds: [action!.id] }]);
    expect(counts.paid).toBe(0);
    expect((await store.load(first.continuation.id))!.status).toBe('completed');
  });

  it('keeps a deadline across a resume that decides another action of the run', async () => {
    const { hr, store, continuation } = await savedSuspension();
    const { refund, bonus } = byTool(continuation);
    const next = await resumeStored(store, hr, continuation.id, { [bonus!.id]: { type: 'approve' } });
    if (next.status !== 'suspended') throw new Error('the refund still waits');
    expect(byTool(next.continuation).refund!.deadline).toBe(refund!.deadline);
  });

  it('the sweeper rejects overdue actions by the deadline: the model is told, nothing runs, the audit says so', async () => {
    const { store, continuation, counts, received, hr } = await savedSuspension();
    const { refund } = byTool(continuation);

    const early = await sweepDeadlines({
      store,
      agents: { hr },
      now: new Date(Date.parse(refund!.deadline!) - 1),
    });
    expect(early.rejected).toEqual([]);
    expect((await store.load(continuation.id))!.status).toBe('suspended');

    const report = await sweepDeadlines({ store, agents: { hr }, now: new Date(refund!.deadline!) });
    expect(report.rejected).toEqual([{ continuationId: continuation.id, actionIds: [refund!.id] }]);
    expect(counts.refunds).toBe(0);
    // The bonus has no deadline: the run waits for it, with the deadline's decision in the audit.
    const { items } = await store.list({ status: 'suspended' });
    expect(items).toHaveLength(1);
    const next = (await store.load(items[0]!.id))!.continuation;
    expect(listActions(next).map((action) => action.toolName)).toEqual(['bonus']);
    const child = next.pending[0]!;
    if (child.kind !== 'agent') throw new Error('expected the payroll agent');
    expect(child.child.decisions).toMatchObject([{ type: 'reject', by: 'deadline', toolName: 'refund' }]);
    // Once the bonus is decided, the model reads the deadline's reason for the refund.
    const bonus = listActions(next)[0]!;
    const done = await resumeStored(store, hr, next.id, { [bonus.id]: { type: 'approve' } });
    expect(done.status).toBe('completed');
    expect(received.join('\n')).toContain('No decision was made before the deadline.');
    expect(counts.refunds).toBe(0);

    // A second sweep finds nothing more to do.
    expect(
      (await sweepDeadlines({ store, agents: { hr }, now: new Date(refund!.deadline!) })).rejected,
    ).toEqual([]);
  });

  it('escalates once per set, with the links in the notice, and runs nothing', async () => {
    const { store, continuation, hr, counts } = await savedSuspension();
    const { refund } = byTool(continuation);
    const notices: SuspendNotice[] = [];
    const links = createApprovalLinks({
      secret: 'sixteen-bytes-at-least',
      baseUrl: 'https://ops.example.com',
    });
    const escalated = new Set<string>();
    const sweep = () =>
      sweepDeadlines({
        store,
        agents: { hr },
        now: new Date(Date.parse(refund!.deadline!) + HOUR),
        onDeadline: 'escalate',
        onSuspend: (notice) => {
          notices.push(notice);
        },
        links,
        escalated,
      });
    expect((await sweep()).escalated).toEqual([{ continuationId: continuation.id, actionIds: [refund!.id] }]);
    expect((await sweep()).escalated).toEqual([]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ reason: 'escalated', continuationId: continuation.id });
    expect(notices[0]!.actions.map((action) => action.toolName)).toEqual(['refund']);
    const token = notices[0]!.actions[0]!.links!.approve.split('/').pop()!;
    expect(await links.verify(token)).toMatchObject({
      continuationId: continuation.id,
      actionId: refund!.id,
    });
    expect((await store.load(continuation.id))!.status).toBe('suspended');
    expect(counts.refunds).toBe(0);
  });

  it('refuses to escalate without a hook to notify', async () => {
    const { store, continuation, hr } = await savedSuspension();
    const error = await sweepDeadlines({
      store,
      agents: { hr },
      now: new Date(Date.parse(byTool(continuation).refund!.deadline!) + 1),
      onDeadline: 'escalate',
    }).catch((caught: unknown) => caught);
    expect(isContinuationError(error, 'INVALID_OPERATION')).toBe(true);
  });

  it('leaves a run a person is deciding at that moment to the person', async () => {
    const { store, continuation, hr, counts } = await savedSuspension();
    // The person's claim lands between the sweeper's read of the run and its own claim.
    let person: Awaited<ReturnType<typeof store.claim>> | undefined;
    const racing = {
      ...store,
      capabilities: store.capabilities,
      claim: async (id: string, options?: Parameters<typeof store.claim>[1]) => {
        person ??= await store.claim(id, { owner: 'ann' });
        return store.claim(id, options);
      },
    };
    const report = await sweepDeadlines({
      store: racing,
      agents: { hr },
      now: new Date(Date.parse(byTool(continuation).refund!.deadline!) + 1),
    });
    expect(report).toMatchObject({ skipped: [continuation.id], rejected: [], failed: [] });
    expect(counts.refunds).toBe(0);
    expect((await store.load(continuation.id))!.status).toBe('claimed');
    // Swept again while the person holds it: still theirs.
    const again = await sweepDeadlines({
      store,
      agents: { hr },
      now: new Date(Date.parse(byTool(continuation).refund!.deadline!) + 1),
    });
    expect(again.skipped).toEqual([]);
    await store.release(person!);
  });

  it('a failing escalation is recorded and retried by the next sweep; the sweep goes on rejecting the others', async () => {
    const first = await savedSuspension();
    const second = await savedSuspension();
    const { store, hr, counts } = first;
    await store.save(second.continuation);
    const deadline = Date.parse(byTool(first.continuation).refund!.deadline!);
    let receiverUp = false;
    const escalations: string[] = [];
    const escalated = new Set<string>();
    const sweep = () =>
      sweepDeadlines({
        store,
        agents: { hr },
        now: new Date(deadline + HOUR),
        escalated,
        // The first run's overdue refund is escalated, the second's rejected.
        onDeadline: (_action, continuation) =>
          continuation.id === first.continuation.id ? 'escalate' : 'reject',
        onSuspend: (notice) => {
          if (notice.reason !== 'escalated') return;
          if (!receiverUp) throw new Error('the receiver is down');
          escalations.push(notice.continuationId);
        },
      });
    const down = await sweep();
    expect(down.failed.map(({ continuationId, error }) => [continuationId, String(error)])).toEqual([
      [first.continuation.id, 'Error: the receiver is down'],
    ]);
    expect(down.rejected.map(({ continuationId }) => continuationId)).toEqual([second.continuation.id]);
    receiverUp = true;
    const up = await sweep();
    expect(up.escalated.map(({ continuationId }) => continuationId)).toEqual([first.continuation.id]);
    expect(up.failed).toEqual([]);
    expect(escalations).toEqual([first.continuation.id]);
    expect(counts.refunds).toBe(0);
    console.log(
      `faults/escalation-fails: sweep with the receiver down: ${down.failed.length} failed, ${down.rejected.length} rejected; next sweep: ${up.escalated.length} escalated`,
    );
  });

  it('reports a run whose agent it was not given, and goes on with the others', async () => {
    const { store, continuation } = await savedSuspension();
    const report = await sweepDeadlines({
      store,
      agents: {},
      now: new Date(Date.parse(byTool(continuation).refund!.deadline!) + 1),
    });
    expect(report.failed.map(({ continuationId }) => continuationId)).toEqual([continuation.id]);
    expect(String(report.failed[0]!.error)).toContain('No agent named "hr"');
  });
});

describe('notifications', () => {
  it('tells onSuspend of each new suspension of a stored resume, after it is saved, with signed links', async () => {
    const { store, continuation, hr } = await savedSuspension();
    const { bonus } = byTool(continuation);
    const links = createApprovalLinks({
      secret: 'sixteen-bytes-at-least',
      baseUrl: 'https://ops.example.com/inbox',
    });
    const notices: Array<{ notice: SuspendNotice; stored: string | undefined }> = [];
    const next = await resumeStored(
      store,
      hr,
      continuation.id,
      { [bonus!.id]: { type: 'approve' } },
      {
        links,
        onSuspend: async (notice) => {
          notices.push({ notice, stored: (await store.load(notice.continuationId))?.status });
        },
      },
    );
    if (next.status !== 'suspended') throw new Error('the refund still waits');
    expect(notices).toHaveLength(1);
    const [{ notice, stored }] = notices as [(typeof notices)[0]];
    expect(stored).toBe('suspended');
    expect(notice).toMatchObject({ continuationId: next.continuation.id, agent: 'hr', reason: 'suspended' });
    const action = notice.actions[0]!;
    expect(action.toolName).toBe('refund');
    expect(action.path.map((segment) => segment.agent)).toEqual(['hr', 'payroll']);
    const link = await links.verify(action.links!.reject.split('/').pop()!);
    // A link lasts no longer than the action's deadline.
    expect(link).toEqual({
      continuationId: next.continuation.id,
      actionId: action.id,
      kind: 'reject',
      expiresAt: action.deadline,
    });
  });

  it('does not call onSuspend when the run completes', async () => {
    const { store, continuation, hr } = await savedSuspension();
    const decisions = Object.fromEntries(
      listActions(continuation).map((action) => [action.id, { type: 'approve' as const }]),
    );
    let called = 0;
    const done = await resumeStored(store, hr, continuation.id, decisions, {
      onSuspend: () => {
        called++;
      },
    });
    expect(done.status).toBe('completed');
    expect(called).toBe(0);
  });
});
