/**
 * The agent's own guardrails run as under the SDK's `Runner`: input guardrails on the run's input at
 * its first model call, output guardrails on the final answer (after a resume too), and a tripwire
 * throws the SDK's own error class, with no tool run. Each case runs natively and wrapped.
 */
import { createMemoryStore, createRuntime, serializeContinuation } from '@agent-continuations/core';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from '@agent-continuations/testing';
import {
  Agent,
  type InputGuardrail,
  InputGuardrailTripwireTriggered,
  type OutputGuardrail,
  OutputGuardrailTripwireTriggered,
  type RunResult,
  RunState,
  run,
  tool,
} from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { continuable } from '../src/index';
import { sdkModel } from './harness';
import { billingDesk } from './support/billing';

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ scripts: {} });
});
afterAll(async () => {
  await server.close();
});

/** What the guardrails saw, and how often the transfer ran. */
interface Seen {
  inputs: unknown[];
  outputs: unknown[];
  transfers: number;
}

/** A bank agent whose transfer needs approval, under the given guardrails. */
function bank(
  api: 'chat' | 'responses',
  model: string,
  seen: Seen,
  guard: { input?: 'pass' | 'trip'; parallel?: boolean; output?: 'pass' | 'trip' },
) {
  server.setScript(model, [
    { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
    (request) => `done: ${request.messages.filter((m) => m.role === 'tool').length} transfer`,
  ]);
  const inputGuardrails: InputGuardrail[] = guard.input
    ? [
        {
          name: 'no-fraud',
          runInParallel: guard.parallel ?? true,
          execute: async ({ input }) => {
            seen.inputs.push(input);
            return { tripwireTriggered: guard.input === 'trip', outputInfo: { reason: 'fraud' } };
          },
        },
      ]
    : [];
  const outputGuardrails: OutputGuardrail[] = guard.output
    ? [
        {
          name: 'no-leak',
          execute: async ({ agentOutput }) => {
            seen.outputs.push(agentOutput);
            return { tripwireTriggered: guard.output === 'trip', outputInfo: { leaked: true } };
          },
        },
      ]
    : [];
  return new Agent({
    name: 'bank',
    instructions: 'You move money.',
    model: sdkModel(api, server, model),
    inputGuardrails,
    outputGuardrails,
    tools: [
      tool({
        name: 'transfer',
        description: 'Send money',
        parameters: z.object({ to: z.string(), amount: z.number() }),
        needsApproval: true,
        execute: async () => {
          seen.transfers++;
          return 'sent';
        },
      }),
    ],
  });
}

const fresh = (): Seen => ({ inputs: [], outputs: [], transfers: 0 });

describe.each(['chat', 'responses'] as const)('guardrails (%s)', (api) => {
  it.each([true, false])(
    'an input tripwire (runInParallel %s) throws the SDK error natively and wrapped; nothing runs',
    async (parallel) => {
      const native = fresh();
      const nativeModel = `in-trip-native-${api}-${parallel}`;
      const nativeRun = run(bank(api, nativeModel, native, { input: 'trip', parallel }), 'Send 50 to Bob');
      await expect(nativeRun).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);

      const seen = fresh();
      const model = `in-trip-${api}-${parallel}`;
      const error = await continuable(bank(api, model, seen, { input: 'trip', parallel }))
        .run('Send 50 to Bob')
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
      const nativeError = (await nativeRun.catch((caught: unknown) => caught)) as Error;
      expect((error as Error).message).toBe(nativeError.message);
      expect((error as InputGuardrailTripwireTriggered).result.guardrail.name).toBe('no-fraud');
      expect(seen.inputs).toEqual(['Send 50 to Bob']);
      expect(seen.transfers).toBe(0);
      // A blocking guardrail stops the run before the model is called, as the Runner does; beside
      // the call, the call may go out, and its answer is discarded.
      const calls = server.requests.filter((request) => request.model === model).length;
      if (parallel) expect(calls).toBeLessThanOrEqual(1);
      else expect(calls).toBe(0);
      if (!parallel)
        expect(server.requests.filter((request) => request.model === nativeModel)).toHaveLength(0);
    },
  );

  it('a passing input guardrail sees the input once: not again when the run resumes', async () => {
    const seen = fresh();
    const agent = continuable(bank(api, `in-pass-${api}`, seen, { input: 'pass' }));
    const first = await agent.run('Send 50 to Bob');
    if (first.status !== 'suspended') throw new Error('expected an approval');
    const done = await agent.resume(first.continuation, { [first.actions[0]!.id]: { type: 'approve' } });
    expect(done).toMatchObject({ status: 'completed', output: 'done: 1 transfer' });
    expect(seen.inputs).toEqual(['Send 50 to Bob']);
    expect(seen.transfers).toBe(1);
  });

  it('an output tripwire on the answer after an approval throws the SDK error; the transfer ran once', async () => {
    const seen = fresh();
    const runtime = createRuntime({
      agents: [continuable(bank(api, `out-trip-${api}`, seen, { output: 'trip' }))],
      store: createMemoryStore(),
    });
    const first = await runtime.start('bank', 'Send 50 to Bob');
    if (first.status !== 'suspended') throw new Error('expected an approval');
    // The call that asked for the approval was not a final answer: no output guardrail yet.
    expect(seen.outputs).toEqual([]);
    const error = await runtime
      .resume(first.continuation.id, { [first.actions[0]!.id]: { type: 'approve' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect((error as Error).message).toBe('Output guardrail triggered: {"leaked":true}');
    expect(seen.outputs).toEqual(['done: 1 transfer']);
    expect(seen.transfers).toBe(1);
  });

  it('a passing output guardrail sees the final answer, streamed or not', async () => {
    const seen = fresh();
    const agent = continuable(bank(api, `out-pass-${api}`, seen, { output: 'pass' }));
    const first = await agent.run('Send 50 to Bob');
    if (first.status !== 'suspended') throw new Error('expected an approval');
    const stream = agent.stream({
      continuation: first.continuation,
      decisions: { [first.actions[0]!.id]: { type: 'approve' } },
    });
    for await (const _event of stream);
    expect(await stream.result).toMatchObject({ status: 'completed', output: 'done: 1 transfer' });
    expect(seen.outputs).toEqual(['done: 1 transfer']);
  });
});

describe.each(['chat', 'responses'] as const)('guardrails across a handoff (%s)', (api) => {
  /** The desk with guardrails that note what they saw: triage guards the input, each agent its output. */
  function guardedDesk(models: string, seen: string[]) {
    const triage = billingDesk(api, server, models, {});
    const billing = triage.handoffs[0] as Agent;
    const noting = (agent: string) => ({
      name: `${agent}-output`,
      execute: async ({ agentOutput }: { agentOutput: unknown }) => {
        seen.push(`${agent} output: ${String(agentOutput)}`);
        return { tripwireTriggered: false, outputInfo: {} };
      },
    });
    triage.inputGuardrails.push({
      name: 'triage-input',
      execute: async ({ input }) => {
        seen.push(`triage input: ${JSON.stringify(input)}`);
        return { tripwireTriggered: false, outputInfo: {} };
      },
    });
    triage.outputGuardrails.push(noting('triage'));
    billing.outputGuardrails.push(noting('billing'));
    billing.inputGuardrails.push({
      name: 'billing-input',
      execute: async () => {
        seen.push('billing input');
        return { tripwireTriggered: false, outputInfo: {} };
      },
    });
    return triage;
  }

  it('the starting agent guards the input, the agent that answers guards the output, as under the Runner', async () => {
    const nativeSeen: string[] = [];
    const native = guardedDesk(`guard-hand-native-${api}`, nativeSeen);
    let result: RunResult<unknown, Agent<unknown, any>> = await run(native, 'Refund order O-7, 20 EUR');
    const state = await RunState.fromString(native, result.state.toString());
    for (const interruption of result.interruptions) state.approve(interruption);
    result = await run(native, state);

    const seen: string[] = [];
    const models = `guard-hand-${api}`;
    const paused = await continuable(guardedDesk(models, seen)).run('Refund order O-7, 20 EUR');
    if (paused.status !== 'suspended') throw new Error('expected the refund approval');
    const done = await continuable(guardedDesk(models, seen)).resume(
      serializeContinuation(paused.continuation),
      { [paused.actions[0]!.id]: { type: 'approve' } },
    );
    expect(done).toMatchObject({ status: 'completed', output: result.finalOutput });
    expect(seen).toEqual(nativeSeen);
    expect(seen).toEqual([
      'triage input: "Refund order O-7, 20 EUR"',
      `billing output: ${result.finalOutput}`,
    ]);
  });
});
