/**
 * After an approval with edited arguments the model reads the arguments that ran: the tool's
 * result comes back as a `Command` that also replaces the turn's `AIMessage` (same id, so the
 * messages reducer swaps it in place) with every edited call of the run carrying its edited
 * arguments. The arguments the model asked for stay in the audit trail. Every edited call of the
 * turn writes the same message, so parallel calls agree.
 */
import type { JsonValue } from '@agent-continuations/core';
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { Command, isCommand } from '@langchain/langgraph';
import { EDITS_KEY, MESSAGES_KEY } from './keys';

interface ToolConfig {
  configurable?: Record<string, unknown>;
  state?: unknown;
}

/**
 * The tool's `output` for `toolCallId`, as a `Command` that also rewrites the turn's AIMessage
 * when any of its calls ran with edited arguments; `output` unchanged otherwise.
 */
export function withEditedTurn(
  config: ToolConfig,
  toolCallId: string,
  toolName: string,
  output: unknown,
  own?: JsonValue,
): unknown {
  const edits = {
    ...(config.configurable?.[EDITS_KEY] as Record<string, JsonValue> | undefined),
    ...(own === undefined ? {} : { [toolCallId]: own }),
  };
  if (Object.keys(edits).length === 0 || isCommand(output)) return output;
  const key = (config.configurable?.[MESSAGES_KEY] as string | undefined) ?? 'messages';
  const messages = (config.state as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(messages)) return output;
  const turn = [...(messages as BaseMessage[])]
    .reverse()
    .find(
      (message): message is AIMessage =>
        AIMessage.isInstance(message) && (message.tool_calls ?? []).some((call) => call.id === toolCallId),
    );
  const calls = turn?.tool_calls ?? [];
  if (!turn?.id || !calls.some((call) => call.id !== undefined && call.id in edits)) return output;
  const argsOf = (id: string | undefined, args: unknown) =>
    id !== undefined && id in edits ? edits[id] : args;
  const raw = turn.additional_kwargs?.tool_calls;
  const edited = new AIMessage({
    id: turn.id,
    content: turn.content,
    ...(turn.name ? { name: turn.name } : {}),
    tool_calls: calls.map((call) => ({
      ...call,
      args: argsOf(call.id, call.args) as Record<string, unknown>,
    })),
    additional_kwargs: {
      ...turn.additional_kwargs,
      // Providers' raw form of the calls, where a chat model keeps it, says the same.
      ...(Array.isArray(raw)
        ? {
            tool_calls: raw.map((call) =>
              call.id in edits
                ? { ...call, function: { ...call.function, arguments: JSON.stringify(edits[call.id]) } }
                : call,
            ),
          }
        : {}),
    },
    response_metadata: turn.response_metadata,
    ...(turn.usage_metadata ? { usage_metadata: turn.usage_metadata } : {}),
  });
  const result = ToolMessage.isInstance(output)
    ? output
    : new ToolMessage({
        content: typeof output === 'string' ? output : JSON.stringify(output),
        tool_call_id: toolCallId,
        name: toolName,
      });
  return new Command({ update: { [key]: [edited, result] } });
}

/** The tool message a `Command` written by {@link withEditedTurn} carries for `toolCallId`. */
export function toolMessageOf(output: unknown, toolCallId: string): ToolMessage | undefined {
  if (ToolMessage.isInstance(output)) return output;
  if (!isCommand(output)) return undefined;
  const update = output.update as Record<string, unknown> | undefined;
  for (const value of Object.values(update ?? {})) {
    if (!Array.isArray(value)) continue;
    const found = value.find(
      (message): message is ToolMessage =>
        ToolMessage.isInstance(message) && message.tool_call_id === toolCallId,
    );
    if (found) return found;
  }
  return undefined;
}
