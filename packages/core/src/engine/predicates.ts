/**
 * Suspension predicates, checked before every model call. They read only what a continuation
 * carries (step, usage) and the current segment (since the run or its last resume began), never
 * closure state, so they behave the same after a resume in another process.
 */
import type { Usage } from '../format/format';
import type { Message } from '../format/messages';

/** What a predicate sees. */
export interface PredicateContext {
  runId: string;
  /** Model calls made over the whole run. */
  step: number;
  /** Token usage over the whole run. */
  usage: Usage;
  messages: readonly Message[];
  /** Since the run, or its last resume, began in this process. */
  segment: { startedAt: number; step: number; usage: Usage };
  now: number;
}

/** A named check; when it returns true the run suspends before its next model call. */
export interface SuspendPredicate {
  name: string;
  check(context: PredicateContext): boolean | Promise<boolean>;
  /**
   * Also checked by the run's sub-agents, at their own step boundaries, as `onAbort` is: a
   * shutdown that lands while a sub-agent runs suspends the sub-agent, and with it the root.
   */
  inherited?: boolean;
}

/** A predicate, or a plain function (named after the function). */
export type SuspendWhen = SuspendPredicate | ((context: PredicateContext) => boolean | Promise<boolean>);

/**
 * Suspend after every `n` model calls since the run or its last resume.
 *
 * @example
 * ```ts
 * createContinuableAgent({ name, model, tools, suspendWhen: [everyTurns(5)] });
 * ```
 */
export function everyTurns(n: number): SuspendPredicate {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('everyTurns(n) needs a whole number n >= 1');
  return { name: `everyTurns(${n})`, check: ({ step, segment }) => step - segment.step >= n };
}

/**
 * Suspend once `ms` milliseconds have passed since the run or its last resume began.
 *
 * @example
 * ```ts
 * suspendWhen: [maxDuration(60_000)]
 * ```
 */
export function maxDuration(ms: number): SuspendPredicate {
  return { name: `maxDuration(${ms})`, check: ({ now, segment }) => now - segment.startedAt >= ms };
}

/**
 * Suspend once `n` tokens have been used since the run or its last resume.
 *
 * @example
 * ```ts
 * suspendWhen: [maxTokens(50_000)]
 * ```
 */
export function maxTokens(n: number): SuspendPredicate {
  return {
    name: `maxTokens(${n})`,
    check: ({ usage, segment }) => usage.totalTokens - segment.usage.totalTokens >= n,
  };
}

/**
 * Suspend when `signal` aborts: graceful shutdown at the next step boundary, also inside a
 * sub-agent that is running when it aborts.
 *
 * @example
 * ```ts
 * const shutdown = new AbortController();
 * process.on('SIGTERM', () => shutdown.abort());
 * createContinuableAgent({ name, model, tools, suspendWhen: [onAbort(shutdown.signal)] });
 * ```
 */
export function onAbort(signal: AbortSignal): SuspendPredicate {
  return { name: 'onAbort', check: () => signal.aborted, inherited: true };
}

/**
 * Normalise a predicate list: plain functions become predicates named after the function.
 *
 * @example
 * ```ts
 * const predicates = toPredicates([everyTurns(5), function overBudget(ctx) { return ctx.usage.totalTokens > 9000; }]);
 * ```
 */
export function toPredicates(
  suspendWhen: SuspendWhen | readonly SuspendWhen[] | undefined,
): SuspendPredicate[] {
  if (!suspendWhen) return [];
  const list = Array.isArray(suspendWhen) ? suspendWhen : [suspendWhen as SuspendWhen];
  return list.map((p) => (typeof p === 'function' ? { name: p.name || 'custom', check: p } : p));
}
