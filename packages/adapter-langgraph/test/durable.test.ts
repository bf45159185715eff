import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isContinuationError, recoverRun, runDurably } from '@agent-continuations/core';
import { createSqliteCheckpointLog } from '@agent-continuations/store-sqlite';
import { type Counts, lookupTool, reportResults, type Script } from '@agent-continuations/testing';
import { expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

const script: Script = [
  { toolCalls: [{ name: 'lookup_account', args: { account: 'A-1' } }] },
  { toolCalls: [{ name: 'lookup_account', args: { account: 'A-2' } }] },
  reportResults,
];

/** The model dies on its third call the first time: as if the process were killed there. */
function agent(counts: Counts, crash: { armed: boolean }) {
  const model = new ScriptedChatModel((request) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    if (turn === 2 && crash.armed) {
      crash.armed = false;
      throw new Error('process killed');
    }
    const reply = (script as Exclude<Script, (...args: never[]) => unknown>)[turn]!;
    return typeof reply === 'function' ? reply(request) : reply;
  });
  return fromGraph(buildGraph('react', model, conformanceTools([lookupTool(counts)]), 'Look things up.'), {
    name: 'looker',
  });
}

it('a durable LangGraph run recovers at its last recorded step; finished tools do not run again', async () => {
  const log = createSqliteCheckpointLog({
    database: join(mkdtempSync(join(tmpdir(), 'lg-durable-')), 'log.sqlite'),
  });
  const counts: Counts = {};
  const crash = { armed: true };
  const runId = 'run-1';
  const failed = await runDurably(agent(counts, crash), log, 'look up both', {
    runId,
    owner: 'worker-a',
    leaseMs: 50,
  }).catch((error: unknown) => error);
  expect(String(failed)).toContain('process killed');
  expect(counts.lookup_account).toBe(2);

  // Another worker takes the run over once the first one's lease has lapsed.
  let recovered: Awaited<ReturnType<typeof recoverRun>> | undefined;
  for (let attempt = 0; attempt < 50 && !recovered; attempt++) {
    try {
      recovered = await recoverRun(agent(counts, crash), log, runId, { owner: 'worker-b', leaseMs: 5_000 });
    } catch (error) {
      if (!isContinuationError(error, 'CLAIM_CONFLICT')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  expect(recovered?.status).toBe('completed');
  if (recovered?.status === 'completed') {
    expect(recovered.output).toBe('done: lookup_account={"account":"A-2","balance":120}');
  }
  expect(counts.lookup_account).toBe(2);
  log.close?.();
});
