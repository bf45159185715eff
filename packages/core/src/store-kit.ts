/**
 * What every store implementation checks and reports the same way: list limits and cursors, and
 * why a claim was refused. For authors of stores; users of stores never call these.
 */
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
