/**
 * The Lua scripts of the Redis store. Each runs atomically on the server, so a save keeps its
 * record and indexes consistent, and a claim checks and takes the lease in one step: among any
 * number of concurrent claimers exactly one wins. Times come from the server clock (`TIME`).
 *
 * A record is the hash `<prefix>c:<id>`; the sorted sets `<prefix>idx`, `<prefix>idx:run:<runId>`
 * and `<prefix>idx:agent:<name>` hold ids scored by the record's sequence number (`<prefix>seq`).
 */

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: record, seq, idx. ARGV: prefix, id, runId, agentName, metadata, createdAt, expiresAt ('' for none), body. */
export const SAVE = `
local old = redis.call('HMGET', KEYS[1], 'seq', 'run_id', 'agent_name')
local seq = old[1]
local p = ARGV[1]
if not seq then
  seq = redis.call('INCR', KEYS[2])
else
  if old[2] ~= ARGV[3] then redis.call('ZREM', p .. 'idx:run:' .. old[2], ARGV[2]) end
  if old[3] ~= ARGV[4] then redis.call('ZREM', p .. 'idx:agent:' .. old[3], ARGV[2]) end
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'seq', seq, 'id', ARGV[2], 'run_id', ARGV[3], 'agent_name', ARGV[4],
  'metadata', ARGV[5], 'created_at', ARGV[6], 'expires_at', ARGV[7], 'completed', '0', 'body', ARGV[8])
redis.call('ZADD', KEYS[3], seq, ARGV[2])
redis.call('ZADD', p .. 'idx:run:' .. ARGV[3], seq, ARGV[2])
redis.call('ZADD', p .. 'idx:agent:' .. ARGV[4], seq, ARGV[2])
return seq`;

/** KEYS: record, idx. ARGV: prefix, id. Returns 1 when deleted. */
export const DELETE = `
local f = redis.call('HMGET', KEYS[1], 'run_id', 'agent_name')
if not f[1] then return 0 end
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', ARGV[1] .. 'idx:run:' .. f[1], ARGV[2])
redis.call('ZREM', ARGV[1] .. 'idx:agent:' .. f[2], ARGV[2])
redis.call('DEL', KEYS[1])
return 1`;

/**
 * KEYS: record. ARGV: owner, token, leaseMs. Returns { 'ok', leaseUntil } or the refusal:
 * { 'missing' }, { 'completed' }, { 'expired', expiresAt } or { 'claimed' }.
 */
export const CLAIM = `
${NOW}
local f = redis.call('HMGET', KEYS[1], 'id', 'completed', 'expires_at', 'lease_until')
if not f[1] then return { 'missing' } end
if f[2] == '1' then return { 'completed' } end
if f[3] and f[3] ~= '' and tonumber(f[3]) <= now then return { 'expired', f[3] } end
if f[4] and f[4] ~= '' and tonumber(f[4]) > now then return { 'claimed' } end
local leaseUntil = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'claim_owner', ARGV[1], 'claim_token', ARGV[2], 'lease_until', tostring(leaseUntil))
return { 'ok', tostring(leaseUntil) }`;

/** KEYS: record. ARGV: token. Returns 1 when the claim was held and is now completed. */
export const COMPLETE = `
local f = redis.call('HMGET', KEYS[1], 'claim_token', 'completed')
if f[1] ~= ARGV[1] or f[2] == '1' then return 0 end
redis.call('HSET', KEYS[1], 'completed', '1')
return 1`;

/** KEYS: record. ARGV: token. Gives a held claim back. */
export const RELEASE = `
local f = redis.call('HMGET', KEYS[1], 'claim_token', 'completed')
if f[1] ~= ARGV[1] or f[2] == '1' then return 0 end
redis.call('HDEL', KEYS[1], 'claim_owner', 'claim_token', 'lease_until')
return 1`;
