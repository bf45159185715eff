/**
 * What every store implementation checks and reports the same way: list limits and cursors, and
 * why a claim was refused. For authors of stores; users of stores never call these.
 */

import type { RunLease } from './checkpoint';
import { ContinuationError } from './errors';
import type { Claim } from './store';

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
 * The error for a claim that could not be taken, from the continuation's state at that moment.
 *
 * @example
 * ```ts
 * if (!updated) throw claimRefused(id, row ? row.status : 'missing', row?.expiresAt);
 * ```
 */
export function claimRefused(
  id: string,
  state: 'missing' | 'expired' | 'claimed' | 'completed',
  expiresAt?: string | Date,
): ContinuationError {
  switch (state) {
    case 'missing':
      return new ContinuationError('NOT_FOUND', `No continuation "${id}" in the store.`);
    case 'expired':
      return new ContinuationError(
        'EXPIRED',
        `Continuation "${id}" expired${expiresAt === undefined ? '' : ` at ${new Date(expiresAt).toISOString()}`}.`,
      );
    case 'claimed':
      return new ContinuationError('CLAIM_CONFLICT', `Continuation "${id}" is claimed by another worker.`);
    case 'completed':
      return new ContinuationError('CLAIM_CONFLICT', `Continuation "${id}" is already resumed.`);
  }
}

/**
 * The error for completing a claim that is no longer held.
 *
 * @example
 * ```ts
 * if (changes === 0) throw claimLost(claim);
 * ```
 */
export function claimLost(claim: Claim): ContinuationError {
  return new ContinuationError('CLAIM_CONFLICT', `The claim on "${claim.id}" is no longer held.`);
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
    'CLAIM_CONFLICT',
    `The lease of ${lease.owner} on run "${lease.runId}" is no longer held.`,
  );
}
