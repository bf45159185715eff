import {
  DEFAULT_MAX_STEPS,
  type Message,
  serializeContinuation,
  toolCallsOf,
} from '@agent-continuations/core';
import { type Counts, lookupTool } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

/** A model that calls a tool every turn, or until `turns` turns, then answers. */
function looper(counts: Counts, turns = Number.POSITIVE_INFINITY, maxSteps?: number) {
  const model = new ScriptedChatModel((request) => {
    const made = request.messages.filter((message) => message.role === 'assistant').length;
    if (made < turns) return { toolCalls: [{ name: 'lookup_account', args: { account: `A-${made}` } }] };
    return 'done looking';
  });
  const graph = buildGraph('react', model, conformanceTools([lookupTool(counts)]), 'Look things up.');
  const agent = fromGraph(graph, { name: 'looper', ...(maxSteps === undefined ? {} : { maxSteps }) });
  return { agent, model };
}

/** Tool-call ids of the transcript's tool results, in order. */
function resultIds(messages: readonly Message[]): string[] {
  return messages
    .filter((message) => message.role === 'tool')
    .flatMap((message) => (message.content as Array<{ toolCallId: string }>).map((part) => part.toolCallId));
}

describe('step limit', () => {
  it('a model that always calls a tool suspends after DEFAULT_MAX_STEPS model calls; resume(c, {}) grants as many again', async () => {
    const counts: Counts = {};
    const { agent, model } = looper(counts);
    const first = await agent.run('go');
    if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
    expect(DEFAULT_MAX_STEPS).toBe(100);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['maxSteps'] });
    expect(first.actions).toEqual([]);
    expect(first.continuation.step).toBe(100);
    expect(model.requests).toHaveLength(100);
    expect(counts.lookup_account).toBe(100);

    const second = await agent.resume(serializeContinuation(first.continuation), {});
    if (second.status !== 'suspended') throw new Error(`expected a suspension, got ${second.status}`);
    expect(second.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['maxSteps'] });
    expect(second.continuation.step).toBe(200);
    expect(model.requests).toHaveLength(200);
    expect(counts.lookup_account).toBe(200);
    const ids = resultIds(second.continuation.messages);
    expect(new Set(ids).size).toBe(200);
  }, 60_000);

  it('maxSteps sets the limit; Infinity lets a run go until it ends', async () => {
    const counts: Counts = {};
    const limited = looper(counts, 6, 4);
    const first = await limited.agent.run('go');
    if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['maxSteps'] });
    expect(limited.model.requests).toHaveLength(4);
    const done = await limited.agent.resume(first.continuation, {});
    expect(done.status).toBe('completed');
    expect(limited.model.requests).toHaveLength(7);
    expect(counts.lookup_account).toBe(6);

    const free: Counts = {};
    const unlimited = looper(free, 130, Number.POSITIVE_INFINITY);
    const result = await unlimited.agent.run('go');
    expect(result.status).toBe('completed');
    expect(free.lookup_account).toBe(130);
  }, 60_000);

  it('refuses a maxSteps below 1', () => {
    expect(() => looper({}, 1, 0)).toThrow(expect.objectContaining({ code: 'INVALID_OPERATION' }));
  });
});

describe("LangGraph's recursionLimit", () => {
  it('reached, the run suspends with predicate recursionLimit from its last good state; resume(c, {}) goes on, nothing runs twice', async () => {
    const counts: Counts = {};
    const { agent, model } = looper(counts, 8);
    const first = await agent.run('go', { recursionLimit: 10 });
    if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['recursionLimit'] });
    expect(first.actions).toEqual([]);
    const calls = model.requests.length;
    expect(calls).toBeGreaterThan(2);
    expect(calls).toBeLessThan(9);
    expect(first.continuation.step).toBe(calls);
    // Every tool that ran has its result in the continuation.
    expect(counts.lookup_account).toBe(resultIds(first.continuation.messages).length);

    let result = await agent.resume(serializeContinuation(first.continuation), {}, { recursionLimit: 10 });
    let rounds = 1;
    while (result.status === 'suspended') {
      expect(result.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['recursionLimit'] });
      result = await agent.resume(serializeContinuation(result.continuation), {}, { recursionLimit: 10 });
      rounds++;
      expect(rounds).toBeLessThan(6);
    }
    if (result.status !== 'completed') throw new Error(`expected completion, got ${result.status}`);
    expect(result.output).toBe('done looking');
    // 8 tool turns and the answer: no model call and no tool ran twice.
    expect(model.requests).toHaveLength(9);
    expect(counts.lookup_account).toBe(8);
    const ids = resultIds(result.messages);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    const called = result.messages.flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId));
    expect(called).toEqual(ids);
  }, 60_000);

  it('the fromGraph option sets it for every run', async () => {
    const counts: Counts = {};
    const model = new ScriptedChatModel(() => ({
      toolCalls: [{ name: 'lookup_account', args: { account: 'A' } }],
    }));
    const graph = buildGraph('react', model, conformanceTools([lookupTool(counts)]), 'Look things up.');
    const first = await fromGraph(graph, { name: 'looper', recursionLimit: 6 }).run('go');
    if (first.status !== 'suspended') throw new Error(`expected a suspension, got ${first.status}`);
    expect(first.continuation.suspendedBy).toEqual({ type: 'predicate', predicates: ['recursionLimit'] });
    expect(counts.lookup_account).toBe(resultIds(first.continuation.messages).length);
  });
});
