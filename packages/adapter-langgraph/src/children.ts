/**
 * The suspended sub-agents of one resume, each with the decisions meant for it. LangGraph re-runs
 * an interrupted task whenever any interrupt of the run is answered, so a sub-agent tool can be
 * called several times in one resume: its decisions are handed out once, and later calls see the
 * sub-agent's newest continuation with no decisions (they wait again without running it).
 *
 * Framework-neutral: a candidate for the core's child-resume helper (issue 10).
 */
import type { Continuation, Decisions } from '@agent-continuations/core';

/** One suspended sub-agent: its continuation, and the decisions not yet applied to it. */
export interface ChildSlot {
  continuation: Continuation;
  decisions?: Decisions;
}

/** Tool-call id -> the suspended sub-agent of that call. */
export type Children = Record<string, ChildSlot>;

/**
 * The sub-agent waiting on `toolCallId`, if any. Its decisions are returned once: the slot keeps
 * only the continuation afterwards, until {@link recordChild} stores a newer one.
 */
export function takeChild(children: Children, toolCallId: string): ChildSlot | undefined {
  if (!Object.hasOwn(children, toolCallId)) return undefined;
  const slot = children[toolCallId]!;
  if (slot.decisions) children[toolCallId] = { continuation: slot.continuation };
  return slot;
}

/** The sub-agent on `toolCallId` suspended again: later calls in this resume wait on this continuation. */
export function recordChild(children: Children, toolCallId: string, continuation: Continuation): void {
  children[toolCallId] = { continuation };
}
