/**
 * The core's model port over `client.chat.completions.create`: one completion, one neutral
 * assistant message. Streaming reads the SDK's chunk stream and assembles the same message.
 */
import type {
  ModelPort,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ToolCallPart,
  Usage,
} from '@agent-continuations/core';
import type OpenAI from 'openai';
import { fromChatAssistant, toChatMessages } from './chat-messages';

/** Settings passed through to every request (temperature, max tokens, ...), besides what the adapter sets. */
export type ModelSettings = { [key: string]: unknown };

/** How the ports send tools. */
export interface PortOptions {
  /** Names of the tools to send with `strict: true`. */
  strictTools?: ReadonlySet<string>;
}

/**
 * A model port over the Chat Completions API of the user's own client.
 *
 * @example
 * ```ts
 * const model = chatModel(new OpenAI(), 'gpt-4.1-mini', { temperature: 0 });
 * const agent = createContinuableAgent({ name: 'accounts', model, tools });
 * ```
 */
export function chatModel(
  client: OpenAI,
  model: string,
  settings: ModelSettings = {},
  options: PortOptions = {},
): ModelPort {
  const body = (request: ModelRequest) => ({
    ...settings,
    model,
    messages: toChatMessages(request.messages, request.instructions),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description === undefined ? {} : { description: tool.description }),
              parameters: tool.inputSchema,
              ...(options.strictTools?.has(tool.name) ? { strict: true } : {}),
            },
          })),
        }
      : {}),
  });
  const requestOptions = (request: ModelRequest) => (request.signal ? { signal: request.signal } : {});

  return {
    async generate(request) {
      const completion = await client.chat.completions.create(
        { ...body(request), stream: false } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
        requestOptions(request),
      );
      const choice = completion.choices[0];
      if (!choice) throw new Error('The completion has no choices.');
      return {
        message: fromChatAssistant(choice.message),
        ...usageOf(completion.usage),
        ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
      };
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const stream = await client.chat.completions.create(
        {
          ...body(request),
          stream: true,
          stream_options: { include_usage: true },
        } as OpenAI.Chat.ChatCompletionCreateParamsStreaming,
        requestOptions(request),
      );
      let content: string | null = null;
      let refusal: string | null = null;
      let reasoning: string | undefined;
      let finishReason: string | undefined;
      let usage: ModelResponse['usage'];
      const calls: { id: string; name: string; arguments: string }[] = [];
      for await (const chunk of stream) {
        if (chunk.usage) usage = usageOf(chunk.usage).usage;
        const choice = chunk.choices[0];
        if (!choice) continue;
        if (choice.finish_reason) finishReason = choice.finish_reason;
        const delta = choice.delta as typeof choice.delta & { reasoning_content?: string | null };
        if (delta.reasoning_content) {
          reasoning = (reasoning ?? '') + delta.reasoning_content;
          yield { type: 'reasoning-delta', delta: delta.reasoning_content };
        }
        if (delta.content) {
          content = (content ?? '') + delta.content;
          yield { type: 'text-delta', delta: delta.content };
        }
        if (delta.refusal) refusal = (refusal ?? '') + delta.refusal;
        for (const call of delta.tool_calls ?? []) {
          calls[call.index] ??= { id: '', name: '', arguments: '' };
          const slot = calls[call.index]!;
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name += call.function.name;
          if (call.function?.arguments) slot.arguments += call.function.arguments;
        }
      }
      const message = fromChatAssistant({
        role: 'assistant',
        content,
        refusal,
        ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      } as OpenAI.Chat.ChatCompletionMessage);
      for (const part of message.content as ToolCallPart[])
        if (part.type === 'tool-call') yield { type: 'tool-call', toolCall: part };
      yield {
        type: 'finish',
        response: { message, ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) },
      };
    },
  };
}

function usageOf(usage: OpenAI.Completions.CompletionUsage | undefined | null): { usage?: Partial<Usage> } {
  if (!usage) return {};
  return {
    usage: {
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      totalTokens: usage.total_tokens,
    },
  };
}
