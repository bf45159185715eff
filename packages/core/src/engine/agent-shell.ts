/**
 * The agent shell: every rule of docs/design.md section 4 that does not depend on a framework, written
 * once for the engine and every adapter. An adapter brings how to drive its framework for one
 * segment and how to map its messages and tools; the shell owns the step limit, the fingerprint
 * and drift check, the resume preamble (decisions' shape, seal, drift, decision checks, the state
 * to drive), `onReject: 'end'`, sealing what a run emits, and the dispatch of a streamed run.
 */

import { ContinuationError, isContinuationError } from '../errors';
import { openContinuation, parseContinuation } from '../format/codec';
import { type AgentRef, type Continuation, emptyUsage, type PendingEntry } from '../format/format';
import { inputMessages, type Message } from '../format/messages';
import { type SealConfig, sealContinuation } from '../trust/seal';
import { isChecked, isCheckedWith, isTrusted } from '../trust/trust';
import { listActions, splitActionId } from './actions';
import { type DecisionsByCall, decisionsByCall } from './children';
import { auditEntries, checkDecisions, checkDecisionsShape } from './decisions';
import { fingerprintAgent } from './fingerprint';
import type { ToolSpec } from './model';
import { type PredicateContext, type SuspendPredicate, type SuspendWhen, toPredicates } from './predicates';
import type { Decisions, RejectedResult, RunEvent, RunOptions, SuspendedResult } from './protocol';
import { checkResumable } from './resumable';
import { newId, type RunState, stateFromContinuation } from './run-state';
import type { ToolDefinition } from './tools';

/**
 * Model calls a run makes in one go (a `run`, or one `resume`) before it suspends with the
 * predicate `maxSteps`; `resume(continuation, {})` lets it go on for as many again. The same in
 * every adapter.
 */
export const DEFAULT_MAX_STEPS = 100;

/** What an agent tells the shell about itself. */
export interface AgentShellConfig {
  name: string;
  /** The adapter name recorded in continuations. */
  framework: string;
  /** The system prompt, when it counts in the fingerprint. */
  instructions?: string;
  /** The agent's tools by name: their names and schemas count in the fingerprint. */
  tools: ReadonlyMap<string, ToolDefinition>;
  /** Predicates checked before every model call. */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** The step limit per `run` / `resume`; {@link DEFAULT_MAX_STEPS} by default, `Infinity` for none. */
  maxSteps?: number;
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: 'continue' | 'end';
  /** Seal what the agent emits, and refuse an unsealed or altered continuation on resume. */
  seal?: SealConfig;
  /**
   * Whether the agent can settle a pending entry of a continuation it resumes; by default it
   * needs a tool of the entry's name, and an `agent` entry a tool that runs a sub-agent.
   */
  canSettle?(entry: PendingEntry, continuation: Continuation): boolean;
  /**
   * Fill the format's fields of a continuation an earlier release of the adapter wrote, from its
   * native state (see `ContinuableAgent.upgrade`); applied once the continuation is parsed and
   * its seal verified, before drift and decisions are checked.
   */
  upgrade?(continuation: Continuation): Continuation;
}

/** A resume the shell has opened: the checked continuation, and the state to drive from it. */
export interface OpenedResume {
  continuation: Continuation;
  state: RunState;
  decisions: DecisionsByCall;
  /** The continuation was suspended by a predicate: the first check of this segment is skipped. */
  fromPredicate: boolean;
}

