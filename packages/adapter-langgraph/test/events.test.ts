import type { Continuation, RunEvent } from '@agent-continuations/core';
import { type Counts, lookupTool, reportResults } from '@agent-continuations/testing';
import { describe, expect, it } from 'vitest';
import { fromGraph } from '../src';
import { buildGraph, conformanceTools, type GraphKind } from './harness';
import { ScriptedChatModel } from './scripted-chat-model';

function agent(kind: GraphKind, counts: Counts, model: ScriptedChatModel) {
  return fromGraph(buildGraph(kind, model, conformanceTools([lookupTool(counts)]), 'Look things up.'), {
    name: 'looker',
  });
}
const script = [{ toolCalls: [{ name: 'lookup_account', args: { account: 'A-1' } }] }, reportResults];

describe.each(['react', 'create-agent', 'custom'] as const)('run events (%s)', (kind) => {
  it('reports each step with a checkpoint that resumes without running finished calls again', async () => {
    const counts: Counts = {};
    const events: RunEvent[] = [];
    const result = await agent(kind, counts, new ScriptedChatModel(script)).run('look up A-1', {
      onEvent: (event) => {
        events.push(event);
      },
    });
    expect(result.status).toBe('completed');
    expect(events.map((event) => event.type)).toEqual([
      'model-call',
      'tool-result',
      'model-call',
      'complete',
    ]);
    const toolStep = events[1] as Extract<RunEvent, { type: 'tool-result' }>;
    expect(toolStep).toMatchObject({
      toolCallId: 'call_1_0',
      toolName: 'lookup_account',
      output: { account: 'A-1', balance: 120 },
    });

    // As after a crash: resume from the checkpoint of the tool step, in a fresh agent.
    const saved: Continuation = JSON.parse(JSON.stringify(toolStep.checkpoint()));
    expect(saved.suspendedBy).toEqual({ type: 'checkpoint' });
    const model = new ScriptedChatModel(script);
    const done = await agent(kind, counts, model).resume(saved);
    expect(done.status).toBe('completed');
    if (done.status === 'completed')
      expect(done.output).toBe('done: lookup_account={"account":"A-1","balance":120}');
    expect(counts.lookup_account).toBe(1);
    expect(model.requests).toHaveLength(1);
  });
});
