/**
 * The agent protocol (docs/design.md section 6): what every adapter turns a framework agent into, and
 * the decisions a human sends back.
 */

import type { AllowedDecision, AuditEntry, Continuation, Usage } from '../format/format';
import type { JsonObject, JsonValue } from '../format/json';
import type { Message } from '../format/messages';
import type { DeadlinePolicy } from '../people/deadlines';
import type { SuspendWhen } from './predicates';

/** One level of an action's path: which agent called which tool, by which tool-call id. */
export interface ActionPathSegment {
  agent: string;
  toolName: string;
  toolCallId: string;
}

/**
 * A leaf of the pending tree: something a human acts on. A UI lists actions and sends decisions
 * keyed by `id`; it never walks the tree.
 */
export interface Action {
  /** Stable id: the tool-call ids from the root to this leaf, joined by `/`. */
  id: string;
  kind: 'approval' | 'input';
  /** From the root agent down to the agent that owns the tool. */
  path: ActionPathSegment[];
  /** The agent whose tool waits. */
  agent: string;
  toolName: string;
  toolCallId: string;
  args: JsonValue;
  /** What the human is asked, for `input` actions. */
  request?: JsonValue;
  /** What the agent's own human-in-the-loop policy says about the action, where it has one. */
  description?: string;
  /**
   * The decisions the agent's policy allows (`edit` is an approval with edited `args`); any that
   * fits the kind when absent. A decision outside them is refused before anything runs.
   */
  allowedDecisions?: AllowedDecision[];
  /** When a human must have acted by (ISO date-time), if the action has a deadline. */
  deadline?: string;
  /**
   * The call started and its result was never recorded, and its tool cannot be run twice safely
   * (`idempotent: false`): approve runs it again, `input` gives the result it had (it ran), reject
   * does not run it.
   */
  inDoubt?: true;
}

/** Approve a tool call, optionally with edited arguments (validated against the tool's schema). */
export interface ApproveDecision {
  type: 'approve';
  args?: JsonValue;
  by?: string;
  reason?: string;
}

/** Refuse a tool call (or an input request); the model is told, with the reason. */
export interface RejectDecision {
  type: 'reject';
  reason?: string;
  by?: string;
}

/** Answer a tool's input request. */
export interface InputDecision {
  type: 'input';
  value: JsonValue;
  by?: string;
}

export type Decision = ApproveDecision | RejectDecision | InputDecision;

/** Decisions keyed by action id. Actions left out stay pending. */
export type Decisions = Record<string, Decision>;

/** A run that finished: the model answered without asking for more tools. */
export interface CompletedResult<Output> {
  status: 'completed';
  output: Output;
  messages: Message[];
  runId: string;
  usage: Usage;
  /** Model calls made over the whole run. */
  step: number;
  /** The audit trail: every decision applied over the whole run, oldest first. */
  decisions: AuditEntry[];
}

/** A run that stopped to wait: save `continuation`, show `actions`, resume later. */
export interface SuspendedResult {
  status: 'suspended';
  continuation: Continuation;
  actions: Action[];
}

/** A run that ended because a human rejected a call and the agent is set to stop on rejection. */
export interface RejectedResult {
  status: 'rejected';
  runId: string;
  messages: Message[];
  usage: Usage;
  step: number;
  /** The action that was rejected, and why. */
  rejection: { actionId: string; toolName: string; reason?: string; by?: string };
}

export type RunResult<Output = string> = CompletedResult<Output> | SuspendedResult | RejectedResult;

/** Options of `run` and `resume`. */
export interface RunOptions {
  /** Aborts model calls and tools; pair with the `onAbort` predicate to suspend instead. */
  signal?: AbortSignal;
  /** The user's JSON, carried untouched in every continuation of the run (`run` only). */
  metadata?: JsonObject;
  /** Use this run id instead of a fresh one (`run` only); nested agents get one derived from the parent's. */
  runId?: string;
  /** Observers of the run, e.g. to checkpoint into a store. */
  onEvent?: (event: RunEvent) => void | Promise<void>;
  /**
   * Resume even though the agent's instructions or tools changed since the continuation was made;
   * applies to the sub-agents of the run at every depth too.
   */
  allowChangedAgent?: boolean;
  /**
   * Predicates for this run or resume, checked with the agent's own; those marked `inherited`
   * (such as `onAbort`) reach its sub-agents too. A parent hands its inherited ones on this way.
   */
  suspendWhen?: readonly SuspendWhen[];
  /**
   * Adapter-native data to keep as `state` in every continuation this run or resume emits (its
   * suspension, its checkpoints, a failure's). A resume without it keeps the `state` of the
   * continuation it resumes when that continuation was made by the same framework, else none.
   */
  state?: JsonValue;
  /**
   * Deadlines for the actions this run suspends on, where their tool sets none: milliseconds from
   * the suspension or a `Date`, per action (`undefined` for none). Reaches sub-agents at every depth.
   *
   * @example
   * ```ts
   * await agent.run(input, { deadlines: ({ toolName }) => (toolName === 'refund' ? 4 * 3_600_000 : undefined) });
   * ```
   */
  deadlines?: DeadlinePolicy;
  /**
   * Awaited before each model call and before each tool body starts, in this run and its
   * sub-agents; when it throws, nothing starts and the run fails with its error. The durable and
   * stored resumes set it to check their lease, so a worker that lost its lease starts nothing.
   *
   * @example
   * ```ts
   * const until = Date.now() + 60_000;
   * await agent.resume(continuation, decisions, {
   *   beforeStart: () => {
   *     if (Date.now() > until) throw new Error('Out of time: nothing more starts.');
   *   },
   * });
   * ```
   */
  beforeStart?: (start: RunStart) => void | Promise<void>;
}

