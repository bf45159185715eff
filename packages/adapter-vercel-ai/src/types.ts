/**
 * The types of a continuable AI SDK agent: its options, inputs, and the SDK-shaped results.
 */
import type {
  ContinuableAgent,
  Continuation,
  Decisions,
  RunOptions,
  RunResult,
  SealConfig,
  SuspendWhen,
  ToolPolicy,
} from '@agent-continuations/core';
import type { GenerateTextResult, ModelMessage, StreamTextResult, Tool, ToolSet } from 'ai';
import type { ContinuableGenerateResult, ContinuableStream } from './sdk-results';

/** Options of {@link continuable}. */
export interface ContinuableOptions {
  /** The agent's name: continuations record it, and only an agent of this name resumes them. */
  name: string;
  /** Shown to a parent model when this agent is a tool (see `agentTool`). */
  description?: string;
  /** Predicates checked before every model call (`everyTurns`, `maxTokens`, `onAbort`, ...). */
  suspendWhen?: SuspendWhen | readonly SuspendWhen[];
  /** On a rejected call: tell the model and go on (default), or end the run as rejected. */
  onReject?: 'continue' | 'end';
  /** A tool that throws: its message goes to the model (default), or the run throws. */
  toolErrors?: 'model' | 'throw';
  /** The engine's step limit per `run` / `resume` (predicate `maxSteps`); the core's default otherwise. */
  maxSteps?: number;
  /**
   * Seal every continuation the agent emits and refuse, before anything runs, one that is
   * unsealed or altered (`SEAL_MISSING`, `SEAL_MISMATCH`); `previous` secrets still verify.
   */
  seal?: SealConfig;
  /**
   * The human-in-the-loop policy of each tool's approvals, by tool name: what the human is told
   * (`description`) and the decisions allowed (`approve`, `edit`, `reject`; `edit` is an approval
   * with edited arguments). It is kept in the pending action, so the console, approval links and
   * chat routes obey it; a decision outside it is refused with `DECISION_NOT_ALLOWED` before
   * anything runs.
   *
   * @example
   * ```ts
   * continuable(agent, { name: 'bank', policies: { transfer: { allowedDecisions: ['approve', 'reject'] } } });
   * ```
   */
  policies?: Record<string, ToolPolicy>;
}

/** A run's input: a prompt, or an AI SDK conversation. */
export type VercelAgentInput = string | ModelMessage[];

/** What `stream()` accepts: a new input, or a continuation with decisions. */
export type VercelStreamInput =
  | VercelAgentInput
  | { continuation: Continuation | string; decisions?: Decisions };

/** Options of `run`, `resume` and `stream`: the core's, and the agent's call options. */
export interface VercelRunOptions<CallOptions = unknown> extends RunOptions {
  /** The call options of a `ToolLoopAgent` with `callOptionsSchema` / `prepareCall` (`run` and `stream` of a new input). */
  options?: CallOptions;
}

/** The parameters of the SDK's `agent.generate()` / `agent.stream()`. */
export type SdkCallParameters<CallOptions = unknown> = (
  | { prompt: VercelAgentInput }
  | { messages: ModelMessage[] }
) & {
  options?: CallOptions;
  abortSignal?: AbortSignal;
  onStepFinish?: (step: never) => unknown;
  /** ai@7's name of `onStepFinish`. */
  onStepEnd?: (step: never) => unknown;
  experimental_transform?: unknown;
  timeout?: unknown;
};

/** A continuable AI SDK agent: the core's protocol, plus the SDK's `generate` / `stream` shapes. */
export interface VercelContinuableAgent<Output = string, CallOptions = unknown>
  extends ContinuableAgent<VercelAgentInput, Output> {
  readonly framework: 'vercel-ai';
  /** As on a `ToolLoopAgent` (what `createAgentUIStreamResponse` reads): */
  readonly version: 'agent-v1';
  readonly id: string | undefined;
  readonly tools: Record<string, Tool>;
  run(input: VercelAgentInput, options?: VercelRunOptions<CallOptions>): Promise<RunResult<Output>>;
  resume(
    continuation: Continuation | string,
    decisions?: Decisions,
    options?: RunOptions,
  ): Promise<RunResult<Output>>;
  /**
   * Run or resume while yielding text deltas and tool events; the last event carries the result.
   * The stream has the SDK's members too (`textStream`, `text`, `toUIMessageStream()`, ...).
   */
  stream(input: VercelStreamInput, options?: VercelRunOptions<CallOptions>): ContinuableStream<Output>;
  /** The SDK's `agent.stream({ prompt | messages, options, abortSignal })`, as `createAgentUIStreamResponse` calls it. */
  stream(parameters: SdkCallParameters<CallOptions>): Promise<ContinuableStreamResult<Output>>;
  /** The SDK's `agent.generate({ prompt | messages, options, abortSignal })`; `result` holds the run's result. */
  generate(parameters: SdkCallParameters<CallOptions>): Promise<ContinuableGenerateTextResult<Output>>;
  checkDecisions(
    continuation: Continuation,
    decisions: Decisions,
    options?: Pick<RunOptions, 'allowChangedAgent'>,
  ): Promise<void>;
}

/** An SDK-shaped streamed run: the SDK's `StreamTextResult`, the core's event stream, and the continuation. */
export type ContinuableStreamResult<Output> = ContinuableStream<Output> & StreamTextResult<ToolSet, any>;

/** An SDK-shaped finished run: the SDK's `GenerateTextResult`, the run's result and the continuation. */
export type ContinuableGenerateTextResult<Output> = ContinuableGenerateResult<Output> &
  GenerateTextResult<ToolSet, any>;

/** The settings `continuable()` reads: those of `generateText`, or of a `ToolLoopAgent`. */
export type ContinuableSettings = { model: unknown; tools?: Record<string, Tool> } & Record<string, unknown>;

/** The completed output of an agent or settings: the parsed `output`, or the text. */
export type OutputOf<A> = A extends { generate(...args: any[]): PromiseLike<{ output: infer O }> }
  ? [O] extends [never]
    ? string
    : O
  : A extends { output: { parseCompleteOutput(...args: any[]): PromiseLike<infer O> } }
    ? O
    : string;

/** The call options of a `ToolLoopAgent` with `callOptionsSchema`. */
export type CallOptionsOf<A> = A extends { generate(options: infer P): any }
  ? P extends { options: infer C }
    ? C
    : never
  : never;
