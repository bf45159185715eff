/**
 * One error class for everything the library refuses, with a machine-readable `code`.
 */
import type { Continuation } from './format/format';

/** Every code a {@link ContinuationError} can carry. */
export type ErrorCode =
  /** The input is not JSON, or is truncated. */
  | 'INVALID_JSON'
  /** The `format` tag is missing or not ours. */
  | 'INVALID_FORMAT'
  /** The version is newer than this build reads, or unknown. */
  | 'UNSUPPORTED_VERSION'
  /** The value does not match the schema: missing fields, wrong types. */
  | 'INVALID_CONTINUATION'
  /** A key such as `__proto__` that could pollute prototypes. */
  | 'UNSAFE_KEY'
  /** The seal does not match: tampered content, or a wrong secret. */
  | 'SEAL_MISMATCH'
  /** A seal was required but the continuation carries none. */
  | 'SEAL_MISSING'
  /** A decision names an action that is not pending. */
  | 'UNKNOWN_ACTION'
  /** A decision is not of a known shape. */
  | 'INVALID_DECISION'
  /** A decision's type does not fit its action (e.g. `input` for an approval). */
  | 'WRONG_DECISION_KIND'
  /** A decision the action's own policy (`allowedDecisions`) does not allow. */
  | 'DECISION_NOT_ALLOWED'
  /** Edited arguments fail the tool's input schema. */
  | 'INVALID_ARGS'
  /** An answer fails a human tool's response schema. */
  | 'INVALID_INPUT'
  /** The continuation belongs to an agent of another name. */
  | 'AGENT_MISMATCH'
  /** The agent's instructions or tools changed since the continuation was made. */
  | 'AGENT_CHANGED'
  /** A pending action names a tool the resuming agent does not have. */
  | 'UNKNOWN_TOOL'
  /** The model call failed; `continuation` on the error holds the last good state. */
  | 'MODEL_ERROR'
  /**
   * A tool threw under `toolErrors: 'throw'`, or a sub-agent failed with an error of its own;
   * `continuation` on the error holds the last good state.
   */
  | 'TOOL_ERROR'
  /** The continuation has nothing to resume (already completed, or inconsistent). */
  | 'NOT_RESUMABLE'
  /** The store has no continuation of that id. */
  | 'NOT_FOUND'
  /** Another worker holds the claim, or the continuation was already resumed. */
  | 'CLAIM_CONFLICT'
  /**
   * A claim (or a run's lease) was lost: its lease lapsed and another worker took it, or it was
   * completed, released or failed already. The holder must not write any more.
   */
  | 'LEASE_LOST'
  /** The continuation's pending actions expired. */
  | 'EXPIRED'
  /** A store could not decrypt a record (wrong key, unknown key id, or tampered bytes). */
  | 'DECRYPT_FAILED'
  /** An adapter's native `state` does not fit the agent (e.g. a renamed graph node). */
  | 'STATE_MISMATCH'
  /** A run was asked to do something its configuration does not allow. */
  | 'INVALID_OPERATION'
  /** An approval link was altered, forged, or is not a link of this app. */
  | 'LINK_INVALID'
  /** An approval link is past its expiry. */
  | 'LINK_EXPIRED'
  /** A notification (e.g. a webhook) could not be delivered after its retries. */
  | 'NOTIFY_FAILED'
  /**
   * The store's (or log's) database could not be reached, or the connection broke during the
   * call: a restart, a failover, a terminated session, a full or read-only disk, a lock not got in
   * time. Retryable: the next call reconnects. A write that failed this way either committed whole
   * or not at all; the driver's error is the `cause`.
   */
  | 'STORE_UNAVAILABLE'
  /**
   * A record the caller held (claimed or leased) is gone from the store, not taken by another
   * worker: the store lost data (say, a Redis without persistence that restarted).
   */
  | 'RECORD_LOST';

const BRAND = Symbol.for('agent-continuations.error');

/**
 * The base error of the library. Check with {@link isContinuationError}, which also recognises
 * errors from another installed copy of the package.
 *
 * @example
 * ```ts
 * try {
 *   parseContinuation(text);
 * } catch (error) {
 *   if (isContinuationError(error, 'UNSUPPORTED_VERSION')) console.log('upgrade the library');
 *   else throw error;
 * }
 * ```
 */
