/** The engine's stream events made from the SDK's stream parts of one step. */
import type { ModelStreamEvent } from '@agent-continuations/core';
import type { TextStreamPart, ToolSet } from 'ai';

/** The engine's event for one stream part of a step, if it has one. */
export function streamEvent(part: TextStreamPart<ToolSet>): ModelStreamEvent | undefined {
  if (part.type === 'text-delta') return { type: 'text-delta', delta: part.text };
  // Tool-input deltas pass through the engine's stream to the UI stream, as the SDK sends them.
  if (part.type === 'tool-input-start' && !part.providerExecuted)
    return { type: 'tool-input-start', toolCallId: part.id, toolName: part.toolName } as never;
  if (part.type === 'tool-input-delta')
    return { type: 'tool-input-delta', toolCallId: part.id, delta: part.delta } as never;
  if (part.type === 'reasoning-delta') return { type: 'reasoning-delta', delta: part.text };
  if (part.type === 'tool-call' && !part.providerExecuted) {
    return {
      type: 'tool-call',
      toolCall: {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        args: part.input as never,
      },
    };
  }
  return undefined;
}
