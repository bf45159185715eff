/**
 * Durable runs in process (the in-memory checkpoint log and store): the log and the store move
 * together, and a continuation the log has moved past is refused (issue 11 item 10).
 */
import {
  createContinuableAgent,
  createMemoryStore,
  defineTool,
  isContinuationError,
  recover,
  replayCheckpoints,
  resumeDurably,
  resumeStored,
  runDurably,
} from '@agent-continuations/core';
import { createMemoryCheckpointLog, killableLog, scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const lapse = (ms: number) => new Promise((done) => setTimeout(done, ms));

function payTool(gate: { hang: boolean; dead?: () => void } = { hang: false }) {
  const calls: string[] = [];
  const tool = defineTool({
    name: 'pay',
    parameters: z.object({ n: z.string() }),
    needsApproval: true,
    execute: ({ n }, ctx) => {
      calls.push(ctx.idempotencyKey);
      if (gate.hang) {
        // The process dies here: after the side effect, before its result is recorded.
        gate.dead?.();
        return new Promise<string>(() => {});
      }
      return n;
    },
  });
  return { tool, calls };
}

function payAgent(name: string, gate?: { hang: boolean; dead?: () => void }) {
  const { tool, calls } = payTool(gate);
  const agent = createContinuableAgent({
    name,
    model: scriptedModel([{ toolCalls: [{ name: 'pay', args: { n: 'a' } }] }, 'done']),
    tools: [tool],
  });
  return { agent, calls };
}

/**
 * An agent whose one turn asks approval for two payments, `a` and `b`; a payment for which
 * `hangs(n)` holds calls `died()` and never returns (its process died inside it). `calls` records
 * each payment with its idempotency key.
 */
function twoPayAgent(name: string, hangs: (n: string) => boolean, died: () => void) {
  const calls: string[] = [];
  const pay = defineTool({
    name: 'pay',
    parameters: z.object({ n: z.string() }),
    needsApproval: true,
    execute: ({ n }, ctx) => {
      calls.push(`${n} ${ctx.idempotencyKey}`);
      if (hangs(n)) {
        // The process dies here: after the side effect, before its result is recorded.
        died();
        return new Promise<string>(() => {});
      }
      return n;
    },
  });
  const agent = createContinuableAgent({
    name,
    model: scriptedModel([
      {
        toolCalls: [
          { name: 'pay', args: { n: 'a' } },
          { name: 'pay', args: { n: 'b' } },
        ],
      },
      'done',
    ]),
    tools: [pay],
  });
  return { agent, calls };
}

describe('durable runs: fencing by step (item 10 c)', () => {
  it('resumeDurably refuses a continuation the log has moved past (CLAIM_CONFLICT), and runs nothing', async () => {
    const { agent, calls } = payAgent('twice');
    const log = createMemoryCheckpointLog();
    const first = await runDurably(agent, log, 'go', { runId: 'twice-1' });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const approve = { [first.actions[0]!.id]: { type: 'approve' as const } };
    expect((await resumeDurably(agent, log, first.continuation, approve)).status).toBe('completed');
    const again = resumeDurably(agent, log, first.continuation, approve);
    await expect(again).rejects.toSatisfy((error) => isContinuationError(error, 'CLAIM_CONFLICT'));
    await expect(again).rejects.toThrow(/already resumed.*completed/);
    expect(calls).toHaveLength(1);
    expect(replayCheckpoints(await log.read('twice-1')).status).toBe('completed');
  });

  it('refuses an older suspension of a run that suspended again later, and accepts the newest', async () => {
    const calls: string[] = [];
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ n: z.string() }),
      needsApproval: true,
      execute: ({ n }, ctx) => {
        calls.push(ctx.idempotencyKey);
        return n;
      },
    });
    const agent = createContinuableAgent({
      name: 'two-approvals',
      model: scriptedModel([
        { toolCalls: [{ name: 'pay', args: { n: 'a' } }] },
        { toolCalls: [{ name: 'pay', args: { n: 'b' } }] },
        'done',
      ]),
      tools: [pay],
    });
    const log = createMemoryCheckpointLog();
    const first = await runDurably(agent, log, 'go', { runId: 'two-1' });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const second = await resumeDurably(agent, log, first.continuation, {
      [first.actions[0]!.id]: { type: 'approve' },
    });
    if (second.status !== 'suspended') throw new Error('expected a second suspension');
    await expect(
      resumeDurably(agent, log, first.continuation, { [first.actions[0]!.id]: { type: 'approve' } }),
    ).rejects.toThrow(/already resumed/);
    // A copy of the newest one that went through JSON is still the log's head.
    const third = await resumeDurably(agent, log, JSON.stringify(second.continuation), {
      [second.actions[0]!.id]: { type: 'approve' },
    });
    expect(third.status).toBe('completed');
    expect(calls).toHaveLength(2);
  });

  it('accepts a continuation newer than the log knows (the run went on without the log)', async () => {
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ n: z.string() }),
      needsApproval: true,
      execute: ({ n }) => n,
    });
    const agent = createContinuableAgent({
      name: 'went-on',
      model: scriptedModel([
        { toolCalls: [{ name: 'pay', args: { n: 'a' } }] },
        { toolCalls: [{ name: 'pay', args: { n: 'b' } }] },
        'done',
      ]),
      tools: [pay],
    });
    const log = createMemoryCheckpointLog();
    const first = await runDurably(agent, log, 'go', { runId: 'went-on-1' });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const second = await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } });
    if (second.status !== 'suspended') throw new Error('expected a second suspension');
    const third = await resumeDurably(agent, log, second.continuation, {
      [second.actions[0]!.id]: { type: 'approve' },
    });
    expect(third.status).toBe('completed');
    const starts = (await log.read('went-on-1')).filter((entry) => entry.type === 'start');
    expect(starts.at(-1)).toMatchObject({ from: { id: second.continuation.id } });
  });

  it('resumeStored with a log refuses a continuation the log moved past, and marks its record resumed', async () => {
    const { agent, calls } = payAgent('stored-stale');
    const log = createMemoryCheckpointLog();
    const store = createMemoryStore();
    const first = await runDurably(agent, log, 'go', { runId: 'stale-1', store });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const approve = { [first.actions[0]!.id]: { type: 'approve' as const } };
    // The approval ran durably outside the store (another path), and the stored record was left.
    await resumeDurably(agent, log, first.continuation, approve);
    await expect(resumeStored(store, agent, first.continuation.id, approve, { log })).rejects.toSatisfy(
      (error) => isContinuationError(error, 'CLAIM_CONFLICT'),
    );
    expect(calls).toHaveLength(1);
    expect((await store.load(first.continuation.id))?.status).toBe('completed');
  });
});

