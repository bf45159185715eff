/**
 * The suspended sub-agents of one resume, each with the decisions meant for it. LangGraph re-runs
 * an interrupted task whenever any interrupt of the run is answered, so a sub-agent tool can be
 * called several times in one resume: the core's `decisionsByCall` hands its decisions out once,
 * and later calls see the sub-agent's newest continuation (recorded here) with no decisions, so
 * they wait again without running it.
 */
import type { Continuation, Decisions } from '@agent-continuations/core';
import { type DecisionsByCall, decisionsByCall } from '@agent-continuations/core/adapter-kit';

/** One suspended sub-agent: its continuation, and the decisions not yet applied to it. */
export interface ChildSlot {
  continuation: Continuation;
  decisions?: Decisions;
}

/** The suspended sub-agents of one resume. */
export interface Children {
  /** Tool-call id -> the newest continuation of the sub-agent of that call. */
  readonly waiting: Map<string, Continuation>;
  /** The decisions for the sub-agents, by tool call, each group handed out once. */
  readonly decisions: DecisionsByCall;
}

/** The sub-agents waiting in `waiting`, with `decisions` (relative to this level) for them. */
export function childrenOf(
  waiting: Map<string, Continuation> = new Map(),
  decisions: Decisions = {},
): Children {
  return { waiting, decisions: decisionsByCall(decisions) };
}

/**
 * The sub-agent waiting on `toolCallId`, if any. Its decisions are returned once; later calls get
 * its newest continuation only, until {@link recordChild} stores a newer one.
 */
export function takeChild(children: Children, toolCallId: string): ChildSlot | undefined {
  const continuation = children.waiting.get(toolCallId);
  if (!continuation) return undefined;
  const decisions = children.decisions.takeChild(toolCallId);
  return decisions ? { continuation, decisions } : { continuation };
}

/** The sub-agent on `toolCallId` suspended again: later calls in this resume wait on this continuation. */
export function recordChild(children: Children, toolCallId: string, continuation: Continuation): void {
  children.waiting.set(toolCallId, continuation);
}
