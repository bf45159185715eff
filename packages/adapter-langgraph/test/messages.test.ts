import type { Message } from '@agent-continuations/core';
import { messageSchema } from '@agent-continuations/core/zod';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { convertMessagesToCompletionsMessageParams } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages, toLangChainMessages } from '../src';

const neutral: Message[] = [
  { role: 'system', content: 'You run operations.' },
  { role: 'user', content: 'Restart web-1' },
  {
    role: 'user',
    content: [
      {
        type: 'text',
        text: 'See the graph:',
        providerMetadata: { anthropic: { cacheControl: 'ephemeral' } },
      },
      { type: 'image', image: 'https://example.com/cpu.png' },
      { type: 'image', image: 'aGVsbG8=', mediaType: 'image/png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'runbook.pdf' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Check first.' },
      { type: 'text', text: 'Looking.', providerMetadata: { openai: { itemId: 'msg_1' } } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'status', args: { host: 'web-1' } },
      {
        type: 'tool-call',
        toolCallId: 'c2',
        toolName: 'logs',
        args: { host: 'web-1', lines: 5 },
        providerMetadata: { openai: { itemId: 'fc_1' } },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'status', output: { up: false } },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'logs', output: '{"not":"parsed"}' },
      { type: 'tool-result', toolCallId: 'c3', toolName: 'logs', output: 'timeout', isError: true },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Restarting.' },
      { type: 'tool-call', toolCallId: 'c4', toolName: 'restart', args: {} },
    ],
  },
  { role: 'assistant', content: 'Done.' },
  { role: 'assistant', content: [{ type: 'text', text: 'Parts stay parts.' }] },
];

describe('message conversion', () => {
  it('neutral -> LangChain -> neutral gives the same messages', () => {
    const lc = toLangChainMessages(neutral);
    const back = fromLangChainMessages(lc);
    for (const message of back) expect(messageSchema.safeParse(message).success).toBe(true);
    expect(back).toEqual(neutral);
  });

  it('builds the LangChain messages a model expects', () => {
    const lc = toLangChainMessages(neutral);
    expect(lc.map((m) => m.getType())).toEqual([
      'system',
      'human',
      'human',
      'ai',
      'tool',
      'tool',
      'tool',
      'ai',
      'ai',
      'ai',
    ]);
    const ai = lc[3] as AIMessage;
    expect(ai.tool_calls?.map((c) => [c.id, c.name, c.args])).toEqual([
      ['c1', 'status', { host: 'web-1' }],
      ['c2', 'logs', { host: 'web-1', lines: 5 }],
    ]);
    const tool = lc[4] as ToolMessage;
    expect([tool.tool_call_id, tool.content, tool.status]).toEqual(['c1', '{"up":false}', 'success']);
    expect((lc[6] as ToolMessage).status).toBe('error');
    expect((lc[7] as AIMessage).content).toBe('Restarting.');
    // Provider extras never ride inside content blocks, which chat models send to the provider.
    for (const message of lc) {
      if (typeof message.content === 'string') continue;
      for (const block of message.content as Array<Record<string, unknown>>) {
        expect(Object.keys(block).filter((key) => key === 'metadata' || key.startsWith('ac_'))).toEqual([]);
        expect(String(block.type).startsWith('ac_')).toBe(false);
      }
    }
  });

  it('LangChain -> neutral -> LangChain keeps ids, names, tool calls and results', () => {
    const lc = [
      new SystemMessage({ content: 'sys', id: 's1' }),
      new HumanMessage({ content: 'hi', id: 'h1', name: 'ann' }),
      new AIMessage({
        content: '',
        id: 'a1',
        tool_calls: [{ id: 't1', name: 'status', args: { host: 'x' }, type: 'tool_call' }],
      }),
      new ToolMessage({ content: '{"up":true}', tool_call_id: 't1', name: 'status', id: 'r1' }),
      new AIMessage({ content: 'ok', id: 'a2' }),
    ];
    const neutralForm = fromLangChainMessages(lc);
    expect(neutralForm[3]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 't1',
          toolName: 'status',
          output: { up: true },
          providerMetadata: { langchain: { id: 'r1' } },
        },
      ],
    });
    const again = toLangChainMessages(neutralForm);
    expect(again.map((m) => [m.getType(), m.id, m.name])).toEqual(lc.map((m) => [m.getType(), m.id, m.name]));
    expect((again[2] as AIMessage).tool_calls).toEqual((lc[2] as AIMessage).tool_calls);
    expect((again[3] as ToolMessage).content).toBe('{"up":true}');
    expect(fromLangChainMessages(again)).toEqual(neutralForm);
  });

  it('what ChatOpenAI sends for converted messages: text and tool calls, no reasoning, no extras', () => {
    const params = convertMessagesToCompletionsMessageParams({
      messages: toLangChainMessages(neutral),
    }) as unknown as Array<Record<string, unknown>>;
    const assistant = params[3]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content).toEqual([{ type: 'text', text: 'Looking.' }]);
    expect((assistant.tool_calls as Array<{ id: string }>).map((call) => call.id)).toEqual(['c1', 'c2']);
    expect(JSON.stringify(params)).not.toMatch(/ac_|itemId|cacheControl|reasoning/);
  });
});
