/**
 * The streams of an SDK-shaped streamed run: the SDK's stream parts (`fullStream`, ai@7's
 * `stream`) made from the core's run events, as `AsyncIterableStream`s, over a replay of the run's
 * events that any number of readers can each read in full.
 */
import {
  type Action,
  type AgentStreamEvent,
  type Continuation,
  ContinuationError,
} from '@agent-continuations/core';
import { continuationStreamPart } from './compat';
import { callArgs, chatActions, NestedOutputs, uiToolCallId } from './nested-output';
import type { ContinuationData } from './ui-stream';

/** A stream a continuable run does not offer, failing with a typed error when read. */
export function unsupportedStream(name: string): ReadableStream<never> & AsyncIterable<never> {
  const failing: AsyncIterable<never> = {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        Promise.reject(
          new ContinuationError(
            'INVALID_OPERATION',
            `A continuable run has no ${name}: read \`output\` (the parsed result) when the run completes.`,
          ),
        ),
    }),
  };
  return iterableStream(failing);
}

/** The SDK's stream parts for a run's events. */
export async function* streamParts<Output>(
  events: AsyncIterable<AgentStreamEvent<Output>>,
): AsyncIterable<Record<string, unknown>> {
  let open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  let inStep = false;
  // A model call ended; its step stays open for its tool results, as in the SDK's stream.
  let stepEnded = false;
  let parts = 0;
  const inputs = new Map<string, unknown>();
  const names = new Map<string, string>();
  // Sub-agents' messages, as preliminary results of the top-level calls that ran them.
  const nested = new NestedOutputs();
  const pending: Record<string, unknown>[] = [];
  const finishStep = () => {
    if (inStep) pending.push({ type: 'finish-step', response: {}, usage: {}, finishReason: 'unknown' });
    inStep = false;
    stepEnded = false;
  };
  const startStep = () => {
    if (stepEnded) finishStep();
    if (!inStep) pending.push({ type: 'start-step', request: {}, warnings: [] });
    inStep = true;
  };
  const inCurrentStep = () => {
    if (!inStep) startStep();
  };
  const close = () => {
    if (open) pending.push({ type: `${open.kind}-end`, id: open.id });
    open = undefined;
  };
  yield { type: 'start' };
  for await (const each of events) {
    const event = each as
      | AgentStreamEvent<Output>
      | { type: 'tool-input-start' | 'tool-input-delta'; [key: string]: unknown };
    const path = (event as { path?: string[] }).path;
    if (path) {
      const update = nested.apply(event as AgentStreamEvent<unknown>, path);
      const toolName = update && names.get(update.toolCallId);
      if (update && toolName) {
        inCurrentStep();
        close();
        const input = inputs.get(update.toolCallId);
        pending.push({ type: 'tool-result', ...update, toolName, input, preliminary: true });
      }
      while (pending.length > 0) yield pending.shift()!;
      continue;
    }
    switch (event.type) {
      case 'text-delta':
      case 'reasoning-delta': {
        startStep();
        const kind = event.type === 'text-delta' ? 'text' : 'reasoning';
        if (open?.kind !== kind) {
          close();
          open = { kind, id: `${kind}-${parts++}` };
          pending.push({ type: `${kind}-start`, id: open.id });
        }
        pending.push({ type: `${kind}-delta`, id: open.id, text: event.delta });
        break;
      }
      case 'tool-input-start':
        startStep();
        close();
        pending.push({ type: 'tool-input-start', id: event.toolCallId, toolName: event.toolName });
        break;
      case 'tool-input-delta':
        pending.push({ type: 'tool-input-delta', id: event.toolCallId, delta: event.delta });
        break;
      case 'tool-call':
        startStep();
        close();
        inputs.set(event.toolCall.toolCallId, event.toolCall.args);
        names.set(event.toolCall.toolCallId, event.toolCall.toolName);
        pending.push({
          type: 'tool-call',
          toolCallId: event.toolCall.toolCallId,
          toolName: event.toolCall.toolName,
          input: event.toolCall.args,
        });
        break;
      case 'tool-result': {
        inCurrentStep();
        const base = {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: inputs.get(event.toolCallId),
        };
        pending.push(
          event.rejected
            ? { type: 'tool-output-denied', toolCallId: event.toolCallId, toolName: event.toolName }
            : event.isError
              ? { type: 'tool-error', ...base, error: event.output }
              : { type: 'tool-result', ...base, output: event.output },
        );
        break;
      }
      case 'step':
        close();
        stepEnded = inStep;
        break;
      case 'result':
        close();
        if (event.result.status === 'suspended') {
          inCurrentStep();
          pending.push(...approvalParts(event.result.continuation, event.result.actions, nested));
          const { continuation, actions } = event.result;
          const part = continuationStreamPart({
            id: continuation.id,
            runId: continuation.runId,
            actions,
          } satisfies ContinuationData);
          if (part) pending.push(part);
        }
        finishStep();
        pending.push({
          type: 'finish',
          finishReason: event.result.status === 'completed' ? 'stop' : 'other',
          totalUsage:
            event.result.status === 'suspended' ? event.result.continuation.usage : event.result.usage,
        });
        break;
    }
    while (pending.length > 0) yield pending.shift()!;
  }
}

/**
 * A suspended run's approvals as the SDK's `tool-approval-request` parts. A sub-agent's action is
 * asked on the top-level call that ran the sub-agent (as in the UI stream): that call again, now
 * waiting, then the request.
 */
function approvalParts(
  continuation: Continuation,
  actions: readonly Action[],
  nested: NestedOutputs,
): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  for (const action of chatActions(actions)) {
    const toolCallId = uiToolCallId(action);
    const outer = action.path.length > 1;
    if (outer) nested.pending(action);
    const toolCall = {
      type: 'tool-call',
      toolCallId,
      toolName: outer ? action.path[0]!.toolName : action.toolName,
      input: outer ? callArgs(continuation, toolCallId) : action.args,
    };
    if (outer) parts.push(toolCall);
    if (action.kind === 'approval')
      parts.push({ type: 'tool-approval-request', approvalId: action.id, toolCall });
  }
  return parts;
}

/** An async iterable as the SDK's `AsyncIterableStream` (a `ReadableStream` one can also iterate). */
export function iterableStream<T>(source: AsyncIterable<T>): ReadableStream<T> & AsyncIterable<T> {
  const iterator = source[Symbol.asyncIterator]();
  const stream = new ReadableStream<T>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return Object.assign(stream, {
    async *[Symbol.asyncIterator]() {
      const reader = stream.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  });
}

/** Records a stream's events as they come, so that any number of readers can each read all of them. */
export class Replay<T> {
  private readonly events: T[] = [];
  private failure: { error: unknown } | undefined;
  private finished = false;
  private waiters: Array<() => void> = [];
  readonly done: Promise<void>;

  constructor(source: AsyncIterable<T>) {
    this.done = (async () => {
      try {
        for await (const event of source) {
          this.events.push(event);
          this.wake();
        }
      } catch (error) {
        this.failure = { error };
      } finally {
        this.finished = true;
        this.wake();
      }
    })();
  }

  async *iterator(): AsyncGenerator<T> {
    let index = 0;
    for (;;) {
      while (index < this.events.length) yield this.events[index++]!;
      if (this.finished) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
