/**
 * The core's model port over `client.responses.create`: one response, one neutral assistant
 * message. Streaming reads the SDK's event stream; the completed response gives the message.
 */
import type {
  AssistantMessage,
  ModelPort,
  ModelRequest,
  ModelStreamEvent,
  Usage,
} from '@agent-continuations/core';
import type OpenAI from 'openai';
import type { ModelSettings, PortOptions } from './chat-model';
import { fromResponsesItems, toResponsesItems } from './responses-items';

/**
 * A model port over the Responses API of the user's own client. The transcript is sent in full
 * on every call (no `previous_response_id`), so a continuation resumes in any process.
 *
 * @example
 * ```ts
 * const model = responsesModel(new OpenAI(), 'gpt-4.1-mini');
 * const agent = createContinuableAgent({ name: 'accounts', model, tools });
 * ```
 */
export function responsesModel(
  client: OpenAI,
  model: string,
  settings: ModelSettings = {},
  options: PortOptions = {},
): ModelPort {
  const body = (request: ModelRequest) => ({
    ...settings,
    model,
    ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
    input: toResponsesItems(request.messages),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            parameters: tool.inputSchema,
            strict: options.strictTools?.has(tool.name) === true,
          })),
        }
      : {}),
  });
  const requestOptions = (request: ModelRequest) => (request.signal ? { signal: request.signal } : {});

  return {
    async generate(request) {
      const response = await client.responses.create(
        { ...body(request), stream: false } as OpenAI.Responses.ResponseCreateParamsNonStreaming,
        requestOptions(request),
      );
      return toModelResponse(response);
    },
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const stream = await client.responses.create(
        { ...body(request), stream: true } as OpenAI.Responses.ResponseCreateParamsStreaming,
        requestOptions(request),
      );
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') yield { type: 'text-delta', delta: event.delta };
        else if (event.type === 'response.reasoning_summary_text.delta')
          yield { type: 'reasoning-delta', delta: event.delta };
        else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
          const response = toModelResponse(event.response);
          for (const part of response.message.content) {
            if (typeof part !== 'string' && part.type === 'tool-call')
              yield { type: 'tool-call', toolCall: part };
          }
          yield { type: 'finish', response };
          return;
        } else if (event.type === 'response.failed') {
          throw new Error(`The response failed: ${event.response.error?.message ?? 'no reason given'}`);
        } else if (event.type === 'error') throw new Error(`The response stream failed: ${event.message}`);
      }
      throw new Error('The response stream ended before the response completed.');
    },
  };
}

function toModelResponse(response: OpenAI.Responses.Response) {
  const messages = fromResponsesItems(response.output);
  const message: AssistantMessage = { role: 'assistant', content: [] };
  for (const each of messages) {
    // One response is one turn: all its items belong to one assistant message.
    if (each.role === 'assistant' && Array.isArray(each.content))
      (message.content as unknown[]).push(...each.content);
  }
  const usage: Partial<Usage> | undefined = response.usage
    ? {
        inputTokens: response.usage.input_tokens,
        outputTokens: response.usage.output_tokens,
        totalTokens: response.usage.total_tokens,
      }
    : undefined;
  const calls = (message.content as { type: string }[]).some((part) => part.type === 'tool-call');
  return {
    message: message as AssistantMessage & { content: Exclude<AssistantMessage['content'], string> },
    ...(usage ? { usage } : {}),
    finishReason:
      response.status === 'incomplete'
        ? (response.incomplete_details?.reason ?? 'incomplete')
        : calls
          ? 'tool-calls'
          : 'stop',
  };
}
