import {
  createApprovalLinks,
  createContinuableAgent,
  defineTool,
  listActions,
  type RunResult,
  type SuspendNotice,
} from '@agent-continuations/core';
import {
  durablePlanInput,
  durableTestAgent,
  reportResults,
  scriptedModel,
} from '@agent-continuations/testing';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../src/worker/create-worker';
import { PG_URL, scratchSchema } from './pg-fixtures';
import { until } from './until';
import { openWorkerStore } from './worker-store';

const { schema, bossSchema, drop } = scratchSchema('deadlines');
const store = await openWorkerStore(PG_URL, schema);
const hung = scratchSchema('hungnotice');
const hungStore = await openWorkerStore(PG_URL, hung.schema);
afterAll(async () => {
  await Promise.all([store.close(), hungStore.close()]);
  await Promise.all([drop(), hung.drop()]);
});

it('notifies each suspension with its links, and rejects an action past its deadline once', {
  timeout: 60_000,
}, async () => {
  let refunds = 0;
  const modelSaw: string[] = [];
  const agent = createContinuableAgent({
    name: 'refunds',
    model: scriptedModel((request) => {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'tool') {
        modelSaw.push(JSON.stringify(last.content));
        return reportResults(request);
      }
      return { toolCalls: [{ name: 'refund', args: { amount: 49 } }] };
    }),
    tools: [
      defineTool({
        name: 'refund',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        deadline: 300,
        execute: () => {
          refunds++;
          return 'refunded';
        },
      }),
    ],
  });
  const notices: SuspendNotice[] = [];
  const errors: unknown[] = [];
  const links = createApprovalLinks({ secret: 'a-link-secret-16-bytes', baseUrl: 'http://inbox.test' });
  // Two workers sweep the same store: the claim keeps the deadline's decision to one of them.
  const workers = ['a', 'b'].map((id) =>
    createWorker({
      store,
      connectionString: PG_URL,
      bossOptions: { schema: bossSchema },
      agents: { refunds: agent },
      id,
      pollingIntervalSeconds: 0.5,
      onSuspend: (notice) => {
        notices.push(notice);
      },
      links,
      deadlines: { intervalMs: 100, reason: 'Nobody approved it in time.' },
      onError: (error) => errors.push(error),
    }),
  );
  try {
    for (const worker of workers) await worker.start();
    const runId = await workers[0]!.submitRun('refunds', 'Refund Ann');
    const notice = await until(() => notices[0]);
    expect(notice).toMatchObject({ runId, agent: 'refunds', reason: 'suspended' });
    const [action] = notice.actions;
    expect(action!.deadline).toBeDefined();
    const beforeDeadline = new Date(Date.parse(action!.deadline!) - 1);
    expect(await links.verify(action!.links!.approve.split('/').pop()!, beforeDeadline)).toMatchObject({
      continuationId: notice.continuationId,
      kind: 'approve',
      expiresAt: action!.deadline,
    });

    await until(async () =>
      (await store.load(notice.continuationId))?.status === 'completed' ? true : undefined,
    );
    await until(() => (modelSaw.length > 0 ? true : undefined));
    expect(refunds).toBe(0);
    expect(modelSaw).toHaveLength(1);
    expect(modelSaw[0]).toContain('Nobody approved it in time.');
    expect((await store.list({ status: 'suspended' })).items).toEqual([]);
    expect(listActions((await store.load(notice.continuationId))!.continuation)).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    for (const worker of workers) await worker.stop();
  }
});

it('a notice receiver that never answers holds up no job: the next runs are taken and finish', {
  timeout: 60_000,
}, async () => {
  let answer!: () => void;
  const receiverDown = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const noticed: string[] = [];
  const results: RunResult<unknown>[] = [];
  const worker = createWorker({
    store: hungStore,
    connectionString: PG_URL,
    bossOptions: { schema: hung.bossSchema },
    agents: { durable: durableTestAgent({ charge: () => 'paid', notify: () => 'sent' }) },
    id: 'hung',
    pollingIntervalSeconds: 0.2,
    onSuspend: async (notice) => {
      noticed.push(notice.runId);
      await receiverDown;
    },
    onResult: (result) => results.push(result),
  });
  try {
    await worker.start();
    for (let i = 0; i < 3; i++)
      await worker.submitRun('durable', durablePlanInput({ steps: 1, approvals: [0] }));
    await until(() => (noticed.length === 3 ? true : undefined));
    // Submitted once every notice hangs: they come in a later batch.
    for (let i = 0; i < 3; i++) await worker.submitRun('durable', durablePlanInput({ steps: 1 }));
    let completed = 0;
    for (let i = 0; i < 100 && completed < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      completed = results.filter((result) => result.status === 'completed').length;
    }
    console.log(
      `faults/notice-hangs: 3 notices unanswered; ${completed} of 3 later runs completed within 10 s`,
    );
    expect(completed).toBe(3);
    expect((await hungStore.list({ status: 'suspended', limit: 10 })).items).toHaveLength(3);
  } finally {
    answer();
    await worker.stop();
  }
});
