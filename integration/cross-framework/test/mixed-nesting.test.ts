/**
 * Six chains of depth 3 that put every adapter at every level. Each suspends once with two
 * actions (the leaf's transfer and the middle's refund, asked in the same middle turn) and is
 * resumed from its continuation alone in one fresh process. A second run of each chain is resumed
 * there by the same chain built in other frameworks at every level: a handoff at all three levels.
 */
import {
  type Action,
  listActions,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { type Counts, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORKS, frameworkName } from '../src/frameworks';
import { inFreshProcess } from '../src/fresh-process';
import { buildChain, CHAINS, chainScripts, expectedOutputs, rotated } from '../src/nesting-scenario';
import type { NestingReport } from '../src/nesting-worker';

const server = setupScriptedOpenAIServer({ scripts: Object.assign({}, ...CHAINS.map(chainScripts)) });
const firstCounts = new Map<string, Counts>();
const firstActions = new Map<string, Action[]>();
const continuations = new Map<string, string>();
const reports = new Map<string, NestingReport>();
let workerPid = 0;

/** Each chain twice: resumed as built, and resumed by the rotated build. */
const runs = CHAINS.flatMap((chain) => [
  { key: chain.id, chain, resumeAs: chain },
  { key: `${chain.id}:handoff`, chain, resumeAs: rotated(chain) },
]);

beforeAll(async () => {
  for (const { key, chain } of runs) {
    const counts: Counts = {};
    const result = await buildChain(chain, counts, server.baseURL).run('Handle case 42');
    if (result.status !== 'suspended') throw new Error(`${key}: expected a suspension, got ${result.status}`);
    firstCounts.set(key, counts);
    firstActions.set(key, result.actions);
    continuations.set(key, serializeContinuation(result.continuation));
  }
  const outcome = await inFreshProcess<{ pid: number; results: NestingReport[] }>({
    task: 'nesting',
    baseURL: server.baseURL,
    jobs: runs.map(({ key, resumeAs }) => ({ key, chain: resumeAs, continuation: continuations.get(key)! })),
  });
  workerPid = outcome.report.pid;
  for (const report of outcome.report.results) reports.set(report.key, report);
}, 60_000);

it('puts every adapter at every level', () => {
  for (const level of [0, 1, 2]) {
    const used = new Set(CHAINS.map((chain) => frameworkName(chain.levels[level]!)));
    expect([...used].sort()).toEqual(['langgraph', 'openai', 'openai-agents', 'vercel-ai']);
  }
  expect(new Set(CHAINS.flatMap((chain) => chain.levels))).toEqual(new Set(FRAMEWORKS));
});

describe.each(CHAINS)('$id ($levels.0 > $levels.1 > $levels.2)', (chain) => {
  it('suspends once with the leaf approval and the middle approval of the same turn', () => {
    expect(firstCounts.get(chain.id)).toEqual({ lookup_account: 1 });
    const actions = firstActions.get(chain.id)!;
    expect(
      actions.map((action) => ({
        id: action.id,
        agent: action.agent,
        toolName: action.toolName,
        path: action.path.map((segment) => segment.agent),
      })),
    ).toEqual([
      {
        id: 'call_1_1/call_1_0/call_1_0',
        agent: `${chain.id}-leaf`,
        toolName: 'transfer',
        path: [`${chain.id}-root`, `${chain.id}-middle`, `${chain.id}-leaf`],
      },
      {
        id: 'call_1_1/call_1_1',
        agent: `${chain.id}-middle`,
        toolName: 'refund',
        path: [`${chain.id}-root`, `${chain.id}-middle`],
      },
    ]);
    const continuation = parseContinuation(continuations.get(chain.id)!);
    const middle = continuation.pending[0];
    expect(middle?.kind).toBe('agent');
    if (middle?.kind !== 'agent') return;
    expect(continuation.agent.framework).toBe(frameworkName(chain.levels[0]));
    expect(middle.child.agent.framework).toBe(frameworkName(chain.levels[1]));
    const leaf = middle.child.pending.find((entry) => entry.kind === 'agent');
    expect(leaf?.kind === 'agent' && leaf.child.agent.framework).toBe(frameworkName(chain.levels[2]));
  });

  it('completes in a fresh process from the continuation alone, every tool run exactly once', () => {
    expectCompleted(chain.id);
  });

  it(`completes when resumed as ${rotated(chain).levels.join(' > ')}: a handoff at every level`, () => {
    expectCompleted(`${chain.id}:handoff`);
  });

  it('called each model as often as its turns need', () => {
    const calls = (agent: string) =>
      server.requests.filter((request) => request.model === `${chain.id}-${agent}`);
    // Two runs, each with one call before the suspension and one after it.
    expect(calls('root')).toHaveLength(4);
    expect(calls('middle')).toHaveLength(4);
    expect(calls('leaf')).toHaveLength(4);
    expect([...calls('root'), ...calls('middle'), ...calls('leaf')].every((r) => r.status === 200)).toBe(
      true,
    );
  });
});

function expectCompleted(key: string): void {
  const report = reports.get(key)!;
  expect(report.error).toBeUndefined();
  expect(workerPid).not.toBe(process.pid);
  expect(report.approved).toEqual(listActions(parseContinuation(continuations.get(key)!)).map((a) => a.id));
  expect(report.counts).toEqual({ transfer: 1, refund: 1 });
  const all: Counts = { ...firstCounts.get(key) };
  for (const [name, count] of Object.entries(report.counts)) all[name] = (all[name] ?? 0) + count;
  expect(all).toEqual({ lookup_account: 1, transfer: 1, refund: 1 });
  expect(report.status).toBe('completed');
  expect(report.output).toBe(expectedOutputs().root);
}
