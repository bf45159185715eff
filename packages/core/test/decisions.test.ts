/**
 * Decisions are untrusted input too: the same depth and key rules as continuations, checked
 * before anything runs, with prototype keys as data and typed errors for anything else.
 */
import {
  agentTool,
  type Continuation,
  checkDecisions,
  createContinuableAgent,
  type Decision,
  type Decisions,
  decisionKind,
  defineTool,
  isContinuationError,
  listActions,
  parseContinuation,
  serializeContinuation,
  type ToolDefinition,
} from '@agent-continuations/core';
import { scriptedModel } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** boss -> worker, whose model names its `pay` call `__proto__`. */
function tree() {
  const paid: unknown[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pay someone',
    parameters: z.object({ to: z.string(), amount: z.number().positive() }),
    needsApproval: true,
    execute: (args) => {
      paid.push(args);
      return { paid: true };
    },
  });
  const worker = createContinuableAgent({
    name: 'worker',
    instructions: 'Pay.',
    model: scriptedModel([
      { toolCalls: [{ id: '__proto__', name: 'pay', args: { to: 'bob', amount: 5 } }] },
      'paid',
    ]),
    tools: [pay],
  });
  const boss = createContinuableAgent({
    name: 'boss',
    instructions: 'Delegate.',
    model: scriptedModel([{ toolCalls: [{ name: 'worker', args: { input: 'pay bob' } }] }, 'done']),
    tools: [agentTool(worker)],
  });
  return { boss, paid, tools: new Map<string, ToolDefinition>([['worker', agentTool(worker)]]) };
}

async function suspendedTree(): Promise<
  { continuation: Continuation; id: string } & ReturnType<typeof tree>
