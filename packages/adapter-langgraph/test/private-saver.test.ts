import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { PrivateSaver } from '../src/private-saver';
import { ScriptedChatModel } from './scripted-chat-model';

it('the private saver keeps the newest checkpoint and its parent, so a long run holds O(steps) in memory', async () => {
  const saver = new PrivateSaver();
  const lookup = tool(async ({ n }) => `value ${n}`, {
    name: 'lookup',
    description: 'Look up',
    schema: z.object({ n: z.number() }),
  });
  const llm = new ScriptedChatModel((request) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    return turn < 10 ? { toolCalls: [{ name: 'lookup', args: { n: turn } }] } : 'done';
  });
  const graph = createReactAgent({ llm, tools: [lookup], version: 'v2', checkpointer: saver });
  const result = await graph.invoke(
    { messages: [{ role: 'user', content: 'go' }] },
    { configurable: { thread_id: 't' } },
  );
  expect(result.messages).toHaveLength(22);
  const checkpoints = Object.keys(saver.storage.t?.[''] ?? {});
  expect(checkpoints).toHaveLength(2);
  const writeKeys = Object.keys(saver.writes).map((key) => JSON.parse(key)[2]);
  expect(writeKeys.every((id) => checkpoints.includes(id))).toBe(true);
  expect((await graph.getState({ configurable: { thread_id: 't' } })).values.messages).toHaveLength(22);
});