describe('durable runs: the log and the store move together (item 10 a, b)', () => {
  it('(b) recover finishes a killed durable resume of a claimed record and completes the record', async () => {
    const gate: { hang: boolean; dead?: () => void } = { hang: true };
    const { agent, calls } = payAgent('orphan', gate);
    const log = createMemoryCheckpointLog();
    const store = createMemoryStore();
    const first = await runDurably(agent, log, 'go', { runId: 'orphan-1', store });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    await store.claim(first.continuation.id, { owner: 'worker-1', leaseMs: 20 });
    const worker = killableLog(log);
    gate.dead = worker.kill;
    void resumeDurably(
      agent,
      worker.view,
      first.continuation,
      { [first.actions[0]!.id]: { type: 'approve' } },
      {
        owner: 'worker-1',
        leaseMs: 20,
      },
    );
    await lapse(80);
    gate.hang = false;
    const [recovered] = await recover(log, { [agent.name]: agent }, { store, leaseMs: 5_000 });
    expect(recovered?.result?.status).toBe('completed');
    expect(calls).toHaveLength(2); // the documented at-least-once edge: it died before recording the result
    expect(new Set(calls).size).toBe(1); // with the same idempotency key
    expect((await store.list({ status: ['suspended', 'claimed'] })).items).toEqual([]);
    expect((await store.load(first.continuation.id))?.status).toBe('completed');
  });

  it('(b) resumeStored with a log, killed mid-run: recover completes the claim it ran under and saves the next suspension in the same step', async () => {
    const gate: { hang: boolean; dead?: () => void } = { hang: true };
    const calls: string[] = [];
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ n: z.string() }),
      needsApproval: true,
      execute: ({ n }, ctx) => {
        calls.push(ctx.idempotencyKey);
        if (gate.hang) {
          gate.dead?.();
          return new Promise<string>(() => {});
        }
        return n;
      },
    });
    const agent = createContinuableAgent({
      name: 'orphan-stored',
      model: scriptedModel([
        { toolCalls: [{ name: 'pay', args: { n: 'a' } }] },
        { toolCalls: [{ name: 'pay', args: { n: 'b' } }] },
        'done',
      ]),
      tools: [pay],
    });
    const log = createMemoryCheckpointLog();
    const store = createMemoryStore();
    const first = await runDurably(agent, log, 'go', { runId: 'orphan-2', store });
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const worker = killableLog(log);
    gate.dead = worker.kill;
    void resumeStored(
      store,
      agent,
      first.continuation.id,
      { [first.actions[0]!.id]: { type: 'approve' } },
      {
        log: worker.view,
        owner: 'worker-1',
        leaseMs: 20,
      },
    );
    await lapse(80);
    gate.hang = false;
    const [recovered] = await recover(log, { [agent.name]: agent }, { store, leaseMs: 5_000 });
    expect(recovered?.result?.status).toBe('suspended');
    if (recovered?.result?.status !== 'suspended') return;
    const next = recovered.result.continuation;
    expect((await store.load(first.continuation.id))?.status).toBe('completed');
    const waiting = (await store.list({ status: 'suspended' })).items.map((item) => item.id);
    expect(waiting).toEqual([next.id]);
    const done = await resumeStored(
      store,
      agent,
      next.id,
      { [recovered.result.actions[0]!.id]: { type: 'approve' } },
      {
        log,
      },
    );
    expect(done.status).toBe('completed');
    expect(calls.length).toBe(3); // call a twice (the at-least-once edge, same key), b once
    expect(new Set(calls).size).toBe(2);
  });
});

