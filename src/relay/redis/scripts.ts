/**
 * Lua scripts run atomically by Redis: where the cluster needs a compare-and-set across keys.
 */

/**
 * Compaction. KEYS: snap, log, lease. ARGV: lease token, snapshot bytes, upto (the last log id the
 * snapshot covers), the snapshot `upto` the caller built on, MINID (the id after upto).
 *
 * Refuses ('lease') when the caller no longer holds the lease, and ('stale') when another node
 * compacted since the caller last merged a snapshot: the caller's document may then lack entries
 * that compaction trimmed, so its snapshot must not replace the newer one. Otherwise writes the
 * snapshot, trims the log ('full' when nothing of the old log is left, else 'ok') and appends a marker (`c` = upto) that tells every node to merge the new
 * snapshot (a node whose reader lagged may have missed trimmed entries).
 *
 * Trimming: when nothing follows upto, MAXLEN 0 frees every stream node, so no byte of a deleted
 * value survives in the stream (an exact MINID trim inside a node only flags entries deleted and
 * keeps their bytes until the whole node goes). When entries follow, MINID: the flagged bytes go
 * at a later compaction.
 */
export const COMPACT = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 'lease' end
local cur = redis.call('HGET', KEYS[1], 'upto') or '0-0'
if cur ~= ARGV[4] then return 'stale' end
redis.call('HSET', KEYS[1], 's', ARGV[2], 'upto', ARGV[3])
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local result = 'ok'
if #last == 0 or last[1][1] == ARGV[3] then
  redis.call('XTRIM', KEYS[2], 'MAXLEN', 0)
  result = 'full'
else
  redis.call('XTRIM', KEYS[2], 'MINID', ARGV[5])
end
redis.call('XADD', KEYS[2], '*', 'c', ARGV[3])
redis.call('DEL', KEYS[3])
return result
`

/**
 * Owner pin compare-and-set. KEYS: owner, log. ARGV: expected pin JSON ('' = none), new pin JSON.
 * Returns 'ok' (pinned, and a `p` entry in the log tells the other nodes), or the pin found.
 */
export const PIN = `
local cur = redis.call('GET', KEYS[1]) or ''
if cur ~= ARGV[1] then return cur end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('XADD', KEYS[2], '*', 'p', ARGV[2])
return 'ok'
`

/** Releases a lease only if still held by this token. KEYS: lease. ARGV: token. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`
