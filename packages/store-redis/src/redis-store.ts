/**
 * The continuation store on Redis: a hash per record with the index fields in clear and the body
 * as canonical JSON text (or a ciphertext), sorted-set indexes for listing, and Lua scripts for
 * every write, so a claim has exactly one winner among any number of clients.
 */
import {
  type Claim,
  type ClaimOptions,
  type CompleteOptions,
  type Continuation,
  ContinuationError,
  type ContinuationStore,
  canonicalJson,
  DEFAULT_LEASE_MS,
  type Encryption,
  type JsonObject,
  type ListFilter,
  type ListPage,
  type RenewOptions,
  type SaveOptions,
  type StoredContinuation,
  type StoredStatus,
  type StoredSummary,
} from '@agent-continuations/core';
import {
  cancelWithout,
  claimLost,
  claimRefused,
  decodeStoredBody,
  encodeStoredBody,
  listCursor,
  listLimit,
  listOrder,
  metadataMatches,
  retryRefused,
  summarize,
} from '@agent-continuations/core/store-kit';
import { Redis } from 'ioredis';
import {
  CANCEL,
  CLAIM,
  COMPLETE,
  DELETE,
  FAIL,
  RELEASE,
  RENEW,
  RETRY,
  SAVE,
  SAVE_IF_ABSENT,
} from './scripts';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** A client to use; the store does not close it. */
  redis?: Redis;
  /** Or a URL (`redis://host:6379/0`): the store opens a client and quits it on `close()`. */
  url?: string;
  /**
   * Prefix of every key; `ac:` by default. On Redis Cluster use a hash tag, e.g. `{ac}:`, so that
   * a record and its indexes live in one slot.
   */
  prefix?: string;
  /** Encrypt bodies at rest (see `createEncryption` in the core). */
  encryption?: Encryption;
  /**
   * What to do when the server keeps nothing on disk (no RDB snapshots and no AOF), so that a
   * restart would lose every record and claim: checked before the store's first command.
   * `'require'` refuses with `INVALID_OPERATION`; `'warn'` (the default) tells `onWarning` once;
   * `'ignore'` does not check (a cache you can lose, tests). A server that refuses `CONFIG GET`
   * cannot be checked: `'require'` refuses, `'warn'` warns.
   */
  persistence?: 'require' | 'warn' | 'ignore';
  /** Where the persistence warning goes; `console.warn` by default. */
  onWarning?: (message: string) => void;
}

/** A {@link ContinuationStore} on Redis. */
export interface RedisStore extends ContinuationStore {
  readonly prefix: string;
  /** The key of the hash that holds record `id`, for inspection. */
  keyOf(id: string): string;
  /** The server's clock (`TIME`), by which leases, expiries and deadlines are judged. */
  now(): Promise<Date>;
  close(): Promise<void>;
}

/** The Lua scripts, as commands defined on the client. */
interface ScriptCommands {
  continuationStoreSave(...args: string[]): Promise<number>;
  continuationStoreSaveIfAbsent(...args: string[]): Promise<number>;
  continuationStoreDelete(...args: string[]): Promise<number>;
  continuationStoreClaim(...args: string[]): Promise<[string, string?]>;
  continuationStoreRenew(...args: string[]): Promise<number>;
  continuationStoreComplete(numberOfKeys: number, ...args: string[]): Promise<number>;
  continuationStoreRelease(...args: string[]): Promise<number>;
  continuationStoreFail(...args: string[]): Promise<number>;
  continuationStoreCancel(...args: string[]): Promise<number>;
  continuationStoreRetry(...args: string[]): Promise<number | string>;
}

const SUMMARY_FIELDS = [
  'id',
  'seq',
  'run_id',
  'agent_name',
  'metadata',
  'created_at',
  'expires_at',
  'completed',
  'lease_until',
  'failed',
  'error',
  'claim_owner',
  'cancelled',
] as const;
type Fields = Record<(typeof SUMMARY_FIELDS)[number], string | null>;

