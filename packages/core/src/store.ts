/**
 * The stores API (DESIGN section 7): save, load, list, delete, and `claim` so that exactly one
 * worker resumes a given continuation.
 */
import { canonicalJson } from './canonical';
import { ContinuationError } from './errors';
import type { Continuation } from './format';
import type { JsonObject } from './json';

/** Where a stored continuation stands. */
export type StoredStatus = 'suspended' | 'claimed' | 'completed' | 'expired';

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
  /** From a previous page's `cursor`. */
  cursor?: string;
}

/** One page of {@link ContinuationStore.list}, oldest first. */
export interface ListPage {
  items: StoredSummary[];
  /** Present when there are more. */
  cursor?: string;
}

/** The right to resume one continuation, held until `leaseUntil`. */
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
  /** The continuation and its status, or undefined. */
  load(id: string): Promise<StoredContinuation | undefined>;
  list(filter?: ListFilter): Promise<ListPage>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
  /**
   * Take the exclusive right to resume `id`. Throws `CLAIM_CONFLICT` when another claim holds or it
   * was already resumed, `NOT_FOUND`, or `EXPIRED`.
   */
  claim(id: string, options?: ClaimOptions): Promise<Claim>;
  /** Mark the claimed continuation resumed: it can never be claimed again. */
  complete(claim: Claim): Promise<void>;
  /** Give a claim back unused, so another worker may claim it. */
  release(claim: Claim): Promise<void>;
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
