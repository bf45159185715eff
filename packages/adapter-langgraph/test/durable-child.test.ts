/**
 * A durable LangGraph run whose sub-agent dies mid-run: the log holds the sub-agent's steps as
 * checkpoints of the whole tree, and recovery goes on inside the sub-agent, under the same run id,
 * without running its finished tools again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createContinuableAgent,
  isContinuationError,
  recoverRun,
  runDurably,
} from '@agent-continuations/core';
import { createSqliteCheckpointLog } from '@agent-continuations/store-sqlite';
import { reportResults, scriptedModel } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

/** A core sub-agent that looks up two accounts; its model dies on its third call the first time. */
function child(keys: string[], crash: { armed: boolean }) {
  const model = scriptedModel([
    { toolCalls: [{ name: 'lookup', args: { account: 'A-1' } }] },
    { toolCalls: [{ name: 'lookup', args: { account: 'A-2' } }] },
    (request) => {
      if (crash.armed) {
        crash.armed = false;
        throw new Error('process killed');
      }
      return reportResults(request);
    },
  ]);
  return createContinuableAgent({
    name: 'ledger',
    model,
    tools: [
      {
        name: 'lookup',
        inputSchema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] },
        validate: (args: unknown) => {
          const parsed = z.object({ account: z.string() }).safeParse(args);
          return parsed.success
            ? { ok: true, value: parsed.data }
            : { ok: false, message: parsed.error.message };
        },
        execute: async ({ account }: { account: string }, ctx) => {
          keys.push(ctx.idempotencyKey);
          return { account, balance: 10 };
        },
      },
    ],
  });
}

function parent(keys: string[], crash: { armed: boolean }) {
  const llm = new ScriptedChatModel([
    { toolCalls: [{ name: 'ledger', args: { input: 'both accounts' } }] },
    reportResults,
  ]);
  const tools = conformanceTools([
    { kind: 'agent', name: 'ledger', description: 'Looks up accounts', agent: child(keys, crash) },
  ]);
  return fromGraph(buildGraph('react', llm, tools, 'Ask the ledger.'), { name: 'desk' });
}

it('recovers inside a sub-agent that died mid-run: its finished tools do not run again', async () => {
  const log = createSqliteCheckpointLog({
    database: join(mkdtempSync(join(tmpdir(), 'lg-child-')), 'log.sqlite'),
  });
  const keys: string[] = [];
  const crash = { armed: true };
  const runId = 'desk-1';
  const failed = await runDurably(parent(keys, crash), log, 'check both', {
    runId,
    owner: 'a',
    leaseMs: 50,
  }).catch((error: unknown) => error);
  expect(String(failed)).toContain('process killed');
  expect(keys).toHaveLength(2);

  let recovered: Awaited<ReturnType<typeof recoverRun>> | undefined;
  for (let attempt = 0; attempt < 50 && !recovered; attempt++) {
    try {
      recovered = await recoverRun(parent(keys, crash), log, runId, { owner: 'b', leaseMs: 5_000 });
    } catch (error) {
      if (!isContinuationError(error, 'CLAIM_CONFLICT')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  expect(recovered?.status).toBe('completed');
  // Both lookups ran once, under the child's run id derived from the parent's.
  expect(keys).toHaveLength(2);
  expect(new Set(keys).size).toBe(2);
  for (const key of keys) expect(key.startsWith(`${runId}/`)).toBe(true);
  log.close?.();
});