> {
  const agents = tree();
  const run = await agents.boss.run('go');
  if (run.status !== 'suspended') throw new Error('expected a suspension');
  return { ...agents, continuation: run.continuation, id: run.actions[0]!.id };
}

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isContinuationError(error)) return { code: error.code, message: error.message, path: error.path };
    throw error;
  }
  return undefined;
}

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('hostile decisions', () => {
  it('a nested action whose id segment is __proto__ is still checked against its tool', async () => {
    const { boss, continuation, id, paid, tools } = await suspendedTree();
    expect(id).toBe('call_1_0/__proto__');
    const bad: Decisions = { [id]: { type: 'approve', args: { to: 'mallory', amount: -1e6 } } };
    // The check an approval API runs before accepting decisions.
    expect((await codeOf(checkDecisions(continuation, bad, tools)))?.code).toBe('INVALID_ARGS');
    expect((await codeOf(boss.resume(continuation, bad)))?.code).toBe('INVALID_ARGS');
    expect(paid).toEqual([]);
    const good = await boss.resume(serializeContinuation(continuation), { [id]: { type: 'approve' } });
    expect(good.status).toBe('completed');
    expect(paid).toEqual([{ to: 'bob', amount: 5 }]);
  });

  it('decision arguments nested 2,000 deep: INVALID_DECISION, not a RangeError', async () => {
    const { boss, continuation, id, paid } = await suspendedTree();
    const error = await codeOf(
      boss.resume(continuation, { [id]: { type: 'approve', args: nest(2000) as never } }),
    );
    expect(error?.code).toBe('INVALID_DECISION');
    expect(error?.message).toContain('nested deeper than 512');
    expect(error?.message.length).toBeLessThan(400);
    expect(paid).toEqual([]);
  });

  it.each([
    ['a bigint', { type: 'approve', args: { to: 'bob', amount: 10n } }, 'a bigint'],
    ['a function', { type: 'input', value: () => 1 }, 'a function'],
    ['a Date', { type: 'approve', args: { at: new Date(0) } }, 'a Date'],
    ['NaN', { type: 'approve', args: { amount: Number.NaN } }, 'NaN'],
    ['a symbol', { type: 'reject', reason: Symbol('x') }, 'a symbol'],
  ])('%s in a decision: INVALID_DECISION naming where', async (_name, decision, kind) => {
    const { boss, continuation, id, paid } = await suspendedTree();
    const error = await codeOf(boss.resume(continuation, { [id]: decision as never }));
    expect(error?.code).toBe('INVALID_DECISION');
    expect(error?.message).toContain(kind);
    expect(error?.path).toMatch(/^\$\["call_1_0\/__proto__"\]\./);
    expect(paid).toEqual([]);
  });

  it('a __proto__ key among the decisions is an action id like any other', async () => {
    const { boss, continuation, paid } = await suspendedTree();
    const decisions = JSON.parse('{"__proto__":{"type":"approve"}}') as Decisions;
    expect((await codeOf(boss.resume(continuation, decisions)))?.code).toBe('UNKNOWN_ACTION');
    expect(paid).toEqual([]);
  });

  it('a __proto__ key as a decision field is refused, not swallowed', async () => {
    const { boss, continuation, id } = await suspendedTree();
    const decision = JSON.parse('{"type":"reject","__proto__":{"type":"approve"}}');
    expect((await codeOf(boss.resume(continuation, { [id]: decision })))?.code).toBe('INVALID_DECISION');
  });

  it('decisions that are not a plain object: INVALID_DECISION', async () => {
    const { continuation, tools } = await suspendedTree();
    for (const decisions of [null, [], 'approve', new Map(), 1]) {
      expect((await codeOf(checkDecisions(continuation, decisions as never, tools)))?.code).toBe(
        'INVALID_DECISION',
      );
    }
  });

  it('a huge unknown id or a huge invalid value is not repeated in the message', async () => {
    const { continuation, tools, id } = await suspendedTree();
    const huge = 'x'.repeat(1_000_000);
    const unknown = await codeOf(checkDecisions(continuation, { [huge]: { type: 'approve' } }, tools));
    expect(unknown?.code).toBe('UNKNOWN_ACTION');
    expect(unknown?.message.length).toBeLessThan(400);
    const invalid = await codeOf(checkDecisions(continuation, { [id]: { type: huge } as never }, tools));
    expect(invalid?.code).toBe('INVALID_DECISION');
    expect(invalid?.message.length).toBeLessThan(400);
    const wrong = await codeOf(checkDecisions(continuation, { [id]: { type: 'input', value: huge } }, tools));
    expect(wrong?.code).toBe('WRONG_DECISION_KIND');
    expect(wrong?.message.length).toBeLessThan(400);
  });

  it('edited arguments with a __proto__ key pass the check as data', async () => {
    const { continuation, tools, id } = await suspendedTree();
    const args = JSON.parse('{"__proto__":{"amount":-1},"to":"bob","amount":3}');
    await expect(
      checkDecisions(continuation, { [id]: { type: 'approve', args } }, tools),
    ).resolves.toBeUndefined();
    expect(({} as Record<string, unknown>).amount).toBeUndefined();
  });
});

