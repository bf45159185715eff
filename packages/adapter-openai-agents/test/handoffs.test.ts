/**
 * Handoffs: a triage agent hands off to a billing agent whose refund needs approval. Run by the
 * SDK (`run`, `RunState`, `approve`, `run`) and wrapped with `continuable(triage)`, over the real
 * `@openai/agents` models on the scripted server: the same model calls, the refund once, the same
 * answer; the wrapped run waits inside the billing agent and resumes there from JSON.
 */
import { type AgentStreamEvent, isContinuationError, serializeContinuation } from '@agent-continuations/core';
import { type Script, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, handoff, type RunResult, RunState, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { billingDesk, type Ran } from './support/billing';
import { bodiesOf } from './support/wire';

const server = setupScriptedOpenAIServer({ scripts: {} });

const desk = (api: 'chat' | 'responses', models: string, ran: Ran) => billingDesk(api, server, models, ran);

describe.each(['chat', 'responses'] as const)('handoffs (%s)', (api) => {
  it('suspends in the agent it handed off to, resumes there once, and makes the SDK’s model calls', async () => {
    const nativeRan: Ran = {};
    const native = desk(api, `hand-native-${api}`, nativeRan);
    let result: RunResult<unknown, Agent<unknown, any>> = await run(native, 'Refund order O-7, 20 EUR');
    expect(result.interruptions.map((item) => [item.agent.name, item.name])).toEqual([['billing', 'refund']]);
    const state = await RunState.fromString(native, result.state.toString());
    for (const interruption of result.interruptions) state.approve(interruption);
    result = await run(native, state);
    expect(result.lastAgent?.name).toBe('billing');

    const ran: Ran = {};
    const paused = await continuable(desk(api, `hand-${api}`, ran)).run('Refund order O-7, 20 EUR');
    if (paused.status !== 'suspended') throw new Error('expected the refund approval');
    expect(paused.actions.map((action) => action.path.map((at) => [at.agent, at.toolName]))).toEqual([
      [
        ['triage', 'transfer_to_billing'],
        ['billing', 'refund'],
      ],
    ]);
    expect(paused.continuation.pending[0]).toMatchObject({
      kind: 'agent',
      child: { agent: { name: 'billing', framework: 'openai-agents' } },
    });
    const done = await continuable(desk(api, `hand-${api}`, ran)).resume(
      serializeContinuation(paused.continuation),
      { [paused.actions[0]!.id]: { type: 'approve', by: 'ann' } },
    );

    expect(result.finalOutput).toBe('Refunded: {"ok":true,"order":"O-7","amount":20}');
    expect(done).toMatchObject({ status: 'completed', output: result.finalOutput });
    expect(nativeRan).toEqual({ refund: 1 });
    expect(ran).toEqual({ refund: 1 });
    expect(bodiesOf(server, `hand-${api}`)).toEqual(bodiesOf(server, `hand-native-${api}`));
    expect(bodiesOf(server, `hand-native-${api}`)).toHaveLength(3);
  });
});

describe.each(['chat', 'responses'] as const)('handoff edge cases (%s)', (api) => {
  /** The run natively and wrapped, each on its own models with `scripts`; their wire bodies. */
  async function both(label: string, scripts: { triage: Script; billing: Script }) {
    const outputs: unknown[] = [];
    for (const side of ['native', 'wrapped'] as const) {
      const models = `${label}-${side}-${api}`;
      const triage = desk(api, models, {});
      server.setScript(`${models}-triage`, scripts.triage);
      server.setScript(`${models}-billing`, scripts.billing);
      if (side === 'native') outputs.push((await run(triage, 'Help')).finalOutput);
      else {
        const done = await continuable(triage).run('Help');
        outputs.push(done.status === 'completed' ? done.output : done.status);
      }
    }
    const native = bodiesOf(server, `${label}-native-${api}`);
    expect(bodiesOf(server, `${label}-wrapped-${api}`)).toEqual(native);
    return { outputs, calls: native.length };
  }

  it('two handoffs in one turn: the first is taken, the second dropped, as the SDK does', async () => {
    const { outputs, calls } = await both('twice', {
      triage: [
        {
          toolCalls: [
            { name: 'transfer_to_billing', args: {} },
            { name: 'transfer_to_billing', args: {} },
          ],
        },
      ],
      billing: ['unused', 'Billing here.'],
    });
    expect(outputs).toEqual(['Billing here.', 'Billing here.']);
    expect(calls).toBe(2);
  });

  it('a handoff back along the cycle ends on the agent handed back to', async () => {
    const { outputs, calls } = await both('back', {
      triage: [
        { toolCalls: [{ name: 'transfer_to_billing', args: {} }] },
        'unused',
        'Triage again: how else can I help?',
      ],
      billing: ['unused', { toolCalls: [{ name: 'transfer_to_triage', args: {} }] }],
    });
    expect(outputs).toEqual(['Triage again: how else can I help?', 'Triage again: how else can I help?']);
    expect(calls).toBe(3);
  });
});

describe.each(['chat', 'responses'] as const)('handoffs streamed (%s)', (api) => {
  it("streams the target's events under the handoff's path, and the run's answer at the root", async () => {
    const ran: Ran = {};
    const events: AgentStreamEvent[] = [];
    for await (const event of continuable(desk(api, `hand-stream-${api}`, ran)).stream('Refund order O-7'))
      events.push(event);
    const last = events.at(-1)!;
    if (last.type !== 'result' || last.result.status !== 'suspended')
      throw new Error('expected a suspension');
    expect(
      events.flatMap((event) => (event.type === 'tool-call' ? [[event.path, event.toolCall.toolName]] : [])),
    ).toEqual([
      [undefined, 'transfer_to_billing'],
      [['call_1_0'], 'refund'],
    ]);
    const resumed: AgentStreamEvent[] = [];
    for await (const event of continuable(desk(api, `hand-stream-${api}`, ran)).stream({
      continuation: serializeContinuation(last.result.continuation),
      decisions: { [last.result.actions[0]!.id]: { type: 'approve' } },
    }))
      resumed.push(event);
    const text = (path: string | undefined) =>
      resumed
        .map((event) => (event.type === 'text-delta' && event.path?.join('/') === path ? event.delta : ''))
        .join('');
    const output = 'Refunded: {"ok":true,"order":"O-7","amount":20}';
    expect(text('call_1_0')).toBe(output);
    expect(text(undefined)).toBe(output);
    expect(resumed.at(-1)).toMatchObject({ type: 'result', result: { status: 'completed', output } });
    expect(ran).toEqual({ refund: 1 });
  });
});

describe('handoffs refused at wrap time', () => {
  it('a handoff(agent, { ... }) object, whose onHandoff a resumed run could not call once', () => {
    const billing = new Agent({ name: 'billing' });
    const triage = new Agent({ name: 'triage', handoffs: [handoff(billing, { onHandoff: () => {} })] });
    let caught: unknown;
    try {
      continuable(triage);
    } catch (error) {
      caught = error;
    }
    expect(isContinuationError(caught, 'INVALID_OPERATION')).toBe(true);
    expect((caught as Error).message).toMatch(/list the agent itself/);
  });

  it('a target with a setting it cannot honour, before anything runs', () => {
    const billing = new Agent({ name: 'billing', instructions: () => 'dynamic' });
    let caught: unknown;
    try {
      continuable(new Agent({ name: 'triage', handoffs: [billing] }));
    } catch (error) {
      caught = error;
    }
    expect(isContinuationError(caught, 'INVALID_OPERATION')).toBe(true);
    expect((caught as Error).message).toMatch(/Agent "billing"/);
  });
});
