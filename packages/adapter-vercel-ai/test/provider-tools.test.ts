import { toolCallsOf } from '@agent-continuations/core';
import { ToolLoopAgent, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { continuable } from '../src/index';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

it('leaves a provider-executed tool call to the provider, and keeps it in the history the model gets back', async () => {
  const ran: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const turn = prompt.filter((message) => message.role === 'assistant').length;
      if (turn === 0) {
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'ws_1',
              toolName: 'web_search',
              input: '{"query":"solar"}',
              providerExecuted: true,
            },
            { type: 'tool-result', toolCallId: 'ws_1', toolName: 'web_search', result: { hits: 2 } },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'save', input: '{"note":"2 hits"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: 'saved' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  const agent = continuable(
    new ToolLoopAgent({
      model,
      tools: {
        save: tool({
          inputSchema: z.object({ note: z.string() }),
          execute: async ({ note }) => ran.push(note) && 'ok',
        }),
      },
    }),
    { name: 'notes' },
  );
  const done = await agent.run('search and save');
  expect(done.status).toBe('completed');
  expect(ran).toEqual(['2 hits']);
  if (done.status !== 'completed') return;
  // Only the call the engine must run is a neutral tool call; the provider's own call rides along.
  expect(toolCallsOf(done.messages[1]).map((call) => call.toolName)).toEqual(['save']);
  const second = model.doGenerateCalls[1]!.prompt.find((message) => message.role === 'assistant')!;
  expect(second.content.map((part) => `${part.type}:${'toolName' in part ? part.toolName : ''}`)).toEqual([
    'tool-call:web_search',
    'tool-result:web_search',
    'tool-call:save',
  ]);
});
