/**
 * The stores API (docs/design.md section 7): save, load, list, delete, and `claim` so that exactly one
 * worker resumes a given continuation.
 */

import { ContinuationError } from '../errors';
import { canonicalJson } from '../format/canonical';
import type { Continuation } from '../format/format';
import type { JsonObject } from '../format/json';

/**
 * Where a stored continuation stands. `failed`: a resume of it failed after tools may have run (or
 * recovery gave up); its `error` says why, and {@link ContinuationStore.retry} makes it claimable
 * again on purpose. `cancelled`: a person ended the whole run here (every pending action rejected,
 * see `runtime.cancel`); `resumedBy` says who and `reason` why. Neither is ever claimed again.
 */
export type StoredStatus = 'suspended' | 'claimed' | 'completed' | 'expired' | 'failed' | 'cancelled';

/** A stored continuation's index fields, without the body. */
export interface StoredSummary {
  id: string;
  runId: string;
  agentName: string;
  status: StoredStatus;
  metadata: JsonObject;
  createdAt: string;
  /** When the pending actions expire, if ever. */
  expiresAt?: string;
  /** For a `failed` continuation: the last error's message. */
  error?: string;
  /**
   * For a `completed` continuation that was completed through a claim: the claim's `owner`, i.e.
   * who resumed it (a worker id, or the deciding person's id when an inbox resumed it).
   *
   * @example
   * ```ts
   * const stored = await store.load(id);
   * if (stored?.status === 'completed') console.log(`resumed by ${stored.resumedBy ?? 'unknown'}`);
   * ```
   */
  resumedBy?: string;
  /** For a `cancelled` continuation: the reason the person who ended the run gave, if any. */
  reason?: string;
}

/** A stored continuation, with its body. */
export interface StoredContinuation extends StoredSummary {
  continuation: Continuation;
}

/** Filters of {@link ContinuationStore.list}; all given ones must match. */
export interface ListFilter {
  status?: StoredStatus | StoredStatus[];
  agentName?: string;
  runId?: string;
  /** Each key must equal the continuation's metadata value (compared as JSON). */
  metadata?: JsonObject;
  /** Page size; 50 by default. */
  limit?: number;
  /** From a previous page's `cursor` (listed with the same `order`). */
  cursor?: string;
  /**
   * `'asc'` (the default): oldest first; `'desc'`: newest first. Either way the order is the order
   * in which the continuations were first saved, and paging is stable while others are saved:
   * newer records join the end of an ascending listing and never show up in later pages of a
   * descending one.
   *
   * @example
   * ```ts
   * const newest = await store.list({ status: 'suspended', order: 'desc', limit: 20 });
   * ```
   */
  order?: 'asc' | 'desc';
}

/** One page of {@link ContinuationStore.list}, oldest first (newest first with `order: 'desc'`). */
export interface ListPage {
  items: StoredSummary[];
  /** Present when there are more. */
  cursor?: string;
}

/**
 * The right to resume one continuation, held until `leaseUntil` and renewed with
 * {@link ContinuationStore.renew}. Writes under it are fenced by `token`: once another worker took
 * the continuation (after the lease lapsed), this claim's writes fail with `LEASE_LOST`.
 */
export interface Claim {
  id: string;
  owner: string;
  token: string;
  leaseUntil: string;
}

/** Options of {@link ContinuationStore.save}. */
export interface SaveOptions {
  /** After this time the pending actions expire: `load` reports `expired`, `claim` refuses. */
  expiresAt?: Date | string;
}

/** Options of {@link ContinuationStore.claim}. */
export interface ClaimOptions {
  /** Who claims (a worker id); recorded for diagnostics. */
  owner?: string;
  /** How long the claim holds before another worker may take it; 30 s by default. */
  leaseMs?: number;
}

/** Options of {@link ContinuationStore.renew}. */
export interface RenewOptions {
  /** The new lease, counted from now; 30 s by default. */
  leaseMs?: number;
}

/** Options of {@link ContinuationStore.complete}. */
export interface CompleteOptions extends SaveOptions {
  /**
   * Save this continuation (the run's next suspension, or its last good state) in the same atomic
   * step, only if the claim is still held.
   */
  next?: Continuation;
  /**
   * End the run here instead: the record becomes `cancelled` (not `completed`), with this `reason`
   * when given. Not with `next`.
   *
   * @example
   * ```ts
   * await store.complete(claim, { cancelled: { reason: 'Duplicate request' } });
   * ```
   */
  cancelled?: { reason?: string };
}

/** What a store supports, read by the store contract suite. */
export interface StoreCapabilities {
  /** Claims expire after their lease. */
  leases: boolean;
  /** `expiresAt` is honoured. */
  expiry: boolean;
  /** Several processes or machines can share the store safely. */
  multiProcess: boolean;
}

/**
 * Keeps continuations. Implemented by the in-memory store here and by the SQLite, Postgres and
 * Redis stores; every one passes the same contract suite from `@agent-continuations/testing`.
 *
 * @example
 * ```ts
 * await store.save(result.continuation);
 * const claim = await store.claim(id, { owner: 'worker-1' });
 * const { continuation } = (await store.load(id))!;
 * ```
 */
