/**
 * Which continuation objects came from inside this process (a parent's own tree, a store's or a
 * checkpoint log's own records) rather than from outside. An agent configured with a seal
 * verifies every continuation it resumes except these: an object is marked only by code that
 * already trusts it, and a mark cannot travel through JSON.
 */
import type { Continuation } from '../format/format';

const trusted = new WeakSet<object>();

/**
 * Mark `continuation` as the process's own record, so a sealed agent resumes it without a seal
 * (for store and checkpoint-log authors: what they read back from their own storage).
 *
 * @example
 * ```ts
 * const continuation = trustContinuation(replayCheckpoints(entries).continuation!);
 * ```
 */
export function trustContinuation(continuation: Continuation): Continuation {
  trusted.add(continuation);
  return continuation;
}

/** Whether `value` is a continuation object marked by {@link trustContinuation}. */
export function isTrusted(value: unknown): boolean {
  return typeof value === 'object' && value !== null && trusted.has(value);
}

const checked = new WeakMap<object, object | undefined>();

/**
 * Mark a continuation object that is already valid (part of a tree this process parsed, or made
 * by the engine itself), so resuming it does not copy and validate it again: a parent resuming
 * its children would otherwise validate each subtree once per level above it. With `decisions`,
 * the mark also says that this resume's checks (the agent can resume it, the decisions fit it)
 * already ran for the whole tree, before anything ran, with these very decisions. Internal.
 */
export function markChecked(continuation: Continuation, decisions?: object): void {
  checked.set(continuation, decisions);
}

/** Whether `value` was marked by {@link markChecked}. */
export function isChecked(value: unknown): value is Continuation {
  return typeof value === 'object' && value !== null && checked.has(value);
}

/**
 * Whether `value` was marked by {@link markChecked} with these very `decisions` (the same object),
 * so that resuming it with them needs no check again.
 */
export function isCheckedWith(value: unknown, decisions: object): boolean {
  return typeof value === 'object' && value !== null && checked.get(value) === decisions;
}
