/**
 * `stream()` over the SDK's streamed model calls (Chat Completions and Responses, over HTTP): text
 * deltas and tool events as they come, sub-agents' events tagged with their path, the nested approval
 * ending the stream with a suspension, and the resumed stream running the approved tool once.
 */
import { type AgentStreamEvent, serializeContinuation } from '@agent-continuations/core';
import { setupScriptedOpenAIServer } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { continuable } from '../src/index';
import { type Counts, payrollChain } from './support/payroll';

const server = setupScriptedOpenAIServer({ scripts: {} });

async function collect(stream: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const at = (events: AgentStreamEvent[], path: string | undefined) =>
  events.filter((event) => event.path?.join('/') === path);
const text = (events: AgentStreamEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');
const calls = (events: AgentStreamEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-call' ? [event.toolCall.toolName] : []));

describe.each(['chat', 'responses'] as const)('stream() (%s)', (api) => {
  it('streams every level tagged by path, suspends on the nested approval, and resumes streamed', async () => {
    const counts: Counts = {};
    const build = () => continuable(payrollChain({ api, server, counts, models: `stream-${api}-` }));
    const before = server.requests.length;
    const events = await collect(build().stream('Give Ada a raise to 3000'));
    // Every model call went out streamed.
    expect(server.requests.slice(before).map((request) => request.stream)).toEqual([true, true, true]);

    expect(text(at(events, undefined))).toBe('Asking payroll.');
    expect(calls(at(events, undefined))).toEqual(['payroll']);
    expect(text(at(events, 'call_1_0'))).toBe('Asking benefits.');
    expect(calls(at(events, 'call_1_0'))).toEqual(['benefits']);
    expect(calls(at(events, 'call_1_0/call_1_0'))).toEqual(['update_salary']);
    expect(at(events, 'call_1_0').filter((event) => event.type === 'text-delta').length).toBeGreaterThan(1);
    const last = events.at(-1)!;
    if (last.type !== 'result' || last.result.status !== 'suspended')
      throw new Error('expected a suspension');
    expect(last.result.actions.map((action) => action.id)).toEqual(['call_1_0/call_1_0/call_1_0']);
    expect(counts).toEqual({});

    const resumed = await collect(
      build().stream({
        continuation: serializeContinuation(last.result.continuation),
        decisions: { [last.result.actions[0]!.id]: { type: 'approve', by: 'ann' } },
      }),
    );
    const ran = at(resumed, 'call_1_0/call_1_0').filter((event) => event.type === 'tool-result');
    expect(ran).toMatchObject([
      { toolName: 'update_salary', output: { employeeId: 'ada', salary: 3000, applied: true } },
    ]);
    const output = 'payroll said: benefits said: updated {"employeeId":"ada","salary":3000,"applied":true}';
    expect(text(at(resumed, undefined))).toBe(output);
    expect(resumed.at(-1)).toMatchObject({ type: 'result', result: { status: 'completed', output } });
    expect(counts).toEqual({ update_salary: 1 });
  });
});