describe('resumeStored with a log after a dead worker', () => {
  it("applies this call's decisions once the dead worker's run is recovered (none dropped)", async () => {
    const gate: { hang: boolean; dead?: () => void } = { hang: false };
    const { agent, calls } = twoPayAgent(
      'two-payments',
      (n) => n === 'a' && gate.hang,
      () => gate.dead?.(),
    );
    const log = createMemoryCheckpointLog();
    const store = createMemoryStore();
    const first = await runDurably(agent, log, 'go', { runId: 'two-1', store });
    if (first.status !== 'suspended') throw new Error('expected two approvals');
    // Worker 1 approves a and dies inside it, holding the claim and the log's lease.
    const worker = killableLog(log);
    let dead = false;
    const hang = <T>() => new Promise<T>(() => {});
    const deadStore: typeof store = Object.create(store);
    deadStore.renew = (claim, options) => (dead ? hang() : store.renew(claim, options));
    gate.hang = true;
    gate.dead = () => {
      dead = true;
      worker.kill();
    };
    const [a, b] = first.actions.map((action) => action.id) as [string, string];
    void resumeStored(
      deadStore,
      agent,
      first.continuation.id,
      { [a]: { type: 'approve' } },
      {
        log: worker.view,
        leaseMs: 20,
      },
    );
    await lapse(80);
    gate.hang = false;
    // Worker 2 approves b: the run goes on from worker 1's last step, then b is applied.
    const result = await resumeStored(
      store,
      agent,
      first.continuation.id,
      { [b]: { type: 'approve' } },
      {
        log,
        leaseMs: 5_000,
      },
    );
    expect(result.status).toBe('completed');
    expect(calls.filter((call) => call.startsWith('b '))).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith('a '))).toHaveLength(2); // at-least-once edge, same key
    expect(new Set(calls.filter((call) => call.startsWith('a '))).size).toBe(1);
    expect((await store.load(first.continuation.id))?.status).toBe('completed');
    expect((await store.list({ status: ['suspended', 'claimed'] })).items).toEqual([]);
  });
  it('recover completes the record whose claim changed hands between dead workers (none left waiting)', async () => {
    const gate = { hang: new Set<string>(), dead: () => {} };
    const { agent, calls } = twoPayAgent(
      'claims-change-hands',
      (n) => gate.hang.has(n),
      () => gate.dead(),
    );
    const log = createMemoryCheckpointLog();
    const store = createMemoryStore();
    const first = await runDurably(agent, log, 'go', { runId: 'hands-1', store });
    if (first.status !== 'suspended') throw new Error('expected two approvals');
    const id = first.continuation.id;
    const [a, b] = first.actions.map((action) => action.id) as [string, string];
    /** A worker that dies when `gate.dead` is called: its log and its claim renewals stop. */
    const worker = () => {
      const view = killableLog(log);
      let dead = false;
      const deadStore: typeof store = Object.create(store);
      deadStore.renew = (claim, options) =>
        dead ? new Promise<never>(() => {}) : store.renew(claim, options);
      return {
        log: view.view,
        store: deadStore,
        kill: () => {
          dead = true;
          view.kill();
        },
      };
    };
    // Worker 1 approves a and dies inside it, holding claim 1 and the log's lease.
    const w1 = worker();
    gate.hang = new Set(['a']);
    gate.dead = w1.kill;
    void resumeStored(w1.store, agent, id, { [a]: { type: 'approve' } }, { log: w1.log, leaseMs: 20 });
    await lapse(80);
    // Worker 2 takes the record (claim 2), recovers worker 1's run, resumes it with b and dies in b.
    const w2 = worker();
    gate.hang = new Set(['b']);
    gate.dead = w2.kill;
    void resumeStored(w2.store, agent, id, { [b]: { type: 'approve' } }, { log: w2.log, leaseMs: 20 });
    await lapse(80);
    // Worker 3 takes the record (claim 3) and dies right after taking the run over, before writing.
    const w3 = worker();
    w3.kill();
    void resumeStored(w3.store, agent, id, {}, { log: w3.log, leaseMs: 20 });
    await lapse(80);
    gate.hang = new Set();
    const recovered = await recover(log, { [agent.name]: agent }, { store });
    expect(recovered.map((run) => run.result?.status)).toEqual(['completed']);
    expect((await log.status('hands-1'))?.status).toBe('completed');
    // b ran again after worker 2 died (at least once), always with the same key.
    expect(new Set(calls.filter((call) => call.startsWith('b '))).size).toBe(1);
    // The record the run resumed is settled, not left to lapse back to waiting.
    expect((await store.load(id))?.status).toBe('completed');
    await lapse(60);
    expect((await store.list({ status: ['suspended', 'claimed'] })).items).toEqual([]);
  });
});

