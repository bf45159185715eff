import { type AssistantMessage, type Message, toolCallsOf } from '@agent-continuations/core';
import { toolCallIdsIn, uniqueToolCallIds } from '@agent-continuations/core/adapter-kit';
import { describe, expect, it } from 'vitest';

function assistant(...ids: string[]): AssistantMessage {
  return {
    role: 'assistant',
    content: [
      { type: 'text', text: 'calling' },
      ...ids.map((id, i) => ({
        type: 'tool-call' as const,
        toolCallId: id,
        toolName: `tool${i}`,
        args: { i },
      })),
    ],
  };
}

const ids = (message: AssistantMessage) => toolCallsOf(message).map((call) => call.toolCallId);

describe('uniqueToolCallIds', () => {
  it('returns the very message when its ids are unique and new', () => {
    const message = assistant('a', 'b');
    expect(uniqueToolCallIds(message, new Set(['c']))).toBe(message);
  });

  it('renames a repeated id within the message to id~2, id~3, in order', () => {
    const message = assistant('call_1', 'call_1', 'call_2', 'call_1');
    const unique = uniqueToolCallIds(message, new Set());
    expect(ids(unique)).toEqual(['call_1', 'call_1~2', 'call_2', 'call_1~3']);
    // Everything else is kept, and the input is not changed.
    expect(toolCallsOf(unique).map((call) => call.toolName)).toEqual(['tool0', 'tool1', 'tool2', 'tool3']);
    expect(toolCallsOf(unique)[3]!.args).toEqual({ i: 3 });
    expect(unique.content[0]).toEqual({ type: 'text', text: 'calling' });
    expect(ids(message)).toEqual(['call_1', 'call_1', 'call_2', 'call_1']);
  });

  it('renames an id already used earlier in the transcript, skipping suffixes that are taken too', () => {
    const transcript: Message[] = [
      { role: 'user', content: 'go' },
      assistant('call_1', 'call_1~2'),
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'tool0', output: 1 }],
      },
    ];
    const taken = toolCallIdsIn(transcript);
    expect([...taken].sort()).toEqual(['call_1', 'call_1~2']);
    // An id that is unique already keeps it; only the repeated one is renamed, around it.
    expect(ids(uniqueToolCallIds(assistant('call_1', 'call_1~3'), taken))).toEqual(['call_1~4', 'call_1~3']);
  });

  it('gives empty ids a name: call, call~2, ...', () => {
    expect(ids(uniqueToolCallIds(assistant('', ''), new Set()))).toEqual(['call', 'call~2']);
    expect(ids(uniqueToolCallIds(assistant('', '', 'call'), new Set()))).toEqual([
      'call~2',
      'call~3',
      'call',
    ]);
  });

  it('is deterministic: the same input gives the same ids', () => {
    const message = assistant('x', '', 'x', '');
    const taken = new Set(['x', 'call']);
    expect(ids(uniqueToolCallIds(message, taken))).toEqual(ids(uniqueToolCallIds(message, taken)));
    expect(ids(uniqueToolCallIds(message, taken))).toEqual(['x~2', 'call~2', 'x~3', 'call~3']);
    expect([...taken]).toEqual(['x', 'call']);
  });

  it('leaves a message with string content or no tool calls alone', () => {
    const text: AssistantMessage = { role: 'assistant', content: 'hi' };
    expect(uniqueToolCallIds(text, new Set(['a']))).toBe(text);
  });
});
