/**
 * Every ordered pair of frameworks: the source suspends at the transfer approval after three model
 * turns; a fresh process per target framework resumes the four continuations aimed at it.
 */
import { type Continuation, parseContinuation } from '@agent-continuations/core';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORKS, type Framework, frameworkName } from '../src/frameworks';
import { inFreshProcess } from '../src/fresh-process';
import { HANDOFF_INSTRUCTIONS, HANDOFF_METADATA, handoffScript } from '../src/handoff-scenario';
import { type HandoffSource, suspendInSource } from '../src/handoff-source';
import type { HandoffReport } from '../src/handoff-worker';
import { plainTranscript } from '../src/neutral';

const server = setupScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
const sources = new Map<Framework, HandoffSource>();
const reports = new Map<string, HandoffReport>();
const pids = new Map<Framework, number>();

const sourceModel = (from: Framework) => `source:${from}`;
const targetModel = (from: Framework, to: Framework) => `target:${from}>${to}`;

beforeAll(async () => {
  for (const from of FRAMEWORKS)
    sources.set(from, await suspendInSource(from, server.baseURL, sourceModel(from)));
  await Promise.all(
    FRAMEWORKS.map(async (to) => {
      const jobs = FRAMEWORKS.map((from) => ({
        label: `${from}>${to}`,
        model: targetModel(from, to),
        continuation: sources.get(from)!.continuation,
      }));
      const outcome = await inFreshProcess<{ pid: number; results: HandoffReport[] }>({
        task: 'handoff',
        target: to,
        baseURL: server.baseURL,
        jobs,
      });
      pids.set(to, outcome.report.pid);
      for (const report of outcome.report.results) reports.set(report.label, report);
    }),
  );
}, 60_000);

describe('the source side', () => {
  it.each(FRAMEWORKS)('%s suspends on the transfer with the lookup of that turn already done', (from) => {
    const source = sources.get(from)!;
    expect(source.counts).toEqual({ lookup_account: 2, notify_customer: 1 });
    const continuation = parseContinuation(source.continuation);
    expect(continuation.agent).toMatchObject({ name: 'payments', framework: frameworkName(from) });
    expect(continuation.pending.map((entry) => [entry.kind, entry.toolName, entry.toolCallId])).toEqual([
      ['approval', 'transfer', 'call_3_0'],
    ]);
    expect(continuation.done.map((entry) => entry.toolName)).toEqual(['lookup_account']);
    expect(continuation.decisions.map((entry) => [entry.toolName, entry.by])).toEqual([
      ['notify_customer', 'ann@acme'],
    ]);
  });

  it('resumed each target in a process of its own', () => {
    expect(new Set([...pids.values(), process.pid]).size).toBe(FRAMEWORKS.length + 1);
  });
});

const pairs = FRAMEWORKS.flatMap((from) => FRAMEWORKS.map((to) => [from, to] as const));

describe.each(pairs)('%s -> %s', (from, to) => {
  const report = () => {
    const found = reports.get(`${from}>${to}`)!;
    expect(found.error).toBeUndefined();
    return found;
  };

  it("sends the target's model the conversation the source's model had, plus the settled turn", () => {
    report();
    const sent = server.requests.filter((request) => request.model === sourceModel(from));
    const received = server.requests.filter((request) => request.model === targetModel(from, to));
    const before = sent.at(-1)!.modelRequest!;
    const after = received[0]!.modelRequest!;
    const source = parseContinuation(sources.get(from)!.continuation) as Continuation;
    const turn = plainTranscript(source.messages).at(-1)!;
    expect(turn).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'The balance covers it; sending 50 EUR to Bob.' },
        { type: 'tool-call', toolCallId: 'call_3_0', toolName: 'transfer', args: { to: 'bob', amount: 50 } },
        { type: 'tool-call', toolCallId: 'call_3_1', toolName: 'lookup_account', args: { account: 'B-2' } },
      ],
    });
    // The approval edited the transfer: the model reads the arguments that ran (the audit trail
    // keeps the ones it asked for).
    const edited = {
      ...turn,
      content: (turn.content as Array<{ type: string; toolCallId?: string }>).map((part) =>
        part.toolCallId === 'call_3_0' ? { ...part, args: { to: 'bob', amount: 45 } } : part,
      ),
    };
    expect(plainTranscript(after.messages)).toEqual([
      ...plainTranscript(before.messages),
      edited,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_3_0',
            toolName: 'transfer',
            output: { ok: true, to: 'bob', amount: 45 },
          },
          {
            type: 'tool-result',
            toolCallId: 'call_3_1',
            toolName: 'lookup_account',
            output: { account: 'B-2', balance: 10 },
          },
        ],
      },
    ]);
    expect(after.instructions).toBe(HANDOFF_INSTRUCTIONS);
    expect(after.tools.map((tool) => tool.name).sort()).toEqual([
      'lookup_account',
      'notify_customer',
      'transfer',
    ]);
  });

  it('runs the approved transfer exactly once, in the target, and nothing the source already ran', () => {
    expect(report().counts).toEqual({ transfer: 1, notify_customer: 1 });
  });

  it('carries metadata and the audit trail of both sides', () => {
    const suspended = report().suspended!;
    expect(suspended.framework).toBe(frameworkName(to));
    const source = parseContinuation(sources.get(from)!.continuation);
    expect(suspended.runId).toBe(source.runId);
    // Three model calls in the source, one in the target.
    expect([source.step, suspended.step]).toEqual([3, 4]);
    expect(suspended.hasState).toBe(to === 'langgraph');
    expect(suspended.metadata).toEqual(HANDOFF_METADATA);
    expect(suspended.actions).toEqual([
      { id: 'call_4_0', toolName: 'notify_customer', args: { message: 'Your transfer went out.' } },
    ]);
    expect(
      suspended.decisions.map(({ actionId, type, toolName, by, reason, args, editedArgs }) => ({
        actionId,
        type,
        toolName,
        by,
        reason,
        args,
        editedArgs,
      })),
    ).toEqual([
      {
        actionId: 'call_2_0',
        type: 'approve',
        toolName: 'notify_customer',
        by: 'ann@acme',
        reason: 'customer asked for updates',
        args: { message: 'We are sending 50 EUR to Bob.' },
        editedArgs: undefined,
      },
      {
        actionId: 'call_3_0',
        type: 'approve',
        toolName: 'transfer',
        by: 'bob@acme',
        reason: 'daily limit',
        args: { to: 'bob', amount: 50 },
        editedArgs: { to: 'bob', amount: 45 },
      },
    ]);
  });

  it('completes', () => {
    expect(report().final).toEqual({
      status: 'completed',
      output: 'done: notify_customer={"sent":true,"message":"Your transfer went out."}',
    });
  });
});
