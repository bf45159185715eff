/**
 * A deterministic scripted model for the core's model port. It decides only from the messages it
 * receives, so a fresh process resuming a continuation makes the same choices.
 */
import type {
  AssistantMessage,
  JsonValue,
  Message,
  ModelPort,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolResultPart,
  Usage,
} from '@agent-continuations/core';

/** One scripted tool call; `id` defaults to `call_<turn>_<index>`. */
export interface ScriptedToolCall {
  name: string;
  args: JsonValue;
  id?: string;
}

/** What the model says in one turn: text, tool calls, or both. */
export type ScriptedReply =
  | string
  | { text?: string; reasoning?: string; toolCalls?: ScriptedToolCall[]; usage?: Partial<Usage> };

/** A turn: a fixed reply, or a function of the request. */
export type ScriptedTurn = ScriptedReply | ((request: ModelRequest) => ScriptedReply);

/** A script: a list of turns picked by how many assistant messages the transcript holds, or one function. */
export type Script = readonly ScriptedTurn[] | ((request: ModelRequest) => ScriptedReply);

/** Tokens each scripted call reports: 10 in, 5 out. */
export const SCRIPTED_USAGE: Usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/**
 * Build a scripted model.
 *
 * @example
 * ```ts
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
 *   (request) => `Done: ${JSON.stringify(lastToolResults(request.messages)[0]?.output)}`,
 * ]);
 * ```
 */
export function scriptedModel(script: Script): ModelPort & { calls: ModelRequest[] } {
  const calls: ModelRequest[] = [];
  const reply = (request: ModelRequest): ModelResponse => {
    calls.push({ ...request, messages: [...request.messages] });
    const turn = typeof script === 'function' ? script : pickTurn(script, request);
    const value = typeof turn === 'function' ? turn(request) : turn;
    return toResponse(value, turnIndex(request.messages));
  };
  return {
    calls,
    async generate(request) {
      return reply(request);
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const response = reply(request);
      const content = response.message.content;
      for (const part of typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content) {
        if (part.type === 'text') {
          for (const word of part.text.match(/\S+\s*/g) ?? []) yield { type: 'text-delta', delta: word };
        } else if (part.type === 'reasoning') yield { type: 'reasoning-delta', delta: part.text };
        else if (part.type === 'tool-call') yield { type: 'tool-call', toolCall: part };
      }
      yield { type: 'finish', response };
    },
  };
}

/** How many assistant messages the transcript holds: the turn the model is asked for, from 0. */
export function turnIndex(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === 'assistant').length;
}

function pickTurn(turns: readonly ScriptedTurn[], request: ModelRequest): ScriptedTurn {
  const index = turnIndex(request.messages);
  const turn = turns[index];
  if (turn === undefined) {
    throw new Error(`The script has ${turns.length} turns; the model was asked for turn ${index + 1}.`);
  }
  return turn;
}

/**
 * Turn a scripted reply into an assistant message. Tool-call ids are `call_<turn + 1>_<index>`,
 * computed from the transcript alone so every adapter and process makes the same ones.
 */
export function toResponse(reply: ScriptedReply, turn: number): ModelResponse {
  const value = typeof reply === 'string' ? { text: reply } : reply;
  const content: Exclude<AssistantMessage['content'], string> = [];
  if (value.reasoning) content.push({ type: 'reasoning', text: value.reasoning });
  if (value.text) content.push({ type: 'text', text: value.text });
  (value.toolCalls ?? []).forEach((call, index) => {
    content.push({
      type: 'tool-call',
      toolCallId: call.id ?? `call_${turn + 1}_${index}`,
      toolName: call.name,
      args: call.args,
    });
  });
  return {
    message: { role: 'assistant', content },
    usage: { ...SCRIPTED_USAGE, ...value.usage },
    finishReason: value.toolCalls?.length ? 'tool-calls' : 'stop',
  };
}

/** The tool results of the last tool message, if the transcript ends with one. */
export function lastToolResults(messages: readonly Message[]): ToolResultPart[] {
  const last = messages[messages.length - 1];
  return last?.role === 'tool' ? last.content : [];
}

/** The text of the first user message. */
export function firstUserText(messages: readonly Message[]): string {
  const first = messages.find((message) => message.role === 'user');
  if (!first) return '';
  return typeof first.content === 'string'
    ? first.content
    : first.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
