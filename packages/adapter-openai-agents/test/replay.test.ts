/**
 * Replay: the SDK's `RunState` text, restored twice and approved twice, runs the approved tool
 * twice; the same run wrapped, saved in a SQLite store and resumed twice through the runtime (two
 * runtimes on one database file, as two processes), runs it once: the store's claim lets one win.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, isContinuationError } from '@agent-continuations/core';
import { createSqliteStore } from '@agent-continuations/store-sqlite';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { RunState, run } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { bankAgent } from './support/bank';

const server = setupScriptedOpenAIServer({ scripts: {} });
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-openai-agents-replay-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['chat', 'responses'] as const)('one saved approval resumed twice (%s)', (api) => {
  it('the SDK alone: RunState.fromString twice, approve twice, the transfer runs twice', async () => {
    const counts: { transfer?: number } = {};
    const agent = bankAgent(server, api, counts);
    const first = await run(agent, 'Send 500 to bob');
    expect(first.interruptions.map((item) => item.name)).toEqual(['transfer']);
    const saved = first.state.toString();
    for (let i = 0; i < 2; i++) {
      const state = await RunState.fromString(agent, saved);
      for (const item of state.getInterruptions()) state.approve(item);
      const done = await run(agent, state);
      expect(done.finalOutput).toBe('Done: {"sent":500,"to":"bob"}');
    }
    expect(counts.transfer).toBe(2);
  });

  it('wrapped: the store claims the continuation, the second resume is refused, the transfer runs once', async () => {
    const counts: { transfer?: number } = {};
    const path = join(dir, `${api}.db`);
    const process = () => {
      const store = createSqliteStore({ path });
      return {
        store,
        runtime: createRuntime({ agents: [continuable(bankAgent(server, api, counts))], store }),
      };
    };
    const one = process();
    const paused = await one.runtime.start('bank', 'Send 500 to bob');
    if (paused.status !== 'suspended') throw new Error('expected an approval');
    const decisions = { [paused.actions[0]!.id]: { type: 'approve' as const, by: 'ann' } };
    const two = process();
    const three = process();
    try {
      const outcomes = await Promise.allSettled([
        two.runtime.resume(paused.continuation.id, decisions),
        three.runtime.resume(paused.continuation.id, decisions),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(won).toHaveLength(1);
      expect((won[0] as PromiseFulfilledResult<any>).value).toMatchObject({
        status: 'completed',
        output: 'Done: {"sent":500,"to":"bob"}',
      });
      const lost = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(isContinuationError(lost.reason, 'CLAIM_CONFLICT')).toBe(true);
      // Later, once more: the record is finished, and nothing runs.
      const again = await one.runtime
        .resume(paused.continuation.id, decisions)
        .catch((error: unknown) => error);
      expect(isContinuationError(again)).toBe(true);
      expect(counts.transfer).toBe(1);
    } finally {
      for (const each of [one, two, three]) await each.store.close();
    }
  });
});