describe('a tool policy is data in the continuation, obeyed by every resume', () => {
  function payments(policy: ToolDefinition['policy']) {
    const paid: unknown[] = [];
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'pay', args: { to: 'bob', amount: 5 } }] },
      'settled',
    ]);
    const pay = defineTool({
      name: 'pay',
      parameters: z.object({ to: z.string(), amount: z.number() }),
      needsApproval: true,
      ...(policy ? { policy } : {}),
      execute: (args) => {
        paid.push(args);
        return { paid: true };
      },
    });
    const agent = createContinuableAgent({ name: 'payments', instructions: 'Pay.', model, tools: [pay] });
    return { agent, paid, model };
  }

  it('the pending entry and its action carry the policy, and a read-back continuation keeps it', async () => {
    const { agent } = payments({
      description: 'Payments need finance',
      allowedDecisions: ['approve', 'reject'],
    });
    const run = await agent.run('pay bob');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    expect(run.actions[0]).toMatchObject({
      description: 'Payments need finance',
      allowedDecisions: ['approve', 'reject'],
    });
    const read = parseContinuation(serializeContinuation(run.continuation));
    expect(read.pending[0]).toMatchObject({ allowedDecisions: ['approve', 'reject'] });
    expect(listActions(read)[0]!.description).toBe('Payments need finance');
  });

  it('a decision the policy forbids is refused with DECISION_NOT_ALLOWED in another process, and nothing runs', async () => {
    const first = payments({ allowedDecisions: ['reject'] });
    const run = await first.agent.run('pay bob');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    // Another process: the same agent definition, the continuation read back from its JSON.
    const other = payments({ allowedDecisions: ['reject'] });
    const continuation = parseContinuation(serializeContinuation(run.continuation));
    const id = run.actions[0]!.id;
    const refused = await codeOf(other.agent.resume(continuation, { [id]: { type: 'approve' } }));
    expect(refused).toMatchObject({ code: 'DECISION_NOT_ALLOWED', path: `$.${id}.type` });
    expect(refused?.message).toContain('does not allow the decision "approve" (allowed: reject)');
    expect(other.paid).toEqual([]);
    expect(other.model.calls).toHaveLength(0);
    const rejected = await other.agent.resume(continuation, { [id]: { type: 'reject', reason: 'no' } });
    expect(rejected.status).toBe('completed');
    expect(other.paid).toEqual([]);
  });

  it('an approval with edited arguments is an edit, refused where only approve and reject are allowed', async () => {
    const { agent, paid } = payments({ allowedDecisions: ['approve', 'reject'] });
    const run = await agent.run('pay bob');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    const id = run.actions[0]!.id;
    const edited: Decision = { type: 'approve', args: { to: 'bob', amount: 500 } };
    expect(await codeOf(agent.resume(run.continuation, { [id]: edited }))).toMatchObject({
      code: 'DECISION_NOT_ALLOWED',
    });
    expect(decisionKind(edited)).toBe('edit');
    expect(paid).toEqual([]);
    expect((await agent.resume(run.continuation, { [id]: { type: 'approve' } })).status).toBe('completed');
    expect(paid).toEqual([{ to: 'bob', amount: 5 }]);
  });

  it('a nested action obeys its own tool policy through the parent', async () => {
    const worker = payments({ allowedDecisions: ['reject'] });
    const boss = createContinuableAgent({
      name: 'boss',
      instructions: 'Delegate.',
      model: scriptedModel([{ toolCalls: [{ name: 'payments', args: { input: 'pay bob' } }] }, 'done']),
      tools: [agentTool(worker.agent)],
    });
    const run = await boss.run('go');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    const id = run.actions[0]!.id;
    expect(run.actions[0]!.allowedDecisions).toEqual(['reject']);
    expect(await codeOf(boss.resume(run.continuation, { [id]: { type: 'approve' } }))).toMatchObject({
      code: 'DECISION_NOT_ALLOWED',
    });
    expect(worker.paid).toEqual([]);
  });

  it('a policy that could never be obeyed is refused when the agent is defined', () => {
    for (const allowedDecisions of [[], ['approve', 'maybe']] as never[]) {
      expect(() => payments({ allowedDecisions })).toThrow(/The policy of tool "pay"/);
    }
  });

  it('a continuation whose entry allows an unknown decision is refused on read', async () => {
    const { agent } = payments({ allowedDecisions: ['reject'] });
    const run = await agent.run('pay bob');
    if (run.status !== 'suspended') throw new Error('expected a suspension');
    const tampered = JSON.parse(serializeContinuation(run.continuation));
    tampered.pending[0].allowedDecisions = ['anything'];
    expect(() => parseContinuation(JSON.stringify(tampered))).toThrow(
      expect.objectContaining({ code: 'INVALID_CONTINUATION' }),
    );
  });
});
