/**
 * The state of an SDK call kept open across a segment's steps, and the hand-over of each step
 * between the SDK's step callback and the engine's next request.
 */
import type { TextStreamPart, ToolSet } from 'ai';
import { STEP_RESPONSE_MESSAGES } from './compat';
import type { StepParts } from './model-response';

/**
 * One SDK call driving the steps of a segment. Its step callback hands each step to the engine;
 * then its stop condition waits for the engine's decision: one more step (the engine's next
 * request) or none (the segment ended).
 */
export interface OpenCall {
  signal: AbortSignal | undefined;
  /** The step the engine waits for; `undefined` when the call ended without making it. */
  next: Deferred<StepParts | undefined>;
  /** The engine's decision on the step last handed over: `true` for one more step, `false` to end. */
  decision: Deferred<boolean> | undefined;
  decided: boolean;
  /** The segment ended: every later decision is `false`. */
  closed: boolean;
  /** The SDK call has returned (or failed): it makes no more steps. */
  done: boolean;
  /** How many response messages earlier steps made (ai@6 repeats them in each step's). */
  seen: number;
  /** A streamed call's parts, read ahead into the core's queue. */
  parts: AsyncIterator<TextStreamPart<ToolSet>> | undefined;
  /** The first error of the current step (`onError` or an `error` part). */
  failure: { error: unknown } | undefined;
}

/** A call kept open, before its first step. */
export function openCall(signal: AbortSignal | undefined): OpenCall {
  return {
    signal,
    next: deferred(),
    decision: undefined,
    decided: false,
    closed: false,
    done: false,
    seen: 0,
    parts: undefined,
    failure: undefined,
  };
}

/** The step callback of a call kept open: hand the step to the engine, then wait for its decision. */
export function handOver(call: OpenCall, step: StepParts): void {
  const all = step.response.messages;
  const own = STEP_RESPONSE_MESSAGES === 'own' ? all : all.slice(call.seen);
  call.seen = all.length;
  call.decision = call.closed ? settled(false) : deferred();
  call.decided = call.closed;
  call.next.resolve({
    response: { messages: own },
    usage: step.usage,
    finishReason: step.finishReason,
    rawFinishReason: step.rawFinishReason,
    ...(step.content ? { content: step.content } : {}),
  });
}

/** Decide for a call that handed its step over: one more step (`true`) or end (`false`). */
export function release(call: OpenCall, more: boolean): void {
  if (!more) call.closed = true;
  if (!call.decision || call.decided) return;
  call.decided = true;
  // The step the engine asks for next; a call that returns before making it leaves it `undefined`.
  if (more) call.next = call.done ? settled(undefined) : deferred();
  call.decision.resolve(more);
}

/** The next part of a streamed call, or `undefined` at its end. */
export async function nextPart(call: OpenCall): Promise<TextStreamPart<ToolSet> | undefined> {
  const next = await call.parts!.next();
  return next.done ? undefined : next.value;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function settled<T>(value: T): Deferred<T> {
  const done = deferred<T>();
  done.resolve(value);
  return done;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Read by the engine's next step, or by nobody when the segment has ended.
  promise.catch(() => {});
  return { promise, resolve, reject };
}