/**
 * Create a continuation store on Redis.
 *
 * @example
 * ```ts
 * const store = createRedisStore({ url: 'redis://127.0.0.1:6379', prefix: 'payroll:' });
 * await store.save(result.continuation);
 * const next = await resumeStored(store, agent, result.continuation.id, decisions);
 * ```
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  if ((options.redis === undefined) === (options.url === undefined)) {
    throw new ContinuationError(
      'INVALID_OPERATION',
      'createRedisStore needs exactly one of `redis` or `url`.',
    );
  }
  const prefix = options.prefix ?? 'ac:';
  const client = options.redis ?? new Redis(options.url!);
  const { encryption } = options;
  const scripts = [
    ['continuationStoreSave', SAVE, 3],
    ['continuationStoreSaveIfAbsent', SAVE_IF_ABSENT, 3],
    ['continuationStoreDelete', DELETE, 2],
    ['continuationStoreClaim', CLAIM, 1],
    ['continuationStoreRenew', RENEW, 1],
    ['continuationStoreRelease', RELEASE, 1],
    ['continuationStoreFail', FAIL, 1],
    ['continuationStoreCancel', CANCEL, 1],
    ['continuationStoreRetry', RETRY, 1],
  ] as const;
  for (const [name, lua, numberOfKeys] of scripts) client.defineCommand(name, { lua, numberOfKeys });
  // Its number of keys varies: with or without a next continuation.
  client.defineCommand('continuationStoreComplete', { lua: COMPLETE });
  const redis = client as Redis & ScriptCommands;
  const keyOf = (id: string) => `${prefix}c:${id}`;
  const index = `${prefix}idx`;
  const persistence = options.persistence ?? 'warn';
  const checkPersistence = async () => {
    let problem: string | undefined;
    try {
      const [, save] = (await client.config('GET', 'save')) as [string, string];
      const [, appendonly] = (await client.config('GET', 'appendonly')) as [string, string];
      if (save === '' && appendonly !== 'yes')
        problem =
          'it keeps nothing on disk (no RDB snapshots, appendonly no): a restart loses every continuation and claim';
    } catch (error) {
      problem = `its persistence could not be checked (CONFIG GET: ${(error as Error).message})`;
    }
    if (problem === undefined) return;
    const advice =
      "Turn on the AOF (appendonly yes, appendfsync everysec or always), or pass persistence: 'ignore' for data you may lose.";
    if (persistence === 'require')
      throw new ContinuationError(
        'INVALID_OPERATION',
        `The Redis store refuses this server: ${problem}. ${advice}`,
      );
    (options.onWarning ?? console.warn)(
      `agent-continuations: the Redis store's server: ${problem}. ${advice}`,
    );
  };
  let checked: Promise<void> | undefined;
  /** Resolves once the server's persistence was checked (a failed check is tried again). */
  const ready = () => {
    if (persistence === 'ignore') return Promise.resolve();
    checked ??= checkPersistence().catch((error: unknown) => {
      checked = undefined;
      throw error;
    });
    return checked;
  };
  /** A claim that no longer holds: lost to another worker, or its record gone from the server. */
  const notHeld = async (claim: Claim) =>
    (await redis.exists(keyOf(claim.id))) === 1 ? claimLost(claim) : recordLost(claim);
  const serverNow = async () => {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };

  /** The arguments of the save script after its keys. */
  const saveArgs = async (continuation: Continuation, saveOptions: SaveOptions) => {
    // summarize validates expiresAt (INVALID_OPERATION) before anything is written.
    const { expiresAt } = summarize(continuation, saveOptions.expiresAt);
    return [
      prefix,
      continuation.id,
      continuation.runId,
      continuation.agent.name,
      canonicalJson(continuation.metadata),
      continuation.createdAt,
      expiresAt === undefined ? '' : String(Date.parse(expiresAt)),
      await encodeStoredBody(continuation, encryption),
    ];
  };

  return {
    prefix,
    keyOf,
    capabilities: { leases: true, expiry: true, multiProcess: true },
    async now() {
      await ready();
      return new Date(await serverNow());
    },
    async save(continuation: Continuation, saveOptions: SaveOptions = {}) {
      await ready();
      const args = await saveArgs(continuation, saveOptions);
      await redis.continuationStoreSave(keyOf(continuation.id), `${prefix}seq`, index, ...args);
    },
    async saveIfAbsent(continuation: Continuation, saveOptions: SaveOptions = {}) {
      await ready();
      const args = await saveArgs(continuation, saveOptions);
      const saved = await redis.continuationStoreSaveIfAbsent(
        keyOf(continuation.id),
        `${prefix}seq`,
        index,
        ...args,
      );
      return saved === 1;
    },
    async load(id: string): Promise<StoredContinuation | undefined> {
      await ready();
      // One round trip, and the status is judged by the server clock like the claim script.
      const replies = await redis
        .multi()
        .hmget(keyOf(id), ...SUMMARY_FIELDS, 'body')
        .time()
        .exec();
      const [fieldsReply, timeReply] = (replies ?? []).map(([error, value]) => {
        if (error) throw error;
        return value;
      }) as [Array<string | null>, [string, string]];
      const fields = toFields(fieldsReply);
      if (fields.id === null) return undefined;
      const now = Number(timeReply[0]) * 1000 + Math.floor(Number(timeReply[1]) / 1000);
      const body = fieldsReply[SUMMARY_FIELDS.length]!;
      return { ...summaryOf(fields, now), continuation: await decodeStoredBody(body, id, encryption) };
    },
    async list(filter: ListFilter = {}): Promise<ListPage> {
      await ready();
      const limit = listLimit(filter.limit);
      const desc = listOrder(filter.order) === 'desc';
      // The last sequence number read: the next batch starts past it, in the listing's direction.
      let from = filter.cursor === undefined ? undefined : Number(listCursor(filter.cursor));
      // The narrowest index that the filter allows; the other filters are checked per record.
      const source =
        filter.runId !== undefined
          ? `${prefix}idx:run:${filter.runId}`
          : filter.agentName !== undefined
            ? `${prefix}idx:agent:${filter.agentName}`
            : index;
      const statuses = filter.status === undefined ? undefined : ([] as StoredStatus[]).concat(filter.status);
      const batch = Math.max(limit + 1, 100);
      const now = await serverNow();
      const matches: Array<StoredSummary & { seq: number }> = [];
      while (matches.length <= limit) {
        const scored = desc
          ? await redis.zrevrangebyscore(
              source,
              from === undefined ? '+inf' : `(${from}`,
              '-inf',
              'WITHSCORES',
              'LIMIT',
              0,
              batch,
            )
          : await redis.zrangebyscore(
              source,
              from === undefined ? '-inf' : `(${from}`,
              '+inf',
              'WITHSCORES',
              'LIMIT',
              0,
              batch,
            );
        const ids = scored.filter((_, i) => i % 2 === 0);
        if (ids.length === 0) break;
        const pipeline = redis.pipeline();
        for (const id of ids) pipeline.hmget(keyOf(id), ...SUMMARY_FIELDS);
        const replies = (await pipeline.exec()) ?? [];
        for (const [i, [error, reply]] of replies.entries()) {
          if (error) throw error;
          const seq = Number(scored[2 * i + 1]);
          from = seq;
          const fields = toFields(reply as Array<string | null>);
          // A record deleted since the index was read is skipped.
          if (fields.id === null) continue;
          const summary = summaryOf(fields, now);
          if (filter.agentName !== undefined && summary.agentName !== filter.agentName) continue;
          if (filter.runId !== undefined && summary.runId !== filter.runId) continue;
          if (statuses && !statuses.includes(summary.status)) continue;
          if (!metadataMatches(summary.metadata, filter.metadata)) continue;
          matches.push({ ...summary, seq });
          if (matches.length > limit) break;
        }
        if (ids.length < batch) break;
      }
      const page = matches.slice(0, limit);
      const items = page.map(({ seq: _, ...summary }) => summary);
      return matches.length > limit ? { items, cursor: String(page[page.length - 1]!.seq) } : { items };
    },
    async delete(id: string) {
      await ready();
      return (await redis.continuationStoreDelete(keyOf(id), index, prefix, id)) === 1;
    },
    async claim(id: string, claimOptions: ClaimOptions = {}): Promise<Claim> {
      await ready();
      const owner = claimOptions.owner ?? 'redis';
      const token = crypto.randomUUID();
      const leaseMs = String(Math.max(0, Math.round(claimOptions.leaseMs ?? DEFAULT_LEASE_MS)));
      const [result, detail] = await redis.continuationStoreClaim(keyOf(id), owner, token, leaseMs);
      if (result === 'ok') return { id, owner, token, leaseUntil: new Date(Number(detail)).toISOString() };
      if (result === 'missing') throw claimRefused(id, 'missing');
      if (result === 'expired') throw claimRefused(id, 'expired', new Date(Number(detail)));
      if (result === 'failed') throw claimRefused(id, 'failed', undefined, detail);
      // The script decided in one atomic step; claimRefused maps anything else to a conflict.
      throw claimRefused(id, result as StoredStatus);
    },
    async renew(claim: Claim, renewOptions: RenewOptions = {}): Promise<Claim> {
      await ready();
      const leaseMs = String(Math.max(0, Math.round(renewOptions.leaseMs ?? DEFAULT_LEASE_MS)));
      const leaseUntil = await redis.continuationStoreRenew(keyOf(claim.id), claim.token, leaseMs);
      if (leaseUntil === 0) throw await notHeld(claim);
      return { ...claim, leaseUntil: new Date(Number(leaseUntil)).toISOString() };
    },
    async complete(claim: Claim, completeOptions: CompleteOptions = {}) {
      await ready();
      const { next, cancelled, ...saveOptions } = completeOptions;
      cancelWithout(next, cancelled);
      const done = cancelled
        ? await redis.continuationStoreCancel(keyOf(claim.id), claim.token, cancelled.reason ?? '')
        : next
          ? await redis.continuationStoreComplete(
              4,
              keyOf(claim.id),
              keyOf(next.id),
              `${prefix}seq`,
              index,
              claim.token,
              ...(await saveArgs(next, saveOptions)),
            )
          : await redis.continuationStoreComplete(1, keyOf(claim.id), claim.token);
      if (done !== 1) throw await notHeld(claim);
    },
    async release(claim: Claim) {
      await ready();
      if ((await redis.continuationStoreRelease(keyOf(claim.id), claim.token)) !== 1)
        throw await notHeld(claim);
    },
    async fail(claim: Claim, error: string) {
      await ready();
      if ((await redis.continuationStoreFail(keyOf(claim.id), claim.token, error)) !== 1)
        throw await notHeld(claim);
    },
    async retry(id: string) {
      await ready();
      const result = await redis.continuationStoreRetry(keyOf(id));
      if (result === 1) return;
      // Only for the message: the script already refused atomically.
      throw retryRefused(id, result === 'missing' ? 'missing' : ((await this.load(id))?.status ?? 'missing'));
    },
    async close() {
      if (!options.redis) await client.quit();
    },
  };
}