export interface ContinuationStore {
  readonly capabilities: StoreCapabilities;
  /** Save (or replace) a continuation under its `id`, as `suspended`. */
  save(continuation: Continuation, options?: SaveOptions): Promise<void>;
  /**
   * Save a continuation as `suspended` only when no record has its `id`, in one atomic step: true
   * when it was saved, false when a record was there (whatever its status), which is left as it
   * is. Among concurrent calls for one id exactly one returns true. Unlike {@link save}, it never
   * resets a claim or a completed record, so "save if absent, then claim" lets exactly one caller
   * resume a continuation that came back from outside (`runtime.resumeOnce`). Every store of this
   * library has it; a store without it cannot serve `resumeOnce`.
   *
   * @example
   * ```ts
   * if (!(await store.saveIfAbsent(continuation))) console.log(`"${continuation.id}" was seen before`);
   * const claim = await store.claim(continuation.id); // CLAIM_CONFLICT once it was resumed
   * ```
   */
  saveIfAbsent?(continuation: Continuation, options?: SaveOptions): Promise<boolean>;
  /** The continuation and its status, or undefined. */
  load(id: string): Promise<StoredContinuation | undefined>;
  list(filter?: ListFilter): Promise<ListPage>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
  /**
   * Take the exclusive right to resume `id`. Throws `CLAIM_CONFLICT` when another claim holds or it
   * was already resumed, `NOT_FOUND`, `EXPIRED`, or `NOT_RESUMABLE` when it `failed` (see
   * {@link ContinuationStore.retry}). The refusal is decided in the same atomic step as the claim.
   */
  claim(id: string, options?: ClaimOptions): Promise<Claim>;
  /**
   * Extend a held claim's lease to `leaseMs` from now; returns the renewed claim (same token).
   * `LEASE_LOST` when the claim is no longer held: another worker took the continuation after the
   * lease lapsed, or it was completed, released or failed. A claim whose lease lapsed but that
   * nobody took is still held: renewing it extends it.
   */
  renew(claim: Claim, options?: RenewOptions): Promise<Claim>;
  /**
   * Mark the claimed continuation resumed, so it can never be claimed again, and save
   * `options.next` in the same atomic step. `LEASE_LOST` (and nothing written) when the claim is no
   * longer held.
   */
  complete(claim: Claim, options?: CompleteOptions): Promise<void>;
  /** Give a claim back unused, so another worker may claim it. `LEASE_LOST` when no longer held. */
  release(claim: Claim): Promise<void>;
  /**
   * Mark the claimed continuation `failed` with `error` (a message): it is not claimed again until
   * {@link ContinuationStore.retry}. `LEASE_LOST` when the claim is no longer held.
   */
  fail(claim: Claim, error: string): Promise<void>;
  /**
   * Make a `failed` continuation claimable again, on purpose (e.g. once the cause is fixed).
   * `NOT_FOUND` when missing, `INVALID_OPERATION` when it is not `failed`.
   *
   * @example
   * ```ts
   * for (const { id } of (await store.list({ status: 'failed' })).items) await store.retry(id);
   * ```
   */
  retry(id: string): Promise<void>;
  /**
   * The store's clock, for stores with a server that keeps one (Postgres `now()`, Redis `TIME`):
   * the deadline sweeper judges deadlines by it, as leases and expiries are, so that workers with
   * skewed clocks agree. Stores without one (in memory, SQLite) leave it out, and the sweeper uses
   * its injectable `now` or the process clock.
   */
  now?(): Promise<Date>;
  close?(): Promise<void>;
}

/** A default lease of 30 seconds. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * Does `metadata` match every key of `filter`? Values compare as JSON: object key order does not
 * matter. For store implementations.
 *
 * @example
 * ```ts
 * metadataMatches({ tenant: 'acme', ticket: 7 }, { tenant: 'acme' }); // true
 * ```
 */
export function metadataMatches(metadata: JsonObject, filter: JsonObject | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(
    ([key, value]) => Object.hasOwn(metadata, key) && canonicalJson(metadata[key]) === canonicalJson(value),
  );
}

/**
 * The summary fields of a continuation, for store implementations; throws `INVALID_OPERATION` for
 * an invalid `expiresAt`.
 *
 * @example
 * ```ts
 * const { id, runId, agentName, metadata, createdAt, expiresAt } = summarize(continuation, options.expiresAt);
 * ```
 */
export function summarize(
  continuation: Continuation,
  expiresAt?: Date | string,
): Omit<StoredSummary, 'status'> {
  const summary: Omit<StoredSummary, 'status'> = {
    id: continuation.id,
    runId: continuation.runId,
    agentName: continuation.agent.name,
    metadata: continuation.metadata,
    createdAt: continuation.createdAt,
  };
  if (expiresAt !== undefined) {
    const time = new Date(expiresAt);
    if (Number.isNaN(time.getTime())) {
      throw new ContinuationError(
        'INVALID_OPERATION',
        `expiresAt "${String(expiresAt)}" is not a valid date.`,
      );
    }
    summary.expiresAt = time.toISOString();
  }
  return summary;
}
