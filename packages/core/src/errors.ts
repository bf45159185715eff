/**
 * One error class for everything the library refuses, with a machine-readable `code`.
 */
import type { Continuation } from './format';

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
  /** The continuation has nothing to resume (already completed, or inconsistent). */
  | 'NOT_RESUMABLE'
  /** The store has no continuation of that id. */
  | 'NOT_FOUND'
  /** Another worker holds the claim, or the continuation was already resumed. */
  | 'CLAIM_CONFLICT'
  /** The continuation's pending actions expired. */
  | 'EXPIRED'
  /** A store could not decrypt a record (wrong key, unknown key id, or tampered bytes). */
  | 'DECRYPT_FAILED'
  /** An adapter's native `state` does not fit the agent (e.g. a renamed graph node). */
  | 'STATE_MISMATCH'
  /** A run was asked to do something its configuration does not allow. */
  | 'INVALID_OPERATION';

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
  readonly [BRAND] = true;

  constructor(
    code: ErrorCode,
    message: string,
    options: { path?: string; details?: unknown; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    if (options.path !== undefined) this.path = options.path;
    if (options.details !== undefined) this.details = options.details;
  }
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

/** Thrown when the model call fails; `continuation` holds the last good state, to resume later. */
export class ModelCallError extends ContinuationError {
  readonly continuation: Continuation;
  constructor(continuation: Continuation, cause: unknown) {
    super('MODEL_ERROR', `The model call failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.continuation = continuation;
  }
}
