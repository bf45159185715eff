/**
 * Drop-in: the SDK's own human-in-the-loop example, and `asTool` nesting three levels deep, run as the SDK runs them (`run`, `RunState`
 * saved as text, `state.approve`, `run` again) and wrapped (`continuable(agent)` at the root, the
 * weather agent's `asTool` made through `continuable(weatherAgent)`), over the real `@openai/agents`
 * models on the scripted server. Both make the same model calls, run each tool once and answer alike.
 */
import { serializeContinuation } from '@agent-continuations/core';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { type Agent, type RunResult, RunState, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { type Counts, payrollChain } from './support/payroll';
import { PROMPT, type Ran, weatherExample } from './support/weather';
import { bodiesOf } from './support/wire';

const server = setupScriptedOpenAIServer({ scripts: {} });

describe.each(['chat', 'responses'] as const)('the SDK human-in-the-loop example (%s)', (api) => {
  it('natively and wrapped: the same model calls, each tool once, the same answer', async () => {
    const nativeRan: Ran = {};
    const native = weatherExample({
      api,
      server,
      ran: nativeRan,
      models: `native-${api}`,
      wrapSubAgent: false,
    });
    let result: RunResult<unknown, Agent<unknown, any>> = await run(native, PROMPT);
    const asked: string[] = [];
    while (result.interruptions.length > 0) {
      const state = await RunState.fromString(native, result.state.toString());
      for (const interruption of result.interruptions) {
        asked.push(interruption.name!);
        state.approve(interruption);
      }
      result = await run(native, state);
    }

    const wrappedRan: Ran = {};
    const build = () =>
      continuable(
        weatherExample({ api, server, ran: wrappedRan, models: `wrapped-${api}`, wrapSubAgent: true }),
      );
    const paused = await build().run(PROMPT);
    if (paused.status !== 'suspended') throw new Error('expected approvals');
    expect(paused.actions.map((action) => action.toolName)).toEqual(asked);
    const decisions = Object.fromEntries(
      paused.actions.map((action) => [action.id, { type: 'approve' as const }]),
    );
    const done = await build().resume(serializeContinuation(paused.continuation), decisions);

    expect(done).toMatchObject({ status: 'completed', output: result.finalOutput });
    expect(result.finalOutput).toBe(
      'Here you go: The temperature in Oakland is 20° Celsius / Sunny: The weather in San Francisco is sunny',
    );
    expect(nativeRan).toEqual({ get_temperature: 1, get_weather: 1 });
    expect(wrappedRan).toEqual(nativeRan);
    expect(bodiesOf(server, `wrapped-${api}`)).toEqual(bodiesOf(server, `native-${api}`));
    expect(bodiesOf(server, `native-${api}`)).toHaveLength(4);
  });
});

describe.each(['chat', 'responses'] as const)('asTool nesting to depth 3 (%s)', (api) => {
  it('natively and wrapped: the same model calls, the nested approval runs once, the same answer', async () => {
    const nativeCounts: Counts = {};
    const native = payrollChain({
      api,
      server,
      counts: nativeCounts,
      models: `native-nest-${api}-`,
      wrapSubAgents: false,
    });
    let result: RunResult<unknown, Agent<any, any>> = await run(native, 'Give Ada a raise to 3000');
    expect(result.interruptions.map((item) => item.name)).toEqual(['update_salary']);
    const state = await RunState.fromString(native, result.state.toString());
    for (const interruption of result.interruptions) state.approve(interruption);
    result = await run(native, state);

    const wrappedCounts: Counts = {};
    const build = () =>
      continuable(payrollChain({ api, server, counts: wrappedCounts, models: `wrapped-nest-${api}-` }));
    const paused = await build().run('Give Ada a raise to 3000');
    if (paused.status !== 'suspended') throw new Error('expected the nested approval');
    expect(paused.actions.map((action) => action.path.map((segment) => segment.agent))).toEqual([
      ['hr', 'payroll', 'benefits'],
    ]);
    const done = await build().resume(serializeContinuation(paused.continuation), {
      [paused.actions[0]!.id]: { type: 'approve' },
    });

    expect(result.finalOutput).toBe(
      'payroll said: benefits said: updated {"employeeId":"ada","salary":3000,"applied":true}',
    );
    expect(done).toMatchObject({ status: 'completed', output: result.finalOutput });
    expect(nativeCounts).toEqual({ update_salary: 1 });
    expect(wrappedCounts).toEqual({ update_salary: 1 });
    expect(bodiesOf(server, `wrapped-nest-${api}`)).toEqual(bodiesOf(server, `native-nest-${api}`));
    expect(bodiesOf(server, `native-nest-${api}`)).toHaveLength(6);
  });
});
