/**
 * A resuming agent that lacks a tool a pending action names is refused with UNKNOWN_TOOL, naming
 * the tool, before any tool or model call: for every adapter as the resuming side.
 */
import { isContinuationError } from '@agent-continuations/core';
import { type Counts, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAgent, FRAMEWORKS } from '../src/frameworks';
import { handoffAgent, handoffScript, transferDecision } from '../src/handoff-scenario';
import { type HandoffSource, suspendInSource } from '../src/handoff-source';

const server = setupScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
const sources = new Map<string, HandoffSource>();

beforeAll(async () => {
  // Each target resumes a continuation of another framework, where fingerprints are not compared.
  sources.set('vercel-ai', await suspendInSource('openai-chat', server.baseURL, 'missing:source-chat'));
  sources.set('other', await suspendInSource('vercel-ai', server.baseURL, 'missing:source-vercel'));
});

describe.each(FRAMEWORKS)('resuming in %s', (to) => {
  const source = () => sources.get(to === 'vercel-ai' ? to : 'other')!;
  it('without the pending tool: UNKNOWN_TOOL names it, and nothing runs', async () => {
    const counts: Counts = {};
    const model = `missing:${to}`;
    const agent = buildAgent(
      to,
      handoffAgent(counts, model, ['lookup_account', 'notify_customer']),
      server.baseURL,
    );
    const error = await agent.resume(source().continuation, transferDecision('call_3_0')).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isContinuationError(error) && error.code).toBe('UNKNOWN_TOOL');
    expect((error as Error).message).toContain('"transfer"');
    expect(counts).toEqual({});
    expect(server.requests.filter((request) => request.model === model)).toEqual([]);
  });

  it('without the pending tool and without a decision for it: refused all the same', async () => {
    const counts: Counts = {};
    const model = `missing-undecided:${to}`;
    const agent = buildAgent(
      to,
      handoffAgent(counts, model, ['lookup_account', 'notify_customer']),
      server.baseURL,
    );
    await expect(agent.resume(source().continuation)).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(counts).toEqual({});
    expect(server.requests.filter((request) => request.model === model)).toEqual([]);
  });
});
