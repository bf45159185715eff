import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { fromGraph } from '../src';
import { threadApp } from './fixtures/thread-graphs';

type Interrupt = { id: string; value: unknown; actionIds: string[] };

describe.each([
  ['react', ['web-1']],
  ['hitl', ['web-1', 'web-2']],
  ['custom', ['web-1']],
] as const)('a streamed %s graph that interrupts', (kind, hosts) => {
  it.each(['values', 'updates'] as const)(
    "names, in %s mode, the actions that answer each of LangGraph's interrupts",
    async (streamMode) => {
      const app = threadApp(kind, new MemorySaver(), [...hosts]);
      const stream = fromGraph(app.graph, { name: 'ops', checkpointer: false }).stream('Restart', {
        streamMode,
      });
      const chunks: unknown[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const result = await stream.result;
      if (result.status !== 'suspended') throw new Error('expected a suspension');
      const interrupts = chunks.flatMap(
        (chunk) => ((chunk as { __interrupt__?: Interrupt[] }).__interrupt__ ?? []) as Interrupt[],
      );
      expect(interrupts.length).toBeGreaterThan(0);
      // LangGraph's own id stays; beside it, every action is named by exactly one interrupt.
      for (const one of interrupts) expect(typeof one.id).toBe('string');
      expect(interrupts.flatMap((one) => one.actionIds).sort()).toEqual(
        result.actions.map((action) => action.id).sort(),
      );
      // The interrupt chunk comes last, once its actions are known.
      expect(chunks.at(-1)).toHaveProperty('__interrupt__');
    },
  );
});
