/**
 * A rejection decided on the resuming side of a handoff: the rejected call never runs, and the
 * resuming framework's model gets the same words as every adapter sends, with the reason.
 */
import { parseContinuation } from '@agent-continuations/core';
import { type Counts, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { beforeAll, expect, it } from 'vitest';
import { buildAgent, FRAMEWORKS, type Framework } from '../src/frameworks';
import { handoffAgent, handoffScript } from '../src/handoff-scenario';
import { type HandoffSource, suspendInSource } from '../src/handoff-source';
import { plainTranscript } from '../src/neutral';

const server = setupScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
const sources = new Map<Framework, HandoffSource>();

beforeAll(async () => {
  for (const from of FRAMEWORKS)
    sources.set(from, await suspendInSource(from, server.baseURL, `reject:${from}`));
});

/** Each target resumes the continuation of the framework after it in the list. */
const pairs = FRAMEWORKS.map((to, index) => [FRAMEWORKS[(index + 1) % FRAMEWORKS.length]!, to] as const);

it.each(pairs)('%s -> %s: the rejected transfer never runs and the model reads why', async (from, to) => {
  const counts: Counts = {};
  const model = `reject-target:${from}>${to}`;
  const agent = buildAgent(to, handoffAgent(counts, model), server.baseURL);
  const result = await agent.resume(sources.get(from)!.continuation, {
    call_3_0: { type: 'reject', reason: 'over the daily limit', by: 'bob@acme' },
  });
  expect(result.status).toBe('suspended');
  if (result.status !== 'suspended') return;
  expect(counts).toEqual({});
  const [first] = server.requests.filter((request) => request.model === model);
  expect(plainTranscript(first!.modelRequest!.messages).at(-1)).toEqual({
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_3_0',
        toolName: 'transfer',
        output: 'A human rejected this tool call: over the daily limit. Do not retry it unchanged.',
      },
      {
        type: 'tool-result',
        toolCallId: 'call_3_1',
        toolName: 'lookup_account',
        output: { account: 'B-2', balance: 10 },
      },
    ],
  });
  const trail = result.continuation.decisions.at(-1)!;
  expect([trail.type, trail.toolName, trail.by, trail.reason]).toEqual([
    'reject',
    'transfer',
    'bob@acme',
    'over the daily limit',
  ]);
  expect(result.continuation.runId).toBe(parseContinuation(sources.get(from)!.continuation).runId);
});
