/**
 * What does not carry over between frameworks, and the fixed rule for each (docs/handoff.md):
 * adapter-native `state`, the agent reference and its fingerprint, provider extras, the name.
 */
import {
  type Continuation,
  type JsonObject,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { type Counts, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAgent, FRAMEWORKS, type Framework, frameworkName } from '../src/frameworks';
import { HANDOFF_AGENT, handoffAgent, handoffScript, transferDecision } from '../src/handoff-scenario';
import { type HandoffSource, suspendInSource } from '../src/handoff-source';

const server = setupScriptedOpenAIServer({ scripts: {}, fallback: handoffScript });
const sources = new Map<Framework, HandoffSource>();
let model = 0;

beforeAll(async () => {
  for (const from of FRAMEWORKS)
    sources.set(from, await suspendInSource(from, server.baseURL, `drop:${from}`));
});

const ENGINE_TARGETS = ['openai-chat', 'openai-responses', 'vercel-ai', 'openai-agents'] as const;

/** Resume `continuation` in a new agent of `to`; returns the result, the counts and the wire bodies. */
async function resumeIn(to: Framework, continuation: Continuation | string, options = {}) {
  const counts: Counts = {};
  const name = `drop-target:${++model}`;
  const agent = buildAgent(to, handoffAgent(counts, name), server.baseURL);
  const result = await agent.resume(continuation, transferDecision('call_3_0'), options);
  const bodies = server.requests
    .filter((request) => request.model === name)
    .map((r) => JSON.stringify(r.body));
  return { result, counts, bodies };
}

const sourceOf = (from: Framework) => parseContinuation(sources.get(from)!.continuation);

/** Every `providerMetadata` key used in a transcript. */
function extrasKeys(continuation: Continuation): string[] {
  const keys = new Set<string>();
  const visit = (value: { providerMetadata?: JsonObject }) => {
    for (const key of Object.keys(value.providerMetadata ?? {})) keys.add(key);
  };
  for (const message of continuation.messages) {
    visit(message);
    if (typeof message.content !== 'string') for (const part of message.content) visit(part);
  }
  return [...keys].sort();
}

describe('state: kept only by the framework that made it', () => {
  it.each(ENGINE_TARGETS)(
    'a LangGraph checkpoint is ignored by %s, and its next continuation has no state',
    async (to) => {
      const source = sourceOf('langgraph');
      expect(source.state).toBeDefined();
      const { result, counts } = await resumeIn(to, source);
      expect(counts).toEqual({ transfer: 1 });
      if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
      expect(result.continuation.state).toBeUndefined();
      expect(result.continuation.agent.framework).toBe(frameworkName(to));
    },
  );

  it.each(ENGINE_TARGETS)('a garbage state under a LangGraph label changes nothing for %s', async (to) => {
    const forged = { ...sourceOf('langgraph'), state: { not: 'a checkpoint' } };
    const { result, counts } = await resumeIn(to, forged);
    expect(counts).toEqual({ transfer: 1 });
    expect(result.status).toBe('suspended');
  });

  it.each(ENGINE_TARGETS)(
    'LangGraph ignores a state that a %s continuation carries, and rebuilds its own from the messages',
    async (from) => {
      const forged = { ...sourceOf(from), state: { checkpoint: 'from another adapter' } };
      const { result, counts } = await resumeIn('langgraph', forged);
      expect(counts).toEqual({ transfer: 1 });
      if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
      expect(result.continuation.agent.framework).toBe('langgraph');
      expect(result.continuation.state).not.toEqual(forged.state);
      // The rebuilt checkpoint resumes natively: the second notification runs once.
      const again = await buildAgent('langgraph', handoffAgent(counts, 'drop:again'), server.baseURL).resume(
        serializeContinuation(result.continuation),
        { [result.actions[0]!.id]: { type: 'approve' } },
      );
      expect(again.status).toBe('completed');
      expect(counts).toEqual({ transfer: 1, notify_customer: 1 });
    },
  );
});

describe('agent: the name must match; the fingerprint is compared within one framework only', () => {
  it.each(FRAMEWORKS)(
    '%s refuses a continuation of an agent with another name, before anything runs',
    async (to) => {
      const renamed = { ...sourceOf(to === 'langgraph' ? 'vercel-ai' : 'langgraph') };
      renamed.agent = { ...renamed.agent, name: 'billing' };
      const counts: Counts = {};
      const agent = buildAgent(to, handoffAgent(counts, 'drop:renamed'), server.baseURL);
      await expect(agent.resume(renamed, transferDecision('call_3_0'))).rejects.toMatchObject({
        code: 'AGENT_MISMATCH',
      });
      await expect(
        agent.resume(renamed, transferDecision('call_3_0'), { allowChangedAgent: true }),
      ).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
      expect(counts).toEqual({});
      expect(server.requests.filter((request) => request.model === 'drop:renamed')).toEqual([]);
      expect(renamed.agent.name).not.toBe(HANDOFF_AGENT);
    },
  );

  it.each(FRAMEWORKS)(
    '%s resumes a foreign continuation whose fingerprint differs from its own',
    async (to) => {
      const from = to === 'langgraph' ? 'openai-chat' : 'langgraph';
      const source = sourceOf(from);
      const { result } = await resumeIn(to, source);
      if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
      expect(result.continuation.agent.fingerprint).toBeDefined();
      expect(result.continuation.agent.fingerprint).not.toBe(source.agent.fingerprint);
    },
  );

  it.each(FRAMEWORKS)('%s refuses its own continuation once a tool changed (AGENT_CHANGED)', async (to) => {
    const own = sourceOf(to);
    const changed = {
      ...own,
      agent: {
        ...own.agent,
        fingerprint: own.agent.fingerprint!.replace(/tool:transfer=[0-9a-f]+/, 'tool:transfer=0'),
      },
    };
    const counts: Counts = {};
    const agent = buildAgent(to, handoffAgent(counts, 'drop:changed'), server.baseURL);
    await expect(agent.resume(changed, transferDecision('call_3_0'))).rejects.toMatchObject({
      code: 'AGENT_CHANGED',
    });
    expect(counts).toEqual({});
  });
});

describe('provider extras: kept where their framework reads them, never put on a foreign wire', () => {
  it('the sources write extras under their own keys', () => {
    expect(extrasKeys(sourceOf('vercel-ai'))).toEqual(['ai-sdk', 'openai']);
    expect(extrasKeys(sourceOf('langgraph'))).toEqual(['langchain']);
  });

  it.each(ENGINE_TARGETS)('%s keeps foreign extras in the transcript untouched', async (to) => {
    const source = sourceOf('langgraph');
    const { result } = await resumeIn(to, source);
    if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
    const kept = result.continuation.messages.slice(0, source.messages.length);
    // Only the edited call's arguments change (the model reads what ran); extras stay untouched.
    expect(kept).toEqual(
      source.messages.map((message) =>
        message.role === 'assistant' && typeof message.content !== 'string'
          ? {
              ...message,
              content: message.content.map((part) =>
                part.type === 'tool-call' && part.toolCallId === 'call_3_0'
                  ? { ...part, args: { to: 'bob', amount: 45 } }
                  : part,
              ),
            }
          : message,
      ),
    );
  });

  it.each(
    FRAMEWORKS.flatMap((from) => FRAMEWORKS.filter((to) => to !== from).map((to) => [from, to] as const)),
  )('%s -> %s: no extras of another adapter reach the wire', async (from, to) => {
    const { bodies } = await resumeIn(to, sourceOf(from));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(body).not.toContain('ac_tool_call_metadata');
      expect(body).not.toContain('"metadata"');
      expect(body).not.toContain('"langchain"');
    }
    // Item ids the source's provider handed out mean nothing to another framework's provider.
    expect(bodies[0]).not.toMatch(/"(msg|fc|rs)_\d{6}"/);
  });

  it.each(ENGINE_TARGETS)(
    'LangGraph drops every extra but its own from a %s continuation, and keeps the rest of the transcript',
    async (from) => {
      const source = sourceOf(from);
      const { result } = await resumeIn('langgraph', source);
      if (result.status !== 'suspended') throw new Error(`expected a suspension, got ${result.status}`);
      expect(extrasKeys(result.continuation).filter((key) => key !== 'langchain')).toEqual([]);
    },
  );
});
