/**
 * A LangGraph level holding a waiting sub-agent keeps the sub-agent's continuation once, in its
 * pending entry: the graph's own checkpoint (the interrupt that waits for it) refers to that entry.
 * Continuations written before that, which hold the sub-agent in both places, still resume.
 */
import { readFileSync } from 'node:fs';
import {
  type Continuation,
  listActions,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import type { Counts } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { mixedChain } from './fixtures/mixed-chain';

/** The waiting sub-agent of a level (the one agent entry of these chains). */
function childOf(continuation: Continuation): Continuation {
  const entry = continuation.pending.find((one) => one.kind === 'agent');
  if (entry?.kind !== 'agent') throw new Error('expected a waiting sub-agent');
  return entry.child;
}

/** A level's own bytes: its serialized form with each sub-agent's continuation left out. */
function ownBytes(continuation: Continuation): number {
  const pending = continuation.pending.map((entry) =>
    entry.kind === 'agent' ? { ...entry, child: { ...entry.child, messages: [], pending: [] } } : entry,
  );
  const withoutChildren = { ...continuation, pending } as Continuation;
  const childShells = continuation.pending
    .filter((entry) => entry.kind === 'agent')
    .reduce(
      (sum, entry) => sum + serializeContinuation({ ...entry.child, messages: [], pending: [] }).length,
      0,
    );
  return serializeContinuation(withoutChildren).length - childShells;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('three LangGraph levels, the leaf waiting for an approval', () => {
  it('store each level once: the whole is no bigger than the sum of its levels', async () => {
    const result = await mixedChain({}).run('pay bob 50');
    if (result.status !== 'suspended') throw new Error('expected a suspension');
    const text = serializeContinuation(result.continuation);
    const root = parseContinuation(text);
    const middle = childOf(root);
    const leaf = childOf(middle);

    expect(occurrences(text, leaf.id)).toBe(1);
    expect(occurrences(text, middle.id)).toBe(1);
    const levels = ownBytes(root) + ownBytes(middle) + serializeContinuation(leaf).length;
    expect(text.length).toBeLessThanOrEqual(levels * 1.1);
  });

  it('resume from the JSON text: the transfer runs once and every level completes', async () => {
    const counts: Counts = {};
    const first = await mixedChain(counts).run('pay bob 50');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const decisions = { [first.actions[0]!.id]: { type: 'approve' as const } };
    const done = await mixedChain(counts).resume(serializeContinuation(first.continuation), decisions);
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ transfer: 1 });
    if (done.status === 'completed') expect(done.output).toContain('ask_level2=');
  });

  it('a rejection reaches the leaf through the stored reference: nothing runs and the chain completes', async () => {
    const counts: Counts = {};
    const first = await mixedChain(counts).run('pay bob 50');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const rejected = await mixedChain(counts).resume(serializeContinuation(first.continuation), {
      [first.actions[0]!.id]: { type: 'reject', reason: 'not today' },
    });
    expect(rejected.status).toBe('completed');
    expect(counts.transfer ?? 0).toBe(0);
  });
});

describe('a continuation written when the graph state held the sub-agent again', () => {
  const text = readFileSync(new URL('./fixtures/duplicated-children.json', import.meta.url), 'utf8');

  it('holds each sub-agent twice per LangGraph level above it', () => {
    const root = parseContinuation(text);
    const leaf = childOf(childOf(root));
    expect(occurrences(text, leaf.id)).toBe(4);
  });

  it('resumes: the transfer runs once and the chain completes', async () => {
    const counts: Counts = {};
    const [action] = listActions(parseContinuation(text));
    expect(action!.id).toBe('call_1_0/call_1_0/call_1_0');
    const done = await mixedChain(counts).resume(text, { [action!.id]: { type: 'approve' } });
    expect(done.status).toBe('completed');
    expect(counts).toEqual({ transfer: 1 });
    if (done.status === 'completed') expect(done.output).toContain('ask_level2=');
  });

  it('resumed with no decision, waits again: the root holds its waiting sub-agent once', async () => {
    const counts: Counts = {};
    const again = await mixedChain(counts).resume(text, {});
    if (again.status !== 'suspended') throw new Error(`expected a suspension, got ${again.status}`);
    expect(counts).toEqual({});
    const written = serializeContinuation(again.continuation);
    // The sub-agent's continuation goes on unchanged (it may be sealed): it keeps its own copies.
    const middle = childOf(again.continuation);
    expect(occurrences(written, middle.id)).toBe(1);
    expect(occurrences(written, childOf(middle).id)).toBe(2);
    expect(again.actions.map((action) => action.id)).toEqual(['call_1_0/call_1_0/call_1_0']);
  });
});