export class ContinuationError extends Error {
  readonly code: ErrorCode;
  /** Where in the continuation the problem is, as a JSON path, when known. */
  readonly path?: string;
  /** Structured details, e.g. the validation issues or what changed in an agent. */
  readonly details?: unknown;
  /**
   * For a failure during a run: the whole run's last good state. Resuming it (no decisions
   * needed) retries from there; nothing that already ran runs again.
   */
  readonly continuation?: Continuation;
  /**
   * For a failure inside a sub-agent: the tool-call ids from the root down to the failing agent,
   * as in action ids. Empty or absent when the root itself failed.
   */
  readonly at?: readonly string[];
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: ContinuationErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
    if (options.details !== undefined) this.details = options.details;
    if (options.continuation !== undefined) this.continuation = options.continuation;
    if (options.at !== undefined && options.at.length > 0) this.at = options.at;
  }
}

/** Options of the {@link ContinuationError} constructor. */
export interface ContinuationErrorOptions {
  path?: string;
  details?: unknown;
  cause?: unknown;
  continuation?: Continuation;
  at?: readonly string[];
}

/**
 * True when `error` is a {@link ContinuationError} (from any installed copy), optionally of one code.
 *
 * @example
 * ```ts
 * if (isContinuationError(error, 'CLAIM_CONFLICT')) return; // another worker resumed it
 * ```
 */
export function isContinuationError(error: unknown, code?: ErrorCode): error is ContinuationError {
  if (typeof error !== 'object' || error === null) return false;
  const branded = (error as Record<symbol, unknown>)[BRAND] === true;
  if (!branded && !(error instanceof ContinuationError)) return false;
  return code === undefined || (error as ContinuationError).code === code;
}

/**
 * Thrown when a model call fails, at the root or in a sub-agent at any depth; `continuation` holds
 * the whole run's last good state, to resume later.
 *
 * @example
 * ```ts
 * try {
 *   return await agent.resume(continuation, decisions);
 * } catch (error) {
 *   if (isContinuationError(error, 'MODEL_ERROR')) await store.save(error.continuation!); // retry later
 *   throw error;
 * }
 * ```
 */
export class ModelCallError extends ContinuationError {
  declare readonly continuation: Continuation;
  constructor(continuation: Continuation, cause: unknown, at: readonly string[] = []) {
    super('MODEL_ERROR', `The model call failed${where(at)}: ${describe(cause)}`, {
      cause,
      continuation,
      at,
    });
  }
}

/**
 * Thrown when a tool throws under `toolErrors: 'throw'`, or a sub-agent fails with an error that
 * is not the library's own; `continuation` holds the whole run's last good state, in which the
 * failed call has not run (resuming retries it, with the same idempotency key).
 *
 * @example
 * ```ts
 * if (isContinuationError(error, 'TOOL_ERROR')) console.error(error.cause, error.at);
 * ```
 */
export class ToolCallError extends ContinuationError {
  declare readonly continuation: Continuation;
  constructor(continuation: Continuation, cause: unknown, at: readonly string[] = [], toolName?: string) {
    const tool = toolName ? ` "${toolName}"` : '';
    super('TOOL_ERROR', `The tool${tool} failed${where(at)}: ${describe(cause)}`, {
      cause,
      continuation,
      at,
    });
  }
}

/**
 * The same error, one level up: a sub-agent's failure as its parent reports it, with the
 * parent's whole state and the path to the failing agent. For adapters that run sub-agents
 * themselves.
 *
 * @example
 * ```ts
 * // The child failed inside the call `call_3`; `tree` is the parent's state holding the child's.
 * throw raiseFrom(childError, tree, ['call_3', ...(childError.at ?? [])]);
 * ```
 */
export function raiseFrom(error: ContinuationError, continuation: Continuation, at: readonly string[]) {
  const cause = error.cause;
  if (error.code === 'MODEL_ERROR') return new ModelCallError(continuation, cause, at);
  if (error.code === 'TOOL_ERROR') return new ToolCallError(continuation, cause, at);
  const own = error.at
    ? error.message.slice(0, error.message.length - where(error.at).length)
    : error.message;
  return new ContinuationError(error.code, `${own}${where(at)}`, {
    cause: error.at ? error.cause : error,
    continuation,
    at,
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}

function where(at: readonly string[]): string {
  return at.length > 0 ? ` in the sub-agent at ${at.join('/')}` : '';
}

function describe(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
