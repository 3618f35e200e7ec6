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
 *   <prefix>{<pool>}:aw     A pub/sub channel (no key): awareness updates between nodes, framed as
 *                           u8 length ‖ node instance ‖ y-protocols awareness update.
 */
export interface PoolKeys {
  readonly log: string
  readonly snap: string
  readonly owner: string
  readonly lease: string
  readonly awareness: string
}

export const DEFAULT_PREFIX = 'memweave:'

export function poolKeys(prefix: string, pool: string): PoolKeys {
  const base = `${prefix}{${pool}}`
  return { log: `${base}:log`, snap: `${base}:snap`, owner: `${base}:owner`, lease: `${base}:lease`, awareness: `${base}:aw` }
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
