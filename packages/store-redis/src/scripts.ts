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

/** A Lua function that writes a record and its indexes (a save replaces the record wholly). */
const SAVE_FUNCTION = `
local function save(record, seqKey, idx, p, id, runId, agentName, metadata, createdAt, expiresAt, body)
  local old = redis.call('HMGET', record, 'seq', 'run_id', 'agent_name')
  local seq = old[1]
  if not seq then
    seq = redis.call('INCR', seqKey)
  else
    if old[2] ~= runId then redis.call('ZREM', p .. 'idx:run:' .. old[2], id) end
    if old[3] ~= agentName then redis.call('ZREM', p .. 'idx:agent:' .. old[3], id) end
    redis.call('DEL', record)
  end
  redis.call('HSET', record, 'seq', seq, 'id', id, 'run_id', runId, 'agent_name', agentName,
    'metadata', metadata, 'created_at', createdAt, 'expires_at', expiresAt, 'completed', '0', 'body', body)
  redis.call('ZADD', idx, seq, id)
  redis.call('ZADD', p .. 'idx:run:' .. runId, seq, id)
  redis.call('ZADD', p .. 'idx:agent:' .. agentName, seq, id)
  return seq
end`;

/** KEYS: record, seq, idx. ARGV: prefix, id, runId, agentName, metadata, createdAt, expiresAt ('' for none), body. */
export const SAVE = `
${SAVE_FUNCTION}
return save(KEYS[1], KEYS[2], KEYS[3], unpack(ARGV))`;

/** As {@link SAVE}, only when the record does not exist. Returns 1 when saved, 0 when it existed. */
export const SAVE_IF_ABSENT = `
${SAVE_FUNCTION}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
save(KEYS[1], KEYS[2], KEYS[3], unpack(ARGV))
return 1`;

/** KEYS: record, idx. ARGV: prefix, id. Returns 1 when deleted. */
export const DELETE = `
local f = redis.call('HMGET', KEYS[1], 'run_id', 'agent_name')
if not f[1] then return 0 end
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', ARGV[1] .. 'idx:run:' .. f[1], ARGV[2])
redis.call('ZREM', ARGV[1] .. 'idx:agent:' .. f[2], ARGV[2])
redis.call('DEL', KEYS[1])
return 1`;

/** Whether the claim of token ARGV[1] holds record KEYS[1]: a lapsed lease that nobody took still holds. */
const HELD = `
local held = redis.call('HMGET', KEYS[1], 'claim_token', 'completed', 'failed')
if held[1] ~= ARGV[1] or held[2] == '1' or held[3] == '1' then return 0 end`;

/**
 * KEYS: record. ARGV: owner, token, leaseMs. Returns { 'ok', leaseUntil } or the refusal:
 * { 'missing' }, { 'cancelled' }, { 'completed' }, { 'failed', error }, { 'expired', expiresAt } or { 'claimed' }.
 */
export const CLAIM = `
${NOW}
local f = redis.call('HMGET', KEYS[1], 'id', 'completed', 'expires_at', 'lease_until', 'failed', 'error', 'cancelled')
if not f[1] then return { 'missing' } end
if f[7] == '1' then return { 'cancelled' } end
if f[2] == '1' then return { 'completed' } end
if f[5] == '1' then return { 'failed', f[6] or '' } end
if f[3] and f[3] ~= '' and tonumber(f[3]) <= now then return { 'expired', f[3] } end
if f[4] and f[4] ~= '' and tonumber(f[4]) > now then return { 'claimed' } end
local leaseUntil = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'claim_owner', ARGV[1], 'claim_token', ARGV[2], 'lease_until', tostring(leaseUntil))
return { 'ok', tostring(leaseUntil) }`;

/** KEYS: record. ARGV: token, leaseMs. Returns the new lease end, or 0 when the claim is not held. */
export const RENEW = `
${NOW}
${HELD}
local leaseUntil = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'lease_until', tostring(leaseUntil))
return leaseUntil`;

/**
 * KEYS: record, and for a next continuation: its record, seq, idx. ARGV: token, then the next
 * continuation's save arguments (as {@link SAVE}) if any. Returns 1 when the claim was held and
 * is now completed (and the next continuation saved).
 */
export const COMPLETE = `
${SAVE_FUNCTION}
${HELD}
redis.call('HSET', KEYS[1], 'completed', '1')
if KEYS[2] then save(KEYS[2], KEYS[3], KEYS[4], unpack(ARGV, 2)) end
return 1`;

/**
 * KEYS: record. ARGV: token, reason ('' for none). Ends the run at a held claim's record: completed
 * and cancelled, the reason kept in 'error'; 0 when the claim is not held.
 */
export const CANCEL = `
${HELD}
redis.call('HSET', KEYS[1], 'completed', '1', 'cancelled', '1', 'error', ARGV[2])
return 1`;

/** KEYS: record. ARGV: token. Gives a held claim back; 0 when it is not held. */
export const RELEASE = `
${HELD}
redis.call('HDEL', KEYS[1], 'claim_owner', 'claim_token', 'lease_until')
return 1`;

/** KEYS: record. ARGV: token, error. Marks a held claim's record failed; 0 when it is not held. */
export const FAIL = `
${HELD}
redis.call('HDEL', KEYS[1], 'claim_owner', 'claim_token', 'lease_until')
redis.call('HSET', KEYS[1], 'failed', '1', 'error', ARGV[2])
return 1`;

/** KEYS: record. Makes a failed record claimable again. Returns 1, or the status that refuses: 'missing', 'completed', 'other'. */
export const RETRY = `
local f = redis.call('HMGET', KEYS[1], 'id', 'completed', 'failed')
if not f[1] then return 'missing' end
if f[2] == '1' then return 'completed' end
if f[3] ~= '1' then return 'other' end
redis.call('HDEL', KEYS[1], 'failed', 'error')
return 1`;
