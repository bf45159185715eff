/**
 * A plain agent's segment (the steps from a start or resume to its suspension or end) is driven by
 * one SDK call; an agent with a step callback makes one SDK call per step. What the model is asked,
 * which tools run, and what runs return must be the same either way.
 */
import type { ModelRequest, RunResult } from '@agent-continuations/core';
import { lastToolResults, suspended } from '@agent-continuations/testing';
import { ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { continuable } from '../src/index';
import { type ScriptedLanguageModel, scriptedLanguageModel } from './support/scripted-language-model';

const script = [
  {
    toolCalls: [
      { name: 'lookup', args: { host: 'web-1' } },
      { name: 'lookup', args: { host: 'web-2' } },
    ],
  },
  { toolCalls: [{ name: 'explode', args: {} }] },
  { toolCalls: [{ name: 'restart', args: { host: 'web-2' } }] },
  // After the approval: the model reads the restart's result and checks again.
  (request: ModelRequest) => ({
    toolCalls: [
      {
        name: 'lookup',
        args: { host: String((lastToolResults(request.messages)[0]?.output as { host?: string })?.host) },
      },
    ],
  }),
  'All hosts checked.',
];

/** Two agents on the same script: one plain, one whose step callback makes it call the SDK per step. */
function agents() {
  const build = (perStep: boolean) => {
    const ran: string[] = [];
    const steps: string[] = [];
    const model = scriptedLanguageModel(script);
    const agent = continuable(
      new ToolLoopAgent({
        model,
        instructions: 'You check hosts.',
        temperature: 0,
        maxRetries: 0,
        ...(perStep ? { onStepFinish: ({ finishReason }) => void steps.push(finishReason) } : {}),
        tools: {
          lookup: tool({
            inputSchema: z.object({ host: z.string() }),
            execute: async ({ host }) => {
              ran.push(`lookup ${host}`);
              return { host, status: 'ok' };
            },
          }),
          explode: tool({
            inputSchema: z.object({}),
            execute: async (): Promise<string> => {
              ran.push('explode');
              throw new Error('disk full');
            },
          }),
          restart: tool({
            inputSchema: z.object({ host: z.string() }),
            needsApproval: true,
            execute: async ({ host }) => {
              ran.push(`restart ${host}`);
              return { host, restarted: true };
            },
          }),
        },
      }),
      { name: 'hosts' },
    );
    return { agent, model, ran, steps };
  };
  return { segment: build(false), perStep: build(true) };
}

/** What the model was asked, call by call (generate or stream). */
function asked(model: ScriptedLanguageModel) {
  return [...model.doGenerateCalls, ...model.doStreamCalls].map(({ abortSignal: _signal, ...call }) => call);
}

describe('one SDK call per segment', () => {
  it('asks the model the same, runs each tool once, and returns the same run as one call per step', async () => {
    const { segment, perStep } = agents();
    const outcomes = [];
    for (const side of [segment, perStep]) {
      const paused = suspended(await side.agent.run('Check every host.'));
      expect(paused.actions.map((action) => action.toolName)).toEqual(['restart']);
      const done = await side.agent.resume(paused.continuation, {
        [paused.actions[0]!.id]: { type: 'approve' },
      });
      if (done.status !== 'completed') throw new Error(`expected completion, got ${done.status}`);
      outcomes.push({ paused, done });
    }
    expect(segment.ran).toEqual(['lookup web-1', 'lookup web-2', 'explode', 'restart web-2', 'lookup web-2']);
    expect(perStep.ran).toEqual(segment.ran);
    expect(perStep.steps).toEqual(['tool-calls', 'tool-calls', 'tool-calls', 'tool-calls', 'stop']);
    expect(segment.model.doGenerateCalls).toHaveLength(5);
    expect(asked(segment.model)).toEqual(asked(perStep.model));
    // The model reads the tools' real results, never a placeholder.
    const results = segment.model.requests
      .at(-1)!
      .messages.flatMap((message) =>
        message.role === 'tool' ? message.content.map((part) => part.output) : [],
      );
    expect(results).toEqual([
      { host: 'web-1', status: 'ok' },
      { host: 'web-2', status: 'ok' },
      { error: 'disk full' },
      { host: 'web-2', restarted: true },
      { host: 'web-2', status: 'ok' },
    ]);
    const [ours, theirs] = outcomes;
    expect(ours!.done.output).toBe('All hosts checked.');
    expect(ours!.done.messages).toEqual(theirs!.done.messages);
    expect(ours!.done.usage).toEqual(theirs!.done.usage);
    expect(ours!.paused.continuation.messages).toEqual(theirs!.paused.continuation.messages);
  });

  it('makes one SDK call per segment, and one per step for an agent with a step callback', async () => {
    const { segment, perStep } = agents();
    for (const side of [segment, perStep]) {
      const paused = suspended(await side.agent.run('Check every host.'));
      await side.agent.resume(paused.continuation, { [paused.actions[0]!.id]: { type: 'approve' } });
    }
    // The SDK hands every step of one call the same headers object.
    const calls = (model: ScriptedLanguageModel) =>
      new Set(model.doGenerateCalls.map((call) => call.headers)).size;
    expect(calls(segment.model)).toBe(2);
    expect(calls(perStep.model)).toBe(5);
  });

  it('streams the same events and asks the model the same when streamed', async () => {
    const { segment, perStep } = agents();
    const seen = [];
    for (const side of [segment, perStep]) {
      const events: unknown[] = [];
      const first = side.agent.stream('Check every host.');
      for await (const event of first) events.push(event);
      const paused = suspended(await first.result);
      for await (const event of side.agent.stream({
        continuation: paused.continuation,
        decisions: { [paused.actions[0]!.id]: { type: 'approve' } },
      }))
        events.push(event);
      seen.push(
        events.map((event) =>
          (event as { type: string }).type === 'result'
            ? { type: 'result', status: (event as { result: RunResult<unknown> }).result.status }
            : event,
        ),
      );
    }
    expect(segment.model.doStreamCalls.length).toBe(perStep.model.doStreamCalls.length);
    expect(asked(segment.model)).toEqual(asked(perStep.model));
    expect(seen[0]).toEqual(seen[1]);
    expect(segment.ran.filter((entry) => entry.startsWith('restart'))).toEqual(['restart web-2']);
  });

  it('fails a step whose model call fails as one call per step does, and resumes from its checkpoint', async () => {
    const build = (perStep: boolean) => {
      let calls = 0;
      const model = scriptedLanguageModel([
        { toolCalls: [{ name: 'lookup', args: { host: 'web-1' } }] },
        () => {
          calls += 1;
          if (calls === 1) throw new Error('model overloaded');
          return 'Checked.';
        },
      ]);
      const ran: string[] = [];
      const agent = continuable(
        {
          model,
          maxRetries: 0,
          ...(perStep ? { onStepFinish: () => {} } : {}),
          tools: {
            lookup: tool({
              inputSchema: z.object({ host: z.string() }),
              execute: async ({ host }) => ran.push(host) && host,
            }),
          },
        },
        { name: 'flaky' },
      );
      return { agent, ran };
    };
    for (const side of [build(false), build(true)]) {
      const error = await side.agent.run('Check.').then(
        () => undefined,
        (thrown: unknown) => thrown as Error & { continuation?: unknown },
      );
      expect(String(error?.cause ?? error)).toMatch(/model overloaded/);
      expect(error?.continuation).toBeDefined();
      const done = await side.agent.resume(error!.continuation as never);
      expect(done.status).toBe('completed');
      expect(side.ran).toEqual(['web-1']);
    }
  });
});