/** What a run is about to start: a model call, or a tool's body. See {@link RunOptions.beforeStart}. */
export type RunStart =
  | { type: 'model-call'; runId: string; step: number }
  | { type: 'tool'; runId: string; toolName: string; toolCallId: string };

/**
 * What an observer sees while a run goes. `checkpoint()` builds a continuation of the whole run
 * to resume from that point. Events of sub-agents reach the root's observers too, with `path`
 * (the tool-call ids from the root down to the sub-agent, as in action ids) and `runId` the
 * sub-agent's; their `checkpoint()` is still the whole tree's.
 */
export type RunEvent =
  | {
      type: 'model-call';
      path?: string[];
      runId: string;
      step: number;
      message: Message;
      usage: Usage;
      checkpoint: () => Continuation;
    }
  | {
      type: 'tool-result';
      path?: string[];
      runId: string;
      step: number;
      toolCallId: string;
      toolName: string;
      output: JsonValue;
      isError: boolean;
      /** True when the call did not run because a human rejected it. */
      rejected?: boolean;
      checkpoint: () => Continuation;
    }
  | {
      /**
       * A tool that declared `idempotent: false` is about to start (`beforeStart` comes next,
       * then its body); its `checkpoint()` holds the call as in doubt until its result is
       * recorded. Observers only (`onEvent`), not streamed: a checkpoint log records it before the
       * body runs.
       */
      type: 'tool-start';
      path?: string[];
      runId: string;
      step: number;
      toolCallId: string;
      toolName: string;
      checkpoint: () => Continuation;
    }
  | { type: 'suspend'; path?: undefined; runId: string; continuation: Continuation }
  | {
      type: 'complete';
      path?: undefined;
      runId: string;
      output: unknown;
      messages: Message[];
      usage: Usage;
    };

/**
 * Any agent, from any framework, that can run, suspend and resume.
 *
 * @example
 * ```ts
 * const result = await agent.run('Transfer 50 EUR to Bob');
 * if (result.status === 'suspended') {
 *   const saved = serializeContinuation(result.continuation);
 *   // ...later, in any process:
 *   const next = await agent.resume(saved, { [result.actions[0]!.id]: { type: 'approve', by: 'ann' } });
 * }
 * ```
 */
export interface ContinuableAgent<Input = string | Message[], Output = string> {
  readonly name: string;
  /** The adapter behind it: `core`, `openai`, `vercel-ai`, `langgraph`, ... */
  readonly framework: string;
  readonly description?: string;
  run(input: Input, options?: RunOptions): Promise<RunResult<Output>>;
  resume(
    continuation: Continuation | string,
    decisions?: Decisions,
    options?: RunOptions,
  ): Promise<RunResult<Output>>;
  /**
   * Check decisions against a continuation of this agent without running anything (unknown ids,
   * wrong kinds, edited arguments against tool schemas, answers against response schemas),
   * recursing into children. Throws a `ContinuationError`.
   */
  checkDecisions?(
    continuation: Continuation,
    decisions: Decisions,
    options?: Pick<RunOptions, 'allowChangedAgent'>,
  ): Promise<void>;
  /**
   * The continuation with the format's fields filled from what an earlier release of this
   * agent's adapter kept only in its native `state` (a LangGraph interrupt's description and
   * allowed decisions, say), at every depth the adapter wrote; the same object when there is
   * nothing to fill. The agent applies it itself when it resumes or checks; views (the runtime's
   * `get` and `inbox`, the console) apply it before they list actions.
   *
   * @example
   * ```ts
   * const actions = listActions(agent.upgrade?.(stored.continuation) ?? stored.continuation);
   * ```
   */
  upgrade?(continuation: Continuation): Continuation;
  /**
   * Whether the run `continuation` captures went on without it, outside this library (a LangGraph
   * thread resumed natively with `Command({ resume })`): resuming it is refused, and the runtime's
   * `inbox` and `get` and the console offer none of its actions.
   *
   * @example
   * ```ts
   * if (await agent.movedOn?.(stored.continuation)) await runtime.cancel(stored.id, { reason: 'resumed natively' });
   * ```
   */
  movedOn?(continuation: Continuation): Promise<boolean>;
}
