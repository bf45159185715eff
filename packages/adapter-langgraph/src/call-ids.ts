/**
 * Tool-call ids a model repeats or leaves empty (some OpenAI-compatible servers and local models
 * do) are made unique the way the core does it for every adapter, in the model's `AIMessage`
 * itself, before the graph's tool node or an interrupt reads them.
 */
import type { AssistantMessage, ToolCallPart } from '@agent-continuations/core';
import { uniqueToolCallIds } from '@agent-continuations/core/adapter-kit';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';

/** Every tool-call id the assistant messages of a model call's input use. */
export function callIdsIn(messages: readonly BaseMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.getType() !== 'ai') continue;
    for (const call of (message as AIMessage).tool_calls ?? []) if (call.id) ids.add(call.id);
  }
  return ids;
}

/**
 * Give the calls of `message` unique ids (against each other and `taken`), with the core's
 * `uniqueToolCallIds`: `dup`, `dup` become `dup`, `dup~2`; an empty id becomes `call`. Changes the
 * message in place (the object the model node returns), keeping its own id; the provider's raw
 * calls in `additional_kwargs.tool_calls` and tool-call content blocks follow, position by position.
 */
export function makeCallIdsUnique(message: AIMessage, taken: ReadonlySet<string>): void {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return;
  const neutral: AssistantMessage = {
    role: 'assistant',
    content: calls.map(
      (call): ToolCallPart => ({
        type: 'tool-call',
        toolCallId: call.id ?? '',
        toolName: call.name,
        args: {},
      }),
    ),
  };
  const unique = uniqueToolCallIds(neutral, taken);
  if (unique === neutral) return;
  const ids = (unique.content as ToolCallPart[]).map((part) => part.toolCallId);
  message.tool_calls = calls.map((call, index) => ({ ...call, id: ids[index]! }));
  const raw = message.additional_kwargs?.tool_calls;
  if (Array.isArray(raw) && raw.length === calls.length) {
    message.additional_kwargs.tool_calls = raw.map((call, index) => ({ ...call, id: ids[index]! }));
  }
  if (Array.isArray(message.content)) {
    let at = 0;
    const blocks = message.content as unknown as Array<Record<string, unknown>>;
    const callBlocks = blocks.filter((block) => block.type === 'tool_call' || block.type === 'tool_use');
    if (callBlocks.length !== calls.length) return;
    message.content = blocks.map((block) =>
      block.type === 'tool_call' || block.type === 'tool_use' ? { ...block, id: ids[at++]! } : block,
    ) as unknown as AIMessage['content'];
  }
}
