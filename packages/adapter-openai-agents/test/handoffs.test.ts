/**
 * Handoffs: a triage agent hands off to a billing agent whose refund needs approval. Run by the
 * SDK (`run`, `RunState`, `approve`, `run`) and wrapped with `continuable(triage)`, over the real
 * `@openai/agents` models on the scripted server: the same model calls, the refund once, the same
 * answer; the wrapped run waits inside the billing agent and resumes there from JSON.
 */
import { type AgentStreamEvent, isContinuationError, serializeContinuation } from '@agent-continuations/core';
import { type Script, setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { Agent, handoff, type RunContext, type RunResult, RunState, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { billingDesk, type Ran } from './support/billing';
import { bodiesOf } from './support/wire';

/** What handoff(agent, config) takes. */
type HandoffConfig = NonNullable<Parameters<typeof handoff>[1]>;

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

describe.each(['chat', 'responses'] as const)('handoff(agent, { ... }) objects (%s)', (api) => {
  /** The desk, its triage handing off through handoff(billing, config); what the hooks saw. */
  function configuredDesk(models: string, ran: Ran, config: (seen: string[]) => HandoffConfig) {
    const seen: string[] = [];
    const triage = desk(api, models, ran);
    const billing = triage.handoffs[0] as Agent;
    triage.handoffs = [handoff(billing, config(seen))];
    return { triage, seen };
  }
  const hooked = (seen: string[]): HandoffConfig => ({
    onHandoff: (context: RunContext<unknown>) =>
      void seen.push(`handed off with ${JSON.stringify(context.context)}`),
    toolDescriptionOverride: 'Send the customer to billing',
  });

  it('onHandoff runs once and the overrides go out as the SDK sends them; the run waits in the target', async () => {
    const nativeRan: Ran = {};
    const native = configuredDesk(`cfg-native-${api}`, nativeRan, hooked);
    let result: RunResult<any, Agent<unknown, any>> = await run(native.triage, 'Refund order O-7, 20 EUR', {
      context: { desk: 'eu' },
    });
    const state = await RunState.fromString(native.triage, result.state.toString());
    for (const interruption of result.interruptions) state.approve(interruption);
    result = await run(native.triage, state, { context: { desk: 'eu' } });

    const ran: Ran = {};
    const first = configuredDesk(`cfg-${api}`, ran, hooked);
    const paused = await continuable(first.triage, { context: { desk: 'eu' } }).run(
      'Refund order O-7, 20 EUR',
    );
    if (paused.status !== 'suspended') throw new Error('expected the refund approval');
    const second = configuredDesk(`cfg-${api}`, ran, hooked);
    const done = await continuable(second.triage, { context: { desk: 'eu' } }).resume(
      serializeContinuation(paused.continuation),
      { [paused.actions[0]!.id]: { type: 'approve' } },
    );
    expect(done).toMatchObject({ status: 'completed', output: result.finalOutput });
    expect(native.seen).toEqual(['handed off with {"desk":"eu"}']);
    expect([...first.seen, ...second.seen]).toEqual(native.seen);
    expect(ran).toEqual({ refund: 1 });
    expect(bodiesOf(server, `cfg-${api}`)).toEqual(bodiesOf(server, `cfg-native-${api}`));
    expect(bodiesOf(server, `cfg-${api}`)[0]).toContain('Send the customer to billing');
  });

  it('a handoff isEnabled turns off is not offered to the model, natively or wrapped', async () => {
    const off = (): HandoffConfig => ({ isEnabled: () => false });
    server.setScript(`off-native-${api}-triage`, ['No transfer today.']);
    server.setScript(`off-${api}-triage`, ['No transfer today.']);
    const native = configuredDesk(`off-native-${api}`, {}, off);
    server.setScript(`off-native-${api}-triage`, ['No transfer today.']);
    const result = await run(native.triage, 'Refund order O-7, 20 EUR');
    const wrapped = configuredDesk(`off-${api}`, {}, off);
    server.setScript(`off-${api}-triage`, ['No transfer today.']);
    const done = await continuable(wrapped.triage).run('Refund order O-7, 20 EUR');
    expect(done).toMatchObject({ status: 'completed', output: result.finalOutput });
    expect(bodiesOf(server, `off-${api}`)).toEqual(bodiesOf(server, `off-native-${api}`));
    expect(bodiesOf(server, `off-${api}`)[0]).not.toContain('transfer_to_billing');
  });
});

describe('handoffs refused at wrap time', () => {
  it('a handoff with an inputFilter, which rewrites SDK run items a continuable run does not hold', () => {
    const billing = new Agent({ name: 'billing' });
    const triage = new Agent({
      name: 'triage',
      handoffs: [handoff(billing, { inputFilter: (data) => data })],
    });
    let caught: unknown;
    try {
      continuable(triage);
    } catch (error) {
      caught = error;
    }
    expect(isContinuationError(caught, 'INVALID_OPERATION')).toBe(true);
    expect((caught as Error).message).toMatch(/inputFilter/);
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
