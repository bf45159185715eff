/**
 * What both wire formats of the scripted OpenAI server share: a neutral reply split into the
 * reasoning, text and tool calls the wire carries.
 */
import type { AssistantMessage, ToolCallPart } from '@agent-continuations/core';

/** Options that shape how replies are written on the wire. */
export interface WireOptions {
  /**
   * The wire text of a tool call's arguments; return a string to send it verbatim (e.g. malformed
   * JSON), or `undefined` for `JSON.stringify(args)`.
   */
  rawArguments?: ((call: ToolCallPart) => string | undefined) | undefined;
}

/** A reply as the wire carries it. */
export interface ReplyParts {
  reasoning: string;
  text: string;
  calls: { id: string; name: string; arguments: string }[];
}

/** Split an assistant message into its reasoning, text and tool calls (arguments as wire text). */
export function replyParts(message: AssistantMessage, options: WireOptions): ReplyParts {
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const result: ReplyParts = { reasoning: '', text: '', calls: [] };
  for (const part of parts) {
    if (part.type === 'reasoning') result.reasoning += part.text;
    else if (part.type === 'text') result.text += part.text;
    else if (part.type === 'tool-call') {
      const raw = options.rawArguments?.(part);
      result.calls.push({
        id: part.toolCallId,
        name: part.toolName,
        arguments: raw ?? JSON.stringify(part.args),
      });
    }
  }
  return result;
}

/** Text in word-sized pieces, as deltas arrive on a stream. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}
