/**
 * The checkpoint log contract's scenarios of tools that cannot run twice (`idempotent: false`):
 * a worker that stops between such a tool's start and the recording of its result leaves the call
 * in doubt, and recovery asks a person instead of running it again. Run by
 * `runCheckpointLogContract` against every log.
 */
import {
  type CheckpointLog,
  type Continuation,
  createContinuableAgent,
  type Decision,
  isContinuationError,
  listActions,
  recover,
  recoverRun,
  resumeDurably,
  runDurably,
  type ToolDefinition,
} from '@agent-continuations/core';
import { expect, it } from 'vitest';
import { killableLog } from './killable-log';
import { scriptedModel } from './scripted-model';

/** The log under test, made fresh for each scenario by the contract. */
export type InDoubtLog = () => CheckpointLog;

/** Register the in-doubt scenarios in the current `describe` of the checkpoint log contract. */
export function inDoubtScenarios(current: InDoubtLog): void {
  it('a tool that cannot run twice, cut off after it started, is not run again: recovery asks a person, and "it ran" gives its result', async () => {
    const { continuation, wires, agent, log } = await cutOff(current(), 'd1');
    const [action] = listActions(continuation);
    expect(action).toMatchObject({ kind: 'approval', toolName: 'wire', inDoubt: true });
    expect(action?.description).toContain('In doubt');
    expect(wires).toEqual(['d1:call_1_0']); // recovery did not run it
    const result = await resumeDurably(agent, log, continuation, {
      [action!.id]: { type: 'input', value: 'wired 10 EUR, ref 77', by: 'ops@example.com' },
    });
    expect(result.status).toBe('completed');
    expect(wires).toHaveLength(1);
    const toolResult = JSON.stringify(result.status === 'completed' ? result.messages : []);
    expect(toolResult).toContain('wired 10 EUR, ref 77');
    if (result.status !== 'completed') return;
    expect(result.decisions?.at(-1)).toMatchObject({
      type: 'input',
      toolName: 'wire',
      value: 'wired 10 EUR, ref 77',
      by: 'ops@example.com',
    });
  });

  it('an in-doubt call runs again only when a person approves it, and never when they reject it', async () => {
    const approved = await decideInDoubt(current(), 'd2', { type: 'approve', by: 'ops' });
    expect(approved.status).toBe('completed');
    expect(approved.wires).toEqual(['d2:call_1_0', 'd2:call_1_0']);
    const rejected = await decideInDoubt(current(), 'd3', { type: 'reject', reason: 'it did not run' });
    expect(rejected.status).toBe('completed');
    expect(rejected.wires).toEqual(['d3:call_1_0']);
  });

  it('an in-doubt call is refused a decision outside approve, input and reject, and recoverRun leaves it in doubt', async () => {
    const { continuation, agent, log, wires } = await cutOff(current(), 'd4', 'recoverRun');
    const [action] = listActions(continuation);
    expect(action?.inDoubt).toBe(true);
    const edit = resumeDurably(agent, log, continuation, {
      [action!.id]: { type: 'approve', args: { amount: 99 } },
    });
    await expect(edit).rejects.toSatisfy((error) => isContinuationError(error, 'DECISION_NOT_ALLOWED'));
    expect(wires).toHaveLength(1);
  });

  it('a tool that cannot run twice costs one more log entry per start, and a finished call is never in doubt', async () => {
    const log = current();
    const { agent, wires } = wireAgent();
    const result = await runDurably(agent, log, 'pay', { runId: 'd5', owner: 'w1' });
    expect(result.status).toBe('completed');
    expect(wires).toEqual(['d5:call_1_0']);
    // start, model call, the start of wire, its result, the final answer, end.
    expect((await log.read('d5')).map((entry) => entry.type)).toEqual([
      'start',
      'step',
      'step',
      'step',
      'step',
      'end',
    ]);
  });
}

/** An agent whose one tool wires money and cannot be de-duplicated; `stop` makes its worker die inside it. */
function wireAgent(gate: { stop?: () => void } = {}) {
  const wires: string[] = [];
  const wire: ToolDefinition<{ amount: number }> = {
    name: 'wire',
    description: 'Wire money (no idempotency key at the bank).',
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    idempotent: false,
    execute: ({ amount }, ctx) => {
      wires.push(ctx.idempotencyKey);
      const stop = gate.stop;
      if (stop) {
        // The worker dies here: the money left, the result is never recorded.
        gate.stop = undefined;
        stop();
        return new Promise<string>(() => {});
      }
      return `wired ${amount}`;
    },
  };
  const agent = createContinuableAgent({
    name: 'in-doubt',
    model: scriptedModel([{ toolCalls: [{ name: 'wire', args: { amount: 10 } }] }, 'done']),
    tools: [wire],
  });
  return { agent, wires };
}

/**
 * Run the wire agent durably and let its worker die inside the tool; once its lease lapsed,
 * recover the run (`recover` or `recoverRun`): it suspends with the call in doubt.
 */
async function cutOff(log: CheckpointLog, runId: string, how: 'recover' | 'recoverRun' = 'recover') {
  const dead = killableLog(log);
  const gate: { stop?: () => void } = {};
  const { agent, wires } = wireAgent(gate);
  const died = new Promise<void>((resolve) => {
    gate.stop = () => {
      dead.kill();
      resolve();
    };
  });
  void runDurably(agent, dead.view, 'pay', { runId, owner: 'w1', leaseMs: 30 }).catch(() => {});
  await died;
  while (!(await log.expired()).includes(runId)) await new Promise((resolve) => setTimeout(resolve, 5));
  let continuation: Continuation | undefined;
  if (how === 'recover') {
    const recovered = (await recover(log, { [agent.name]: agent }, { owner: 'w2' })).find(
      (each) => each.runId === runId,
    );
    if (recovered?.result?.status === 'suspended') continuation = recovered.result.continuation;
  } else {
    const result = await recoverRun(agent, log, runId, { owner: 'w2' });
    if (result.status === 'suspended') continuation = result.continuation;
  }
  if (!continuation) throw new Error('expected recovery to suspend with the call in doubt');
  return { continuation, wires, agent, log };
}

async function decideInDoubt(log: CheckpointLog, runId: string, decision: Decision) {
  const { continuation, agent, wires } = await cutOff(log, runId);
  const [action] = listActions(continuation);
  const result = await resumeDurably(agent, log, continuation, { [action!.id]: decision });
  return { status: result.status, wires };
}
