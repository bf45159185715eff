/**
 * The AI SDK's own mock language model (`MockLanguageModelV3` from `ai/test`), driven by a neutral
 * script of `@agent-continuations/testing`: the script sees the provider-level prompt as neutral
 * messages, and its replies come back as provider content or stream parts.
 */
import type { JsonValue, Message, ModelRequest, ToolSpec } from '@agent-continuations/core';
import { type Script, scriptedModel, turnIndex } from '@agent-continuations/testing';
import { MockLanguageModelV3 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

/** A mock language model that follows a script, and what it was asked. */
export interface ScriptedLanguageModel extends MockLanguageModelV3 {
  /** Every call, as the neutral request the script saw. */
  readonly requests: ModelRequest[];
}

/**
 * Build the SDK's mock language model from a neutral script (tool-call ids `call_<turn>_<index>`).
 *
 * @example
 * ```ts
 * const model = scriptedLanguageModel([
 *   { toolCalls: [{ name: 'transfer', args: { to: 'bob', amount: 50 } }] },
 *   'Done.',
 * ]);
 * const agent = continuable(new ToolLoopAgent({ model, tools }), { name: 'bank' });
 * ```
 */
export function scriptedLanguageModel(
  script: Script,
  options: { modelId?: string } = {},
): ScriptedLanguageModel {
  const scripted = scriptedModel(script);
  const requests: ModelRequest[] = [];
  const reply = async (call: CallOptions) => {
    const request = toRequest(call);
    requests.push(request);
    return scripted.generate(request);
  };
  const model = new MockLanguageModelV3({
    modelId: options.modelId ?? 'scripted',
    doGenerate: async (call) => {
      const response = await reply(call);
      const content = contentOf(response.message);
      return {
        content,
        finishReason: finishReason(content.some((part) => part.type === 'tool-call')),
        usage: usageOf(response.usage),
        warnings: [],
      } as GenerateResult;
    },
    doStream: async (call) => {
      const response = await reply(call);
      const content = contentOf(response.message);
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      content.forEach((part, index) => {
        const id = String(index);
        if (part.type === 'text' || part.type === 'reasoning') {
          parts.push({ type: `${part.type}-start`, id } as StreamPart);
          for (const word of part.text.match(/\S+\s*/g) ?? [])
            parts.push({ type: `${part.type}-delta`, id, delta: word } as StreamPart);
          parts.push({ type: `${part.type}-end`, id } as StreamPart);
        } else parts.push(part as StreamPart);
      });
      parts.push({
        type: 'finish',
        finishReason: finishReason(content.some((part) => part.type === 'tool-call')),
        usage: usageOf(response.usage),
      } as StreamPart);
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
  return Object.assign(model, { requests });
}

/** The neutral request a script sees for a provider-level call. */
function toRequest(call: CallOptions): ModelRequest {
  const system = call.prompt.filter((message) => message.role === 'system').map((message) => message.content);
  const messages: Message[] = [];
  for (const message of call.prompt) {
    if (message.role === 'user') {
      messages.push({
        role: 'user',
        content: message.content.map((part) =>
          part.type === 'text'
            ? { type: 'text' as const, text: part.text }
            : {
                type: 'file' as const,
                data: typeof part.data === 'string' ? part.data : '',
                mediaType: part.mediaType,
              },
        ),
      });
    } else if (message.role === 'assistant') {
      const content: Exclude<Extract<Message, { role: 'assistant' }>['content'], string> = [];
      for (const part of message.content) {
        if (part.type === 'text' || part.type === 'reasoning')
          content.push({ type: part.type, text: part.text });
        else if (part.type === 'tool-call') {
          content.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            args: part.input as JsonValue,
          });
        }
      }
      messages.push({ role: 'assistant', content });
    } else if (message.role === 'tool') {
      const content = message.content.flatMap((part) => {
        if (part.type !== 'tool-result') return [];
        const output = part.output as { type: string; value?: JsonValue; reason?: string };
        const isError = output.type.startsWith('error') || output.type === 'execution-denied';
        return [
          {
            type: 'tool-result' as const,
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: output.value ?? output.reason ?? null,
            ...(isError ? { isError: true } : {}),
          },
        ];
      });
      messages.push({ role: 'tool', content });
    }
  }
  const tools: ToolSpec[] = (call.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [
          {
            name: tool.name,
            ...(tool.description ? { description: tool.description } : {}),
            inputSchema: tool.inputSchema as never,
          },
        ]
      : [],
  );
  return {
    ...(system.length > 0 ? { instructions: system.join('\n') } : {}),
    messages,
    tools,
    step: turnIndex(messages),
    ...(call.abortSignal ? { signal: call.abortSignal } : {}),
  };
}

function contentOf(message: Message): GenerateResult['content'] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.flatMap((part): GenerateResult['content'] => {
    if (part.type === 'text' || part.type === 'reasoning') return [{ type: part.type, text: part.text }];
    if (part.type === 'tool-call') {
      return [
        {
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: JSON.stringify(part.args),
        },
      ];
    }
    return [];
  });
}

function finishReason(toolCalls: boolean): GenerateResult['finishReason'] {
  const unified = toolCalls ? 'tool-calls' : 'stop';
  return { unified, raw: unified } as GenerateResult['finishReason'];
}

function usageOf(
  usage: { inputTokens?: number; outputTokens?: number } | undefined,
): GenerateResult['usage'] {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  } as GenerateResult['usage'];
}