/** The shell of one agent definition (see {@link createAgentShell}). */
export interface AgentShell {
  /** The agent's predicates: its `suspendWhen` and the step limit. */
  readonly predicates: readonly SuspendPredicate[];
  /** The fingerprint continuations of this agent carry (computed once). */
  fingerprint(): Promise<string>;
  /** Name, framework and fingerprint, as continuations record them. */
  agentRef(): Promise<AgentRef>;
  /** The state of a new run of `input`. */
  start(input: string | Message[], options: RunOptions): Promise<RunState>;
  /**
   * The resume preamble, before anything runs: the decisions' shape, the seal (a sealing agent
   * refuses an unsealed or altered continuation), drift and settleability at every depth, and
   * the decisions against what is pending; then the state to drive, with the audit trail.
   */
  open(input: Continuation | string, decisions: Decisions, options: RunOptions): Promise<OpenedResume>;
  /** With `onReject: 'end'`, the rejected result a resume that rejects a call of this level ends with. */
  rejection(opened: OpenedResume): RejectedResult | undefined;
  /** What a parent calls before anything runs: can this agent resume `continuation` with `decisions`? */
  checkDecisions(
    continuation: Continuation,
    decisions: Decisions,
    options?: Pick<RunOptions, 'allowChangedAgent'>,
  ): Promise<void>;
  /** A suspension: sealed when the agent seals, told to `emit` first, with its actions listed. */
  suspend(made: Continuation, emit?: (event: RunEvent) => unknown): Promise<SuspendedResult>;
  /** Run `running`; a failure's continuation is sealed too, so it resumes like a suspension. */
  sealed<T>(running: Promise<T>): Promise<T>;
  /** A streamed run: start or resume as `input` says, sealed as `run` and `resume` are. */
  dispatch<T>(
    input: StreamInput,
    start: (input: string | Message[]) => Promise<T>,
    resume: (continuation: Continuation | string, decisions: Decisions) => Promise<T>,
  ): Promise<T>;
}

/** What a streamed run accepts: a new input, or a continuation with decisions. */
export type StreamInput = string | Message[] | { continuation: Continuation | string; decisions?: Decisions };

/**
 * The shell of an agent definition: the framework-neutral half of `run`, `resume`, `stream` and
 * `checkDecisions`, for an adapter to drive its framework between.
 *
 * @example
 * ```ts
 * const shell = createAgentShell({ name: 'ops', framework: 'my-framework', tools, maxSteps: 20 });
 * async function resume(input, decisions = {}, options = {}) {
 *   const opened = await shell.open(input, decisions, options);
 *   const rejected = shell.rejection(opened);
 *   if (rejected) return rejected;
 *   return driveMyFramework(opened.state, opened.decisions, shell.predicates); // one segment
 * }
 * ```
 */
