/**
 * Every Redis key a cluster relay uses. A pool's keys share the hash tag `{<pool>}`, so they land in
 * one slot and the multi-key scripts (scripts.ts) stay valid on a Redis Cluster too.
 *
 *   <prefix>{<pool>}:log    Stream: the pool's updates since its snapshot, in order. Entries:
 *                           `u` = a Yjs V1 update, `n` = the writing node instance;
 *                           `p` = an owner pin (JSON), written when a pin changes;
 *                           `c` = a compaction marker: the snapshot now covers the log up to this id.
 *   <prefix>{<pool>}:snap   Hash: `s` = the compacted document (one Yjs update, gc on), `upto` = the
 *                           last log id it covers; `v` = its format (absent: 1), which a
 *                           later format writes and this build refuses when newer (issue 28).
 *   <prefix>{<pool>}:owner  String: the owner pin, `{"v":1,"owner","source","at"}` as owner.json.
 *   <prefix>{<pool>}:lease  String: the compaction lease, held by one node instance with an expiry.
 *   <prefix>{<pool>}:sweep  String: which node sweeps the pool now (cluster-rooms.ts), with an expiry,
 *                           so that one node loads a pool left uncompacted, not every node at once.
 *   <prefix>{<pool>}:aw     A pub/sub channel (no key): awareness updates between nodes, framed as
 *                           u8 length ‖ node instance ‖ y-protocols awareness update.
 */
/**
 * Keys of the whole cluster (no hash tag: each is used alone, never in a script with a pool's keys):
 *
 *   <prefix>pins      Stream: every pin change of any pool (`pool`, `pin`), read by every node into
 *                     its own copy of the pins (pin-copy.ts), capped at about 100,000 entries.
 *   <prefix>compact   Sorted set: pools whose log holds updates no compaction has folded yet, scored
 *                     by the time of the last append; any node compacts those quiet for a while
 *                     (a node that appended may have died before its idle compaction).
 */
export interface ClusterKeys {
  readonly pins: string
  readonly compact: string
}

export function clusterKeys(prefix: string): ClusterKeys {
  return { pins: `${prefix}pins`, compact: `${prefix}compact` }
}

export interface PoolKeys {
  readonly log: string
  readonly snap: string
  readonly owner: string
  readonly lease: string
  readonly sweep: string
  readonly awareness: string
}

export const DEFAULT_PREFIX = 'memweave:'

export function poolKeys(prefix: string, pool: string): PoolKeys {
  const base = `${prefix}{${pool}}`
  return { log: `${base}:log`, snap: `${base}:snap`, owner: `${base}:owner`, lease: `${base}:lease`, sweep: `${base}:sweep`, awareness: `${base}:aw` }
}

/** The smallest stream id after `id` (`ms-seq`): XTRIM MINID keeps ids at or above it. */
export function nextId(id: string): string {
  const [ms, seq] = id.split('-')
  return `${ms}-${BigInt(seq ?? '0') + 1n}`
}

/** Whether stream id `a` comes after `b`. */
export function idAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map((x) => BigInt(x))
  const [bm, bs] = b.split('-').map((x) => BigInt(x))
  return am! > bm! || (am === bm && as! > bs!)
}
