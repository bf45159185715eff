import {
  isRejected,
  parseContinuation,
  serializeContinuation,
  type ToolResultPart,
} from '@agent-continuations/core';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { fromGraph } from '../src';
import { threadApp } from './fixtures/thread-graphs';

describe.each(['react', 'hitl'] as const)('a rejected call of a %s graph', (kind) => {
  it('is marked rejected in the transcript, as in every adapter, and reads back', async () => {
    const app = threadApp(kind, new MemorySaver(), ['web-1', 'web-2']);
    const agent = fromGraph(app.graph, { name: 'ops', checkpointer: false });
    const first = await agent.run('Restart the web tier');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const [one, two] = first.actions;
    const done = await agent.resume(serializeContinuation(first.continuation), {
      [one!.id]: { type: 'reject', reason: 'not during business hours' },
      [two!.id]: { type: 'approve' },
    });
    if (done.status !== 'completed') throw new Error(`expected completion, got ${done.status}`);
    const results = done.messages
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content as ToolResultPart[]);
    if (kind === 'react') {
      expect(app.counts.restart).toBe(1);
      expect(results.map((part) => [part.toolCallId, isRejected(part)])).toEqual([
        [one!.toolCallId, true],
        [two!.toolCallId, false],
      ]);
    } else {
      // The middleware's own rule: when any call of its request is rejected, none runs and the
      // model is asked again with the rejections.
      expect(app.counts.restart ?? 0).toBe(0);
      expect(results.map((part) => [part.toolCallId, isRejected(part)])).toEqual([[one!.toolCallId, true]]);
    }
    // A continuation holding the marked transcript is one the core reads back.
    expect(
      parseContinuation(JSON.stringify({ ...first.continuation, messages: done.messages })).messages,
    ).toEqual(done.messages);
  });
});
