/**
 * An in-memory {@link ContinuationStore}: for tests and single-process use.
 */
import { cloneJson } from '../format/canonical';
import type { Continuation } from '../format/format';
import {
  type Claim,
  type ClaimOptions,
  type CompleteOptions,
  type ContinuationStore,
  DEFAULT_LEASE_MS,
  type ListFilter,
  type ListPage,
  metadataMatches,
  type SaveOptions,
  type StoredContinuation,
  type StoredStatus,
  type StoredSummary,
  summarize,
} from './store';
import {
  cancelWithout,
  claimLost,
  claimRefused,
  listCursor,
  listLimit,
  listOrder,
  retryRefused,
} from './store-errors';

interface Row {
  seq: number;
  record: Omit<StoredContinuation, 'status'>;
  body: string;
  completed: boolean;
  /** The last error, when the continuation failed. */
  error?: string;
  /** Set when a person cancelled the run here: the reason they gave, if any. */
  cancelled?: { reason?: string };
  claim?: Claim;
}

/**
 * Create an in-memory store. Continuations are kept as JSON text, so what you load is a copy.
 *
 * @example
 * ```ts
 * const store = createMemoryStore();
 * await store.save(result.continuation);
 * ```
 */
export function createMemoryStore(): ContinuationStore {
  const leaseUntil = (leaseMs = DEFAULT_LEASE_MS) => new Date(Date.now() + leaseMs).toISOString();
  const rows = new Map<string, Row>();
  let seq = 0;

  const statusOf = (row: Row, now = Date.now()): StoredStatus => {
    if (row.cancelled) return 'cancelled';
    if (row.completed) return 'completed';
    if (row.error !== undefined) return 'failed';
    if (row.record.expiresAt && Date.parse(row.record.expiresAt) <= now) return 'expired';
    if (row.claim && Date.parse(row.claim.leaseUntil) > now) return 'claimed';
    return 'suspended';
  };

  const save = (continuation: Continuation, options: SaveOptions) => {
    const previous = rows.get(continuation.id);
    const body = JSON.stringify(continuation);
    rows.set(continuation.id, {
      seq: previous?.seq ?? ++seq,
      // Summarize a copy, so that changing the caller's object later changes nothing stored.
      record: summarize(JSON.parse(body), options.expiresAt) as Omit<StoredContinuation, 'status'>,
      body,
      completed: false,
    });
  };
  /** The row a claim holds: same token, not completed or failed (a lapsed lease nobody took still holds). */
  const held = (claim: Claim): Row => {
    const row = rows.get(claim.id);
    if (!row || row.claim?.token !== claim.token || row.completed || row.error !== undefined) {
      throw claimLost(claim);
    }
    return row;
  };
  const summaryOf = (row: Row): StoredSummary => {
    const { continuation: _, ...summary } = row.record as StoredContinuation;
    return {
      ...summary,
      metadata: cloneJson(summary.metadata),
      status: statusOf(row),
      ...(row.error === undefined ? {} : { error: row.error }),
      ...(row.cancelled?.reason === undefined ? {} : { reason: row.cancelled.reason }),
      // The claim stays on a completed row: its owner is who resumed it.
      ...(row.completed && row.claim ? { resumedBy: row.claim.owner } : {}),
    };
  };

  return {
    capabilities: { leases: true, expiry: true, multiProcess: false },
    async save(continuation: Continuation, options: SaveOptions = {}) {
      save(continuation, options);
    },
    async saveIfAbsent(continuation: Continuation, options: SaveOptions = {}) {
      // Validated first, so that a bad expiresAt is refused whether or not the id is taken.
      summarize(continuation, options.expiresAt);
      if (rows.has(continuation.id)) return false;
      save(continuation, options);
      return true;
    },
    async load(id) {
      const row = rows.get(id);
      if (!row) return undefined;
      return { ...summaryOf(row), continuation: JSON.parse(row.body) as Continuation };
    },
    async list(filter: ListFilter = {}): Promise<ListPage> {
      const limit = listLimit(filter.limit);
      const desc = listOrder(filter.order) === 'desc';
      const from = filter.cursor === undefined ? undefined : Number(listCursor(filter.cursor));
      const statuses = filter.status === undefined ? undefined : ([] as StoredStatus[]).concat(filter.status);
      const matches = [...rows.values()]
        .filter((row) => from === undefined || (desc ? row.seq < from : row.seq > from))
        .sort((a, b) => (desc ? b.seq - a.seq : a.seq - b.seq))
        .filter((row) => {
          const { record } = row;
          if (filter.agentName !== undefined && record.agentName !== filter.agentName) return false;
          if (filter.runId !== undefined && record.runId !== filter.runId) return false;
          if (statuses && !statuses.includes(statusOf(row))) return false;
          return metadataMatches(record.metadata, filter.metadata);
        });
      const page = matches.slice(0, limit);
      const items = page.map(summaryOf);
      return matches.length > limit ? { items, cursor: String(page[page.length - 1]!.seq) } : { items };
    },
    async delete(id) {
      return rows.delete(id);
    },
    async claim(id, options: ClaimOptions = {}) {
      const row = rows.get(id);
      if (!row) throw claimRefused(id, 'missing');
      const status = statusOf(row);
      if (status !== 'suspended') throw claimRefused(id, status, row.record.expiresAt, row.error);
      const claim: Claim = {
        id,
        owner: options.owner ?? 'memory',
        token: crypto.randomUUID(),
        leaseUntil: leaseUntil(options.leaseMs),
      };
      row.claim = claim;
      return claim;
    },
    async renew(claim, options = {}) {
      const row = held(claim);
      const renewed = { ...claim, leaseUntil: leaseUntil(options.leaseMs) };
      row.claim = renewed;
      return { ...renewed };
    },
    async complete(claim, options: CompleteOptions = {}) {
      const row = held(claim);
      const { next, cancelled, ...saveOptions } = options;
      // Validate what is saved before anything changes, so a refusal leaves the claim held.
      if (next) summarize(next, saveOptions.expiresAt);
      cancelWithout(next, cancelled);
      row.completed = true;
      if (cancelled) row.cancelled = { ...cancelled };
      if (next) save(next, saveOptions);
    },
    async release(claim) {
      delete held(claim).claim;
    },
    async fail(claim, error) {
      const row = held(claim);
      row.error = error;
      delete row.claim;
    },
    async retry(id) {
      const row = rows.get(id);
      if (!row || statusOf(row) !== 'failed') throw retryRefused(id, row ? statusOf(row) : 'missing');
      delete row.error;
    },
  };
}
