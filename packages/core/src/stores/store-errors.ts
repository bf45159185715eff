/**
 * What every store implementation checks and reports the same way: list limits and cursors, and
 * why a claim was refused. For authors of stores (exported by `@agent-continuations/core/store-kit`);
 * users of stores never call these.
 */

import type { RunLease } from '../durable/checkpoint';
import { ContinuationError } from '../errors';
import type { Claim, StoredStatus } from './store';

/**
 * The page size of a list: 50 by default, else a positive integer.
 *
 * @example
 * ```ts
 * const limit = listLimit(filter.limit);
 * ```
 */
export function listLimit(limit: number | undefined): number {
  if (limit === undefined) return 50;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `The list limit must be a positive integer, not ${limit}.`,
    );
  }
  return limit;
}

/**
 * A list cursor as the decimal sequence number it encodes (as text, so 64-bit ids survive); `0`
 * for the first page.
 *
 * @example
 * ```ts
 * const after = Number(listCursor(filter.cursor));
 * ```
 */
export function listCursor(cursor: string | undefined): string {
  if (cursor === undefined) return '0';
  if (!/^\d{1,18}$/.test(cursor)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      `"${cursor}" is not a cursor from a previous list page.`,
    );
  }
  return cursor;
}

/**
 * The order of a list: `'asc'` by default, else `'asc'` or `'desc'` (anything else is refused with
 * `INVALID_OPERATION`, e.g. a value from an untyped caller).
 *
 * @example
 * ```ts
 * const newestFirst = listOrder(filter.order) === 'desc';
 * ```
 */
export function listOrder(order: string | undefined): 'asc' | 'desc' {
  if (order === undefined || order === 'asc') return 'asc';
  if (order === 'desc') return 'desc';
  throw new ContinuationError(
    'INVALID_OPERATION',
    `The list order must be "asc" or "desc", not ${JSON.stringify(order)}.`,
  );
}

/**
 * The error for a claim that could not be taken, from the continuation's state read in the same
 * atomic step as the refused claim. Total: a state that should not refuse a claim (`suspended`, or
 * anything unknown, i.e. the record changed under a non-atomic read) is reported as a
 * `CLAIM_CONFLICT` to retry, never as `undefined`.
 *
 * @example
 * ```ts
 * if (!updated) throw claimRefused(id, row ? row.status : 'missing', row?.expiresAt, row?.error);
 * ```
 */
export function claimRefused(
  id: string,
  state: StoredStatus | 'missing',
  expiresAt?: string | Date | null,
  error?: string | null,
): ContinuationError {
  switch (state) {
    case 'missing':
      return new ContinuationError('NOT_FOUND', `No continuation "${id}" in the store.`);
    case 'expired':
      return new ContinuationError(
        'EXPIRED',
        `Continuation "${id}" expired${expiresAt == null ? '' : ` at ${new Date(expiresAt).toISOString()}`}.`,
      );
    case 'claimed':
      return new ContinuationError('CLAIM_CONFLICT', `Continuation "${id}" is claimed by another worker.`);
    case 'completed':
      return new ContinuationError('CLAIM_CONFLICT', `Continuation "${id}" is already resumed.`);
    case 'cancelled':
      return new ContinuationError(
        'CLAIM_CONFLICT',
        `Continuation "${id}" was cancelled: its run has ended.`,
      );
    case 'failed':
      return new ContinuationError(
        'NOT_RESUMABLE',
        `Continuation "${id}" failed${error ? `: ${bounded(error)}` : ''}. Call store.retry("${id}") to resume it again on purpose.`,
      );
    default:
      return new ContinuationError(
        'CLAIM_CONFLICT',
        `Continuation "${id}" changed while it was being claimed (now "${String(state)}"); try again.`,
      );
  }
}

/**
 * The error for writing under a claim that is no longer held (another worker took the
 * continuation after its lease lapsed, or it was completed, released or failed).
 *
 * @example
 * ```ts
 * if (changes === 0) throw claimLost(claim);
 * ```
 */
export function claimLost(claim: Claim): ContinuationError {
  return new ContinuationError(
    'LEASE_LOST',
    `The claim of ${claim.owner} on "${claim.id}" is no longer held: its lease lapsed and another worker took it, or it was completed, released or failed.`,
  );
}

/**
 * The error for `store.retry(id)` of a continuation that is not `failed`.
 *
 * @example
 * ```ts
 * if (changes === 0) throw retryRefused(id, row ? row.status : 'missing');
 * ```
 */
export function retryRefused(id: string, state: StoredStatus | 'missing'): ContinuationError {
  if (state === 'missing') return new ContinuationError('NOT_FOUND', `No continuation "${id}" in the store.`);
  return new ContinuationError(
    'INVALID_OPERATION',
    `Continuation "${id}" is ${state}, not failed: there is nothing to retry.`,
  );
}

/**
 * The text a store keeps as a failed continuation's `error`: the error's message (with its code),
 * at most 2,000 characters.
 *
 * @example
 * ```ts
 * await store.fail(claim, errorText(error));
 * ```
 */
export function errorText(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return bounded(code ? `${code}: ${message}` : message);
}

function bounded(text: string): string {
  return text.length > 2000 ? `${text.slice(0, 1999)}…` : text;
}

/**
 * The error for a run of a checkpoint log that cannot be taken (it is not in the state the
 * operation needs), for checkpoint-log implementations.
 *
 * @example
 * ```ts
 * if (changes === 0) throw runRefused(runId, 'it is not a running run with an expired lease');
 * ```
 */
export function runRefused(runId: string, why: string): ContinuationError {
  return new ContinuationError('CLAIM_CONFLICT', `Run "${runId}" cannot be taken: ${why}.`);
}

/**
 * The error for writing to a checkpoint log under a lease that is no longer held.
 *
 * @example
 * ```ts
 * if (changes === 0) throw leaseLost(lease);
 * ```
 */
export function leaseLost(lease: RunLease): ContinuationError {
  return new ContinuationError(
    'LEASE_LOST',
    `The lease of ${lease.owner} on run "${lease.runId}" is no longer held.`,
  );
}

/**
 * Refuse `complete(claim, { next, cancelled })`: a cancelled run has no next suspension. Stores call
 * it before they write anything.
 *
 * @example
 * ```ts
 * cancelWithout(options.next, options.cancelled);
 * ```
 */
export function cancelWithout(next: unknown, cancelled: { reason?: string } | undefined): void {
  if (next !== undefined && cancelled !== undefined) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'A cancelled run has no next suspension: complete with `cancelled` or with `next`, not both.',
    );
  }
  if (cancelled?.reason !== undefined && typeof cancelled.reason !== 'string') {
    throw new ContinuationError('INVALID_OPERATION', 'A cancellation reason must be a string.');
  }
}