export function createAgentShell(config: AgentShellConfig): AgentShell {
  const { tools } = config;
  const maxSteps = config.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!(maxSteps >= 1)) {
    throw new ContinuationError('INVALID_OPERATION', `maxSteps must be at least 1, not ${maxSteps}.`, {
      details: { maxSteps },
    });
  }
  // The step limit of every adapter: model calls of this segment, checked before the next one.
  const predicates: SuspendPredicate[] = [
    ...toPredicates(config.suspendWhen),
    ...(Number.isFinite(maxSteps)
      ? [
          {
            name: 'maxSteps',
            check: ({ step, segment }: PredicateContext) => step - segment.step >= maxSteps,
          },
        ]
      : []),
  ];
  const specs: Pick<ToolSpec, 'name' | 'inputSchema'>[] = [...tools.values()].map((tool) => ({
    name: tool.name,
    inputSchema: tool.inputSchema,
  }));
  let fingerprint: Promise<string> | undefined;
  const getFingerprint = () => {
    fingerprint ??= fingerprintAgent({
      ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
      tools: specs,
    });
    return fingerprint;
  };
  const agentRef = async (): Promise<AgentRef> => ({
    name: config.name,
    framework: config.framework,
    fingerprint: await getFingerprint(),
  });

  /** A pending entry needs a tool of its name, and an `agent` entry a tool that runs a sub-agent. */
  const toolSettles = (entry: PendingEntry): boolean => {
    const tool = tools.get(entry.toolName);
    if (!tool) return false;
    if (entry.kind === 'agent' && !tool.agent) {
      throw new ContinuationError(
        'INVALID_CONTINUATION',
        `The continuation holds a sub-agent's state for "${entry.toolName}" (call ${entry.toolCallId}), which is not an agent tool.`,
        { path: `$.pending[?(@.toolCallId==${JSON.stringify(entry.toolCallId)})]` },
      );
    }
    return true;
  };

  /**
   * Refuse, before anything runs, a continuation this agent cannot resume, at every depth: a
   * sub-agent that changed or cannot settle what it waits for fails here, not half-way through.
   * Sub-agents that decisions reach are checked with those decisions, by `checkDecisions`.
   */
  async function resumable(
    continuation: Continuation,
    decisions: Decisions,
    options: Pick<RunOptions, 'allowChangedAgent'>,
  ): Promise<void> {
    const canSettle = config.canSettle
      ? (entry: PendingEntry) => config.canSettle!(entry, continuation)
      : toolSettles;
    checkResumable(continuation, { agent: await agentRef(), canSettle }, options);
    const decided = new Set(Object.keys(decisions).map((id) => splitActionId(id).head));
    for (const entry of continuation.pending) {
      if (entry.kind !== 'agent' || decided.has(entry.toolCallId)) continue;
      await tools.get(entry.toolName)?.agent?.checkDecisions?.(entry.child, {}, options);
    }
  }

  const upgrade = config.upgrade ?? ((continuation: Continuation) => continuation);

  /** Drift and decisions of a continuation already upgraded, its decisions already shaped. */
  async function checkUpgraded(
    continuation: Continuation,
    decisions: Decisions,
    options: Pick<RunOptions, 'allowChangedAgent'> = {},
  ): Promise<void> {
    await resumable(continuation, decisions, options);
    await checkDecisions(continuation, decisions, tools, options);
  }

  async function check(
    given: Continuation,
    decisions: Decisions,
    options: Pick<RunOptions, 'allowChangedAgent'> = {},
  ): Promise<void> {
    checkDecisionsShape(decisions);
    await checkUpgraded(upgrade(given), decisions, options);
  }

  async function sealed<T>(running: Promise<T>): Promise<T> {
    if (!config.seal) return running;
    try {
      return await running;
    } catch (error) {
      if (isContinuationError(error) && error.continuation && !error.continuation.seal) {
        const continuation = await sealContinuation(error.continuation, config.seal);
        Object.defineProperty(error, 'continuation', { value: continuation, enumerable: true });
      }
      throw error;
    }
  }

  return {
    predicates,
    fingerprint: getFingerprint,
    agentRef,
    checkDecisions: check,
    sealed,
    async start(input, options) {
      return {
        runId: options.runId ?? newId(),
        agent: await agentRef(),
        messages: inputMessages(input),
        step: 0,
        usage: emptyUsage(),
        metadata: options.metadata ?? {},
        audit: [],
        pending: new Map(),
        done: new Map(),
        segment: { startedAt: Date.now(), step: 0, usage: emptyUsage() },
        ...(options.state === undefined ? {} : { native: options.state }),
      };
    },
    async open(input, decisions, options) {
      checkDecisionsShape(decisions);
      const parsed = isChecked(input)
        ? input
        : config.seal && !isTrusted(input)
          ? await openContinuation(input, config.seal)
          : parseContinuation(input);
      const continuation = upgrade(parsed);
      // A parent resuming this child checked it with these decisions already, with its whole
      // tree; checking again at every level would cost the depth squared.
      if (!isCheckedWith(input, decisions)) await checkUpgraded(continuation, decisions, options);
      const state = stateFromContinuation(continuation, await agentRef());
      // Native data is for the framework that wrote it; another one's would be stale once this runs.
      const native =
        options.state !== undefined
          ? options.state
          : continuation.agent.framework === config.framework
            ? continuation.state
            : undefined;
      if (native !== undefined) state.native = native;
      state.audit.push(...auditEntries(continuation, decisions));
      return {
        continuation,
        state,
        decisions: decisionsByCall(decisions),
        fromPredicate: continuation.suspendedBy.type === 'predicate',
      };
    },
    rejection({ state, decisions }) {
      if (config.onReject !== 'end') return undefined;
      for (const call of decisions.calls) {
        const decision = decisions.own(call);
        if (decision?.value.type !== 'reject') continue;
        const entry = state.pending.get(call)!;
        return {
          status: 'rejected',
          runId: state.runId,
          messages: state.messages,
          usage: state.usage,
          step: state.step,
          rejection: {
            actionId: decision.actionId,
            toolName: entry.toolName,
            ...(decision.value.reason ? { reason: decision.value.reason } : {}),
            ...(decision.value.by ? { by: decision.value.by } : {}),
          },
        };
      }
      return undefined;
    },
    async suspend(made, emit) {
      const continuation = config.seal ? await sealContinuation(made, config.seal) : made;
      await emit?.({ type: 'suspend', runId: made.runId, continuation });
      return { status: 'suspended', continuation, actions: listActions(continuation) };
    },
    dispatch(input, start, resume) {
      return sealed(
        typeof input === 'string' || Array.isArray(input)
          ? start(input)
          : resume(input.continuation, input.decisions ?? {}),
      );
    },
  };
}
