/**
 * The engine's model port over the AI SDK: one `generateText` (or `streamText`) step with the
 * agent's own model, settings, provider options and tool schemas. Tools go to the SDK without
 * `execute` and without approval rules, so the SDK only asks the model; the engine runs them.
 */
import type { ModelPort, ModelResponse, ModelStreamEvent } from '@agent-continuations/core';
import { generateText, streamText } from 'ai';
import { type AnySettings, STEP_CALLBACK } from './compat';
import type { StepPart, StepParts } from './model-response';
import { type Current, type PortCalls, portCalls } from './port-calls';
import { promptMessages } from './prompt';
import { openSegment } from './segment';
import { streamEvent } from './stream-event';

/**
 * The engine's model port for an agent's settings: a call per step, or, where every setting
 * allows it, one call kept open across each segment's steps.
 */
export function createModelPort(settings: AnySettings): ModelPort {
  const calls = portCalls(settings);
  const { tools } = calls;
  const port: ModelPort = {
    async generate(request) {
      return generate(calls, { request, history: await promptMessages(request.messages, tools) });
    },
    async *stream(request) {
      yield* stream(calls, { request, history: await promptMessages(request.messages, tools) });
    },
  };
  if (!calls.segments) return port;
  return { ...port, openSegment: () => openSegment(calls) };
}

/** One step in a call of its own. */
async function generate(calls: PortCalls, current: Current): Promise<ModelResponse> {
  const result = await generateText(
    calls.callArgs(() => current) as unknown as Parameters<typeof generateText>[0],
  );
  return calls.responseOf({
    response: result.response,
    usage: result.usage,
    finishReason: result.finishReason,
    rawFinishReason: result.rawFinishReason,
    content: result.content as readonly StepPart[],
  });
}

/** One streamed step in a call of its own. */
async function* stream(calls: PortCalls, current: Current): AsyncIterable<ModelStreamEvent> {
  let failure: { error: unknown } | undefined;
  // The step as the SDK hands it to the step callback. Reading the result's promises instead
  // (`response`, `usage`, ...) would split the stream once more for each of them.
  let finished: StepParts | undefined;
  const result = streamText({
    ...(calls.callArgs(() => current) as unknown as Parameters<typeof streamText>[0]),
    onError: async (event: { error: unknown }) => {
      failure ??= { error: event.error };
      await calls.userOnError?.(event);
    },
    [STEP_CALLBACK]: async (step: StepParts) => {
      finished = step;
      await calls.userStepCallback?.(step);
    },
  });
  for await (const part of result.fullStream) {
    const event = streamEvent(part);
    if (event) yield event;
    else if (part.type === 'error') failure ??= { error: part.error };
  }
  if (failure) throw failure.error;
  const step = finished ?? {
    response: await result.response,
    usage: await result.usage,
    finishReason: await result.finishReason,
    rawFinishReason: await result.rawFinishReason,
  };
  yield { type: 'finish', response: calls.responseOf(step) };
}