function toFields(reply: Array<string | null>): Fields {
  return Object.fromEntries(SUMMARY_FIELDS.map((name, i) => [name, reply[i] ?? null])) as Fields;
}

function summaryOf(fields: Fields, now: number): StoredSummary {
  const expiresAt = fields.expires_at ? Number(fields.expires_at) : undefined;
  const status: StoredStatus =
    fields.cancelled === '1'
      ? 'cancelled'
      : fields.completed === '1'
        ? 'completed'
        : fields.failed === '1'
          ? 'failed'
          : expiresAt !== undefined && expiresAt <= now
            ? 'expired'
            : fields.lease_until && Number(fields.lease_until) > now
              ? 'claimed'
              : 'suspended';
  const summary: StoredSummary = {
    id: fields.id!,
    runId: fields.run_id!,
    agentName: fields.agent_name!,
    status,
    metadata: JSON.parse(fields.metadata!) as JsonObject,
    createdAt: fields.created_at!,
  };
  if (expiresAt !== undefined) summary.expiresAt = new Date(expiresAt).toISOString();
  if (status === 'failed' && fields.error !== null) summary.error = fields.error;
  if (status === 'cancelled' && fields.error) summary.reason = fields.error;
  // A completed (or cancelled) record keeps the owner of the claim that completed it.
  const ended = status === 'completed' || status === 'cancelled';
  if (ended && fields.claim_owner !== null) summary.resumedBy = fields.claim_owner;
  return summary;
}

/** The error for a claim whose record is gone: the server lost it, no other worker took it. */
function recordLost(claim: Claim): ContinuationError {
  return new ContinuationError(
    'RECORD_LOST',
    `The record of continuation "${claim.id}" vanished from Redis while "${claim.owner}" held its claim: no other worker took it, the server lost it (a restart without persistence, a restore from an older snapshot, an eviction or a flush). Nothing was written.`,
  );
}
