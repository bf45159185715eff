/**
 * The pg-boss workers take an OpenAI Agents agent like any other: a run submitted to the queue
 * suspends for approval in the real `@openai/agents` client over the scripted server, the decision
 * submitted to two workers resumes it once, and the transfer runs once.
 */
import { continuable } from '@agent-continuations/openai-agents';
import {
  createPostgresCheckpointLog,
  createPostgresStore,
  createWorker,
  type Worker,
} from '@agent-continuations/store-postgres';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, OpenAIProvider, tool } from '@openai/agents';
import { afterAll, expect, it } from 'vitest';
import { z } from 'zod';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `agents_worker_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
const server = setupScriptedOpenAIServer({
  scripts: {
    bank: [
      { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
      (request) => `sent: ${request.messages.filter((message) => message.role === 'tool').length}`,
    ],
  },
});

const transfers: string[] = [];
/** The bank agent as an app builds it with the SDK, wrapped in its one line. */
function bank() {
  // The SDK's own provider, on the chat completions API.
  const modelProvider = new OpenAIProvider({ baseURL: server.baseURL, apiKey: 'test', useResponses: false });
  return continuable(
    new Agent({
      name: 'bank',
      instructions: 'You move money.',
      model: 'bank',
      tools: [
        tool({
          name: 'transfer',
          description: 'Send money',
          parameters: z.object({ to: z.string(), amount: z.number() }),
          needsApproval: true,
          execute: async ({ to, amount }) => {
            transfers.push(`${to}:${amount}`);
            return 'sent';
          },
        }),
      ],
    }),
    { modelProvider },
  );
}

const store = createPostgresStore({ connectionString: PG_URL, schema });
const log = createPostgresCheckpointLog({ connectionString: PG_URL, schema });
const workers: Worker[] = [];
afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await log.close();
  await store.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await store.pool.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  await store.close();
});

it('a queued OpenAI Agents run suspends, and a decision sent to two workers resumes it once', {
  timeout: 60_000,
}, async () => {
  await store.migrate();
  for (const id of ['w1', 'w2']) {
    const worker = createWorker({
      store,
      checkpoints: log,
      connectionString: PG_URL,
      bossOptions: { schema: `${schema}_boss`, maintenanceIntervalSeconds: 1 },
      agents: { bank: bank() },
      id,
      pollingIntervalSeconds: 0.5,
    });
    await worker.start();
    workers.push(worker);
  }
  const runId = await workers[0]!.submitRun('bank', 'Send 50 EUR to Bob');
  const waiting = await until(async () => (await store.list({ runId, status: 'suspended' })).items[0]);
  const { continuation } = (await store.load(waiting.id))!;
  expect(continuation.agent.framework).toBe('openai-agents');
  const decisions = { [continuation.pending[0]!.toolCallId]: { type: 'approve' as const, by: 'ann' } };
  await workers[0]!.submitDecisions(waiting.id, decisions);
  // The second hand-off finds the record claimed by the first and is refused at once.
  await expect(workers[1]!.submitDecisions(waiting.id, decisions)).rejects.toMatchObject({
    code: 'CLAIM_CONFLICT',
  });
  await until(async () => ((await log.status(runId))?.status === 'completed' ? true : undefined));
  await until(async () => ((await store.load(waiting.id))?.status === 'completed' ? true : undefined));
  expect(transfers).toEqual(['bob:50']);
  expect((await store.load(waiting.id))?.resumedBy).toBeDefined();
});

/** `check()`'s first defined answer, polled every 50 ms for at most 20 s. */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