describe('recover gives up on a run', () => {
  it('that failed before its first step: its input is saved as failed, and retried from the store it completes', async () => {
    let down = true;
    const received: number[] = [];
    const agent = createContinuableAgent({
      name: 'down-at-first',
      model: scriptedModel(({ messages }) => {
        received.push(messages.length);
        if (down) throw new Error('model down');
        return 'done';
      }),
    });
    const log = createMemoryCheckpointLog();
    const store = createMemoryStore();
    await expect(runDurably(agent, log, 'go', { runId: 'first-down', leaseMs: 20 })).rejects.toThrow(
      'model down',
    );
    await lapse(60);
    const [given] = await recover(log, { [agent.name]: agent }, { store, maxAttempts: 1 });
    expect(given?.failed).toBe(true);
    expect((await log.status('first-down'))?.status).toBe('failed');
    const { items } = await store.list({ status: 'failed' });
    expect(items.map((item) => [item.runId, item.error])).toEqual([
      ['first-down', 'MODEL_ERROR: The model call failed: model down'],
    ]);
    expect(await log.unsaved()).toEqual([]);
    down = false;
    await store.retry(items[0]!.id);
    const result = await resumeStored(store, agent, items[0]!.id, {}, { log });
    expect(result.status).toBe('completed');
    expect(received.at(-1)).toBe(1); // the model got the run's input, once
    expect((await store.load(items[0]!.id))?.status).toBe('completed');
  });
});

describe('durable runs: a stored resume that lost its claim', () => {
  // Seed 3428 (`pnpm simulate --seed 3428 --modes durable --pay-once`): after the claim was lost,
  // the resume went on appending to the log under the log's own lease; a sub-agent failing with
  // LEASE_LOST then recorded its state as it was when the resume began, and recovery asked again
  // for an approval whose tool had already run.
  it('writes nothing more to the log once its claim lapsed, and fails LEASE_LOST', async () => {
    const store = createMemoryStore();
    const log = createMemoryCheckpointLog();
    const frozen = { renewals: false };
    let entriesAtLoss: number | undefined;
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ n: z.string() }),
      needsApproval: true,
      execute: async ({ n }, ctx) => {
        frozen.renewals = true; // the worker's renewals stall: its claim lapses while the tool runs
        while (!ctx.signal?.aborted) await lapse(5);
        entriesAtLoss = (await log.read('lost-1')).length;
        return n;
      },
    });
    const agent = createContinuableAgent({
      name: 'lost-claim',
      model: scriptedModel([{ toolCalls: [{ name: 'pay', args: { n: 'a' } }] }, 'done']),
      tools: [pay],
    });
    const first = await runDurably(agent, log, 'go', { runId: 'lost-1', store });
    if (first.status !== 'suspended') throw new Error('expected an approval');
    const worker = {
      ...store,
      renew: (claim, options) =>
        frozen.renewals ? new Promise<never>(() => {}) : store.renew(claim, options),
    } as typeof store;
    const resumed = resumeStored(
      worker,
      agent,
      first.continuation.id,
      { [first.actions[0]!.id]: { type: 'approve' } },
      { log, leaseMs: 30 },
    );
    await expect(resumed).rejects.toSatisfy((error) => isContinuationError(error, 'LEASE_LOST'));
    // Was: the tool's result and the next steps appended after the claim was gone.
    expect(entriesAtLoss).toBeDefined();
    expect((await log.read('lost-1')).length).toBe(entriesAtLoss);
  });
});
