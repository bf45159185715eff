/**
 * The port for one segment of a run: one SDK call kept open makes the segment's steps while the
 * engine asks for one more each time, and a new call takes over when one ends before a step.
 */
import type { ModelRequest, ModelSegment } from '@agent-continuations/core';
import { queuedRun } from '@agent-continuations/core/adapter-kit';
import { generateText, streamText, type TextStreamPart, type ToolSet } from 'ai';
import { STEP_CALLBACK } from './compat';
import type { StepParts } from './model-response';
import { handOver, nextPart, type OpenCall, openCall, release } from './open-call';
import type { Current, PortCalls } from './port-calls';
import { promptMessages } from './prompt';
import { streamEvent } from './stream-event';

/** A segment of calls kept open across steps. */
export function openSegment(calls: PortCalls): ModelSegment {
  const { tools, responseOf } = calls;
  let current: Current | undefined;
  let open: OpenCall | undefined;
  const at = () => current!;
  /** The open call can make the next step of this request. */
  const goesOn = (request: ModelRequest) =>
    open?.decision !== undefined &&
    !open.decided &&
    !open.done &&
    open.signal === request.signal &&
    !request.signal?.aborted;
  const end = () => {
    if (open) release(open, false);
    open = undefined;
  };
  return {
    async generate(request) {
      const next = { request, history: await promptMessages(request.messages, tools) };
      if (open && goesOn(request)) {
        current = next;
        const call = open;
        release(call, true);
        const step = await call.next.promise;
        if (step) return responseOf(step);
      }
      // The call ended without this step (it stops on its own after a step it cannot go on
      // from): a new call makes it.
      end();
      current = next;
      const call = startGenerate(calls, at);
      open = call;
      const step = await call.next.promise;
      if (!step) throw new Error('The AI SDK call ended without a step.');
      return responseOf(step);
    },
    async *stream(request) {
      const next = { request, history: await promptMessages(request.messages, tools) };
      let call: OpenCall;
      let fresh = false;
      if (open && goesOn(request)) {
        call = open;
        current = next;
        call.failure = undefined;
        release(call, true);
      } else {
        end();
        current = next;
        call = startStream(calls, at);
        open = call;
        fresh = true;
      }
      let yielded = false;
      let done = false;
      try {
        for (;;) {
          const part = await nextPart(call);
          if (part === undefined || part.type === 'finish-step') break;
          const event = streamEvent(part);
          if (event) {
            yielded = true;
            yield event;
          } else if (part.type === 'error') call.failure ??= { error: part.error };
        }
        if (call.failure) throw call.failure.error;
        const step = await call.next.promise;
        if (step) {
          done = true;
          yield { type: 'finish', response: responseOf(step) };
          return;
        }
        if (fresh || yielded) throw new Error('The AI SDK stream ended before its step finished.');
        // The call ended without this step: a new call makes it.
        open = undefined;
        done = true;
        yield* this.stream!(request);
      } finally {
        // Left before the step's end (a failure, or the reader stopped): this call makes no more steps.
        if (!done && open === call) end();
      }
    },
    close: end,
  };
}

/** A call kept open: the step callback hands each step over, then waits for the next request. */
function startGenerate(calls: PortCalls, at: () => Current): OpenCall {
  const call = openCall(at().request.signal);
  generateText({
    ...calls.callArgs(at, call),
    [STEP_CALLBACK]: (step: StepParts) => handOver(call, step),
  } as unknown as Parameters<typeof generateText>[0]).then(
    () => {
      call.done = true;
      call.next.resolve(undefined);
    },
    (error: unknown) => {
      call.done = true;
      call.next.reject(error);
    },
  );
  return call;
}

/** A streamed call kept open, its parts read ahead. */
function startStream(calls: PortCalls, at: () => Current): OpenCall {
  const call = openCall(at().request.signal);
  const result = streamText({
    ...calls.callArgs(at, call),
    onError: async (event: { error: unknown }) => {
      call.failure ??= { error: event.error };
      await calls.userOnError?.(event);
    },
    [STEP_CALLBACK]: (step: StepParts) => handOver(call, step),
  } as unknown as Parameters<typeof streamText>[0]);
  // Read ahead, so that the call ends on its own once the segment no longer reads it.
  call.parts = queuedRun<TextStreamPart<ToolSet>, void>(async (push) => {
    try {
      for await (const part of result.fullStream) push(part);
    } finally {
      call.done = true;
      call.next.resolve(undefined);
    }
  })[Symbol.asyncIterator]();
  return call;
}
