/**
 * The model port: the one thing an adapter implements to let the engine call its framework's
 * model. One call, one assistant message.
 */
import type { Usage } from '../format/format';
import type { AssistantMessage, Message, ToolCallPart } from '../format/messages';
import type { JsonSchema } from './tools';

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

/** One model call. */
export interface ModelRequest {
  /** The agent's instructions (system prompt); not part of the transcript. */
  instructions?: string;
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  /** Model calls made before this one in the run. */
  step: number;
  signal?: AbortSignal;
}

/** What one model call returns. */
export interface ModelResponse {
  message: AssistantMessage;
  usage?: Partial<Usage>;
  finishReason?: string;
  /**
   * Tool calls of `message` whose arguments the port already validated in this call, with the
   * very validator of the engine tool of that name, and what it gave: the engine hands that value
   * to the tool instead of validating the same arguments again. A port sets an entry only when
   * the value it validated is the call's `args` (the same JSON); the engine uses it only for the
   * same part object, in the turn right after this call.
   *
   * @example
   * ```ts
   * const validatedArgs = new Map([[message.content[0], parsedArgs]]);
   * return { message, validatedArgs };
   * ```
   */
  validatedArgs?: ReadonlyMap<ToolCallPart, unknown>;
}

/** Deltas while a model call streams; the last event is always `finish`. */
export type ModelStreamEvent =
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'tool-call'; toolCall: ToolCallPart }
  | { type: 'finish'; response: ModelResponse };

/**
 * Implemented by each adapter over its framework's model.
 *
 * @example
 * ```ts
 * const model: ModelPort = {
 *   async generate({ instructions, messages, tools }) {
 *     const reply = await callMyProvider(instructions, messages, tools);
 *     return { message: { role: 'assistant', content: reply.text }, usage: reply.usage };
 *   },
 * };
 * ```
 */
export interface ModelPort {
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * Optional: the port for one segment of a run, the model calls from a start or a resume to the
   * suspension, completion or failure that ends it, made one after another. The engine closes it
   * when the segment ends, whatever the outcome, so a framework call kept open across the steps
   * (one call driving several model steps) can be finished there.
   *
   * @example
   * ```ts
   * const model: ModelPort = {
   *   generate: (request) => oneCall(request),
   *   openSegment() {
   *     const call = openFrameworkCall();
   *     return { generate: (request) => call.nextStep(request), close: () => call.finish() };
   *   },
   * };
   * ```
   */
  openSegment?(): ModelSegment;
}

/** The model calls of one segment of a run (see {@link ModelPort.openSegment}). */
export interface ModelSegment {
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream?(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /** The segment ended: no more calls come. Must not throw. */
  close(): void;
}
