/**
 * Drop-in: the SDK's own human-in-the-loop example, run as its README runs it (`run`, `RunState`
 * saved as text, `state.approve`, `run` again) and wrapped (`continuable(agent)` at the root, the
 * weather agent's `asTool` made through `continuable(weatherAgent)`), over the real `@openai/agents`
 * models on the scripted server. Both make the same model calls, run each tool once and answer alike.
 */
import { serializeContinuation } from '@agent-continuations/core';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from '@agent-continuations/testing';
import { RunState, run } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { PROMPT, type Ran, weatherExample } from './support/weather';

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ scripts: {} });
});
afterAll(async () => {
  await server.close();
});

/** The bodies the server got for one run's models, in order, with the run's prefix taken out. */
function bodiesOf(models: string): string[] {
  return server.requests
    .filter((request) => request.model?.startsWith(`${models}-`))
    .map((request) =>
      JSON.stringify(request.body)
        .replaceAll(`${models}-`, '')
        // Item ids the server made up, which the SDK sends back as it got them.
        .replace(/"(msg|fc)_[0-9a-f]+"/g, '"$1_"'),
    );
}

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
    let result = await run(native, PROMPT);
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
    expect(bodiesOf(`wrapped-${api}`)).toEqual(bodiesOf(`native-${api}`));
    expect(bodiesOf(`native-${api}`)).toHaveLength(4);
  });
});
