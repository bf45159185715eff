/**
 * An in-memory {@link ContinuationStore}: for tests and single-process use.
 */
import { cloneJson } from './canonical';
import type { Continuation } from './format';
import {
  type Claim,
  type ClaimOptions,
  type ContinuationStore,
  DEFAULT_LEASE_MS,
  type ListFilter,
  type ListPage,
  metadataMatches,
  type SaveOptions,
  type StoredContinuation,
  type StoredStatus,
  summarize,
} from './store';
import { claimLost, claimRefused, listCursor, listLimit } from './store-kit';

interface Row {
  seq: number;
  record: Omit<StoredContinuation, 'status'>;
  body: string;
  completed: boolean;
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
  const rows = new Map<string, Row>();
  let seq = 0;

  const statusOf = (row: Row, now = Date.now()): StoredStatus => {
    if (row.completed) return 'completed';
    if (row.record.expiresAt && Date.parse(row.record.expiresAt) <= now) return 'expired';
    if (row.claim && Date.parse(row.claim.leaseUntil) > now) return 'claimed';
    return 'suspended';
  };

  return {
    capabilities: { leases: true, expiry: true, multiProcess: false },
    async save(continuation: Continuation, options: SaveOptions = {}) {
      const previous = rows.get(continuation.id);
      const body = JSON.stringify(continuation);
      rows.set(continuation.id, {
        seq: previous?.seq ?? ++seq,
        // Summarize a copy, so that changing the caller's object later changes nothing stored.
        record: summarize(JSON.parse(body), options.expiresAt) as Omit<StoredContinuation, 'status'>,
        body,
        completed: false,
      });
    },
    async load(id) {
      const row = rows.get(id);
      if (!row) return undefined;
      const { continuation: _, ...summary } = row.record as StoredContinuation;
      return { ...summary, status: statusOf(row), continuation: JSON.parse(row.body) as Continuation };
    },
    async list(filter: ListFilter = {}): Promise<ListPage> {
      const limit = listLimit(filter.limit);
      const after = Number(listCursor(filter.cursor));
      const statuses = filter.status === undefined ? undefined : ([] as StoredStatus[]).concat(filter.status);
      const matches = [...rows.values()]
        .filter((row) => row.seq > after)
        .sort((a, b) => a.seq - b.seq)
        .filter((row) => {
          const { record } = row;
          if (filter.agentName !== undefined && record.agentName !== filter.agentName) return false;
          if (filter.runId !== undefined && record.runId !== filter.runId) return false;
          if (statuses && !statuses.includes(statusOf(row))) return false;
          return metadataMatches(record.metadata, filter.metadata);
        });
      const page = matches.slice(0, limit);
      const items = page.map((row) => ({
        ...row.record,
        metadata: cloneJson(row.record.metadata),
        status: statusOf(row),
      }));
      return matches.length > limit ? { items, cursor: String(page[page.length - 1]!.seq) } : { items };
    },
    async delete(id) {
      return rows.delete(id);
    },
    async claim(id, options: ClaimOptions = {}) {
      const row = rows.get(id);
      if (!row) throw claimRefused(id, 'missing');
      const status = statusOf(row);
      if (status !== 'suspended') throw claimRefused(id, status, row.record.expiresAt);
      const claim: Claim = {
        id,
        owner: options.owner ?? 'memory',
        token: crypto.randomUUID(),
        leaseUntil: new Date(Date.now() + (options.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
      };
      row.claim = claim;
      return claim;
    },
    async complete(claim) {
      const row = rows.get(claim.id);
      if (!row || row.claim?.token !== claim.token || row.completed) {
        throw claimLost(claim);
      }
      row.completed = true;
    },
    async release(claim) {
      const row = rows.get(claim.id);
      if (row?.claim?.token === claim.token && !row.completed) delete row.claim;
    },
  };
}
