import { MAX_AHEAD_MS, MAX_WALL_MS, parseHlc, type HybridClock, type Hlc } from '../core/clock.js'
import type { StoredRecord } from '../storage/schema.js'

/**
 * Observes the latest stamp among many records (a load, a commit): stamps are fixed-width text that
 * sorts like the clock, so one string comparison per record and one decode in all, where
 * decoding each was a tenth of opening 100k facts. Only stamps the clock may adopt count: one
 * more than `MAX_AHEAD_MS` ahead of the wall clock (`now`), or outside the codec's range (a store
 * written before the codec checked it), is passed over, so the clock follows the latest admissible one.
 */
export function observeAll(clock: HybridClock, now: () => number, records: readonly StoredRecord[]): void {
  const limit = now() + MAX_AHEAD_MS
  if (!(limit >= 0)) return
  // The first text past every admissible stamp: wall `limit + 1`, counter 0, no node.
  const ceiling = `${(Math.min(Math.floor(limit), MAX_WALL_MS) + 1).toString(16).padStart(12, '0')}.000000`
  let latest: string | undefined
  for (const r of records) if (typeof r.hlc === 'string' && r.hlc < ceiling && (latest === undefined || r.hlc > latest)) latest = r.hlc
  if (latest === undefined) return
  const hlc = parseHlc(latest)
  if (hlc !== null && clock.observe(hlc)) return
  // The latest by text is no stamp (wider fields sort wrongly): decode each, rare.
  let best: Hlc | null = null
  for (const r of records) {
    const h = parseHlc(r.hlc)
    if (h !== null && (best === null || h.wall > best.wall || (h.wall === best.wall && h.counter > best.counter)) && h.wall <= limit) best = h
  }
  if (best !== null) clock.observe(best)
}
