/**
 * Reading again a continuation that was just read (a store's `load`, then `resume`): an object
 * whose JSON is still the text it was read from is copied without the checks, and any change to
 * it, valid or not, goes through every check again.
 */
import {
  type Continuation,
  checkDecisions,
  createContinuableAgent,
  defineTool,
  parseContinuation,
  serializeContinuation,
} from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validFixture } from './fixtures/corpus';

const nestedText = validFixture('nested-depth-3.json');

describe('reading a continuation read before', () => {
  it('gives an equal copy of one left as it was, not the same object', () => {
    const first = parseContinuation(nestedText);
    const again = parseContinuation(first);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(again.messages).not.toBe(first.messages);
    // The copy is read again as cheaply, and still equal.
    expect(parseContinuation(again)).toEqual(first);
  });

  it('checks again one changed after it was read, and refuses what is now wrong', () => {
    const first = parseContinuation(nestedText);
    (first as { step: unknown }).step = -1;
    expect(() => parseContinuation(first)).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
    );

    const second = parseContinuation(nestedText);
    second.pending.push({
      ...second.pending[0]!,
      toolCallId: 'never_made',
    } as Continuation['pending'][number]);
    expect(() => parseContinuation(second)).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
    );

    const third = parseContinuation(nestedText);
    (third.metadata as Record<string, unknown>).when = new Date(0);
    expect(() => parseContinuation(third)).toThrowError(expect.objectContaining({ code: 'INVALID_JSON' }));
  });

  it('reads the change of one changed validly', () => {
    const first = parseContinuation(nestedText);
    first.metadata = { ...first.metadata, ticket: 'T-7' };
    expect(parseContinuation(first).metadata.ticket).toBe('T-7');
  });

  it('resumes a loaded continuation once, and refuses it once tampered with', async () => {
    let paid = 0;
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => {
        paid++;
        return { paid: amount };
      },
    });
    const agent = () =>
      createContinuableAgent({
        name: 'payer',
        model: scriptedModel([{ toolCalls: [{ name: 'pay', args: { amount: 10 } }] }, { text: 'Paid.' }]),
        tools: [pay],
      });
    const suspended = await agent().run('pay');
    if (suspended.status !== 'suspended') throw new Error('expected a suspension');
    const text = serializeContinuation(suspended.continuation);
    const id = suspended.actions[0]!.id;

    const loaded = parseContinuation(text);
    const result = await agent().resume(loaded, { [id]: { type: 'approve' } });
    expect(result.status).toBe('completed');
    expect(paid).toBe(1);

    const tampered = parseContinuation(text);
    tampered.pending[0]!.toolName = 'refund';
    await expect(agent().resume(tampered, { [id]: { type: 'approve' } })).rejects.toMatchObject({
      code: 'UNKNOWN_TOOL',
    });
    expect(paid).toBe(1);
  });
});

describe('decisions recognised without the schema', () => {
  it('accepts the usual forms and refuses the rest with the schema code', async () => {
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: () => 'ok',
    });
    const agent = createContinuableAgent({
      name: 'payer',
      model: scriptedModel([{ toolCalls: [{ name: 'pay', args: { amount: 10 } }] }]),
      tools: [pay],
    });
    const suspended = await agent.run('pay');
    if (suspended.status !== 'suspended') throw new Error('expected a suspension');
    const { continuation } = suspended;
    const id = suspended.actions[0]!.id;
    const tools = agent.tools;
    for (const ok of [
      { type: 'approve' },
      { type: 'approve', args: { amount: 5 }, by: 'ann', reason: 'fine' },
      { type: 'reject', reason: 'no', by: 'bob' },
    ]) {
      await expect(checkDecisions(continuation, { [id]: ok as never }, tools)).resolves.toBeUndefined();
    }
    for (const bad of [
      { type: 'approve', extra: 1 },
      { type: 'approve', by: 7 },
      { type: 'reject', args: {} },
      { type: 'maybe' },
      { type: 'approve', args: { amount: 5 }, reason: null },
    ]) {
      await expect(checkDecisions(continuation, { [id]: bad as never }, tools)).rejects.toMatchObject({
        code: 'INVALID_DECISION',
      });
    }
    await expect(
      checkDecisions(continuation, { [id]: { type: 'approve', args: { amount: 'x' } } }, tools),
    ).rejects.toMatchObject({ code: 'INVALID_ARGS' });
  });
});
