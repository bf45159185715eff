/**
 * A recording AI SDK language model for the drop-in tests: the SDK's own `MockLanguageModelV3`,
 * answering from a reply function and keeping every call's options (prompt, tools, response
 * format), so that a native run and a wrapped run of the same agent can be compared call by call.
 */
import { MockLanguageModelV3 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/** One model answer: text, tool calls, or both. */
export interface Reply {
  text?: string;
  toolCalls?: Array<{ name: string; args: unknown }>;
}

/** The model's answer to its `index`-th call (0-based). */
export type Replies = (index: number, call: CallOptions) => Reply;

/** The mock model, with every call it received. */
export interface RecordingModel extends MockLanguageModelV3 {
  readonly calls: CallOptions[];
}

/**
 * A recording model. Tool-call ids are `call_<index>_<n>`; every call reports 10 input and 5
 * output tokens. Streaming sends text word by word and tool inputs as start/delta/end parts.
 *
 * @example
 * ```ts
 * const model = recordingModel((i) => (i < 2 ? { toolCalls: [{ name: 'lookup', args: { q: 'x' } }] } : { text: 'Done.' }));
 * ```
 */
export function recordingModel(replies: Replies): RecordingModel {
  const calls: CallOptions[] = [];
  const answer = (call: CallOptions) => {
    const index = calls.length;
    calls.push(call);
    return { index, reply: replies(index, call) };
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (call) => {
      const { index, reply } = answer(call);
      const content: GenerateResult['content'] = [];
      if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
      reply.toolCalls?.forEach((toolCall, n) => {
        content.push({
          type: 'tool-call',
          toolCallId: `call_${index}_${n}`,
          toolName: toolCall.name,
          input: JSON.stringify(toolCall.args),
        });
      });
      return {
        content,
        finishReason: finishReason(reply),
        usage: usage(),
        warnings: [],
      } as GenerateResult;
    },
    doStream: async (call) => {
      const { index, reply } = answer(call);
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (reply.text !== undefined) {
        parts.push({ type: 'text-start', id: 't' });
        for (const word of reply.text.match(/\S+\s*/g) ?? [])
          parts.push({ type: 'text-delta', id: 't', delta: word });
        parts.push({ type: 'text-end', id: 't' });
      }
      reply.toolCalls?.forEach((toolCall, n) => {
        const id = `call_${index}_${n}`;
        const input = JSON.stringify(toolCall.args);
        parts.push({ type: 'tool-input-start', id, toolName: toolCall.name });
        parts.push({ type: 'tool-input-delta', id, delta: input.slice(0, 5) });
        parts.push({ type: 'tool-input-delta', id, delta: input.slice(5) });
        parts.push({ type: 'tool-input-end', id });
        parts.push({ type: 'tool-call', toolCallId: id, toolName: toolCall.name, input });
      });
      parts.push({ type: 'finish', finishReason: finishReason(reply), usage: usage() } as StreamPart);
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}

/** The tool results of a call's prompt, as the provider received them. */
export function promptToolResults(call: CallOptions): Array<{ toolName: string; output: unknown }> {
  return call.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [{ toolName: part.toolName, output: part.output }] : [],
        )
      : [],
  );
}

/** A call's system prompt, as the provider received it. */
export function systemPrompt(call: CallOptions): string | undefined {
  const system = call.prompt.filter((message) => message.role === 'system');
  return system.length > 0 ? system.map((message) => message.content).join('\n') : undefined;
}

function finishReason(reply: Reply): GenerateResult['finishReason'] {
  const unified = (reply.toolCalls?.length ?? 0) > 0 ? 'tool-calls' : 'stop';
  return { unified, raw: unified } as GenerateResult['finishReason'];
}

function usage(): GenerateResult['usage'] {
  return {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  } as GenerateResult['usage'];
}
