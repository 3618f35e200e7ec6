import { canonicalObject, type FactObject } from '../core/ids.js'
import type { StoredRecord } from '../storage/schema.js'
import type { FactRef } from './types.js'
import { charCost, terms } from './text.js'

/** The body of a `fact` record: everything a write said, immutable once stored. */
export interface FactBody {
  readonly content: string
  readonly factId: string
  readonly structuredId: string | null
  readonly metadata: Record<string, unknown>
  /** Valid-time start, µs since epoch. */
  readonly validFrom: number
  /** Write time, µs since epoch. */
  readonly writtenAt: number
  /** The ref this version supersedes, if any. */
  readonly supersedes: string | null
  readonly source: { readonly writtenBy: string | null; readonly signature: string | null; readonly publicKey: string | null }
}

/** The body of a `tombstone` record: no content, only the links needed to repair a chain. */
export interface TombstoneBody {
  readonly target: string
  readonly supersedes: string | null
}

/** A fact-version as the materializer holds it: the record plus what ranking needs, computed once. */
export interface Version {
  readonly ref: FactRef
  readonly tenant: string | null
  readonly hlc: string
  readonly body: FactBody
  readonly terms: readonly string[]
  readonly cost: number
  readonly importance: number
  /** `tenant␟subject␟predicate` for structured single-valued facts, else null. */
  readonly slot: string | null
  readonly objectKey: string | null
}

// Subjects, predicates and objects recur across facts: each distinct string is normalized once
// (bounded, as the stemming cache in text.ts). NFKC was a tenth of the work of opening 100k facts.
const NORM_CACHE_MAX = 50_000
const normCache = new Map<string, string>()

function norm(s: string): string {
  let n = normCache.get(s)
  if (n !== undefined) return n
  n = s.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ')
  if (normCache.size >= NORM_CACHE_MAX) normCache.clear()
  normCache.set(s, n)
  return n
}

/**
 * Metadata that names rather than says: who wrote (session, agent), and the pool memory a fact is
 * the view of (src/pools/fact-view.ts). An id is unique per fact: indexed, each added a term of
 * its own to the index (and a miss to the stemming cache) and matched no query a person writes.
 */
const NOT_SEARCHED = new Set(['importance', 'session_id', 'agent_id', 'pool', 'memoryId'])

/** Text that ranking sees: the content and the metadata values a person would search for. */
function searchableText(body: FactBody): string {
  const parts = [body.content]
  for (const [key, value] of Object.entries(body.metadata)) {
    if (NOT_SEARCHED.has(key)) continue
    if (typeof value === 'string') parts.push(value)
  }
  return parts.join('\n')
}

export function importanceOf(metadata: Record<string, unknown>): number {
  const v = metadata['importance']
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

export function versionFromRecord(record: StoredRecord, multiValued: ReadonlySet<string>): Version {
  const body = record.body as FactBody
  const { subject, predicate, object } = body.metadata as { subject?: unknown; predicate?: unknown; object?: unknown }
  let slot: string | null = null
  let objectKey: string | null = null
  if (typeof subject === 'string' && typeof predicate === 'string' && object !== undefined && !multiValued.has(norm(predicate))) {
    slot = [record.tenant ?? '', norm(subject), norm(predicate)].join('\u001f')
    objectKey = norm(canonicalObject(object as FactObject))
  }
  return new FactVersion(record, body, slot, objectKey)
}

/**
 * A Version whose index terms (and character cost) are computed when asked: a store opened from a lexical snapshot
 * (src/facts/lexical-snapshot.ts) never tokenizes the facts the snapshot already indexes, unless
 * one is removed or compared for free-text conflicts.
 */
class FactVersion implements Version {
  readonly ref: FactRef
  readonly tenant: string | null
  readonly hlc: string
  readonly importance: number
  #cost = -1

  constructor(record: StoredRecord, readonly body: FactBody, readonly slot: string | null, readonly objectKey: string | null) {
    this.ref = record.id as FactRef
    this.tenant = record.tenant
    this.hlc = record.hlc
    this.importance = importanceOf(body.metadata)
  }

  /**
   * Computed each time it is asked, not kept: the lexical index holds them once it has them, and
   * the other readers (a removal, a free-text comparison) are rare. Kept, they were 40 MB of every
   * 100k facts.
   */
  get terms(): readonly string[] {
    return terms(searchableText(this.body))
  }

  /** Counted when packing first reads it: most versions of a big store are never packed. */
  get cost(): number {
    if (this.#cost < 0) this.#cost = charCost(this.body.content)
    return this.#cost
  }
}

/** Total order of versions: sequence, then ref. */
export function compareVersions(a: Version, b: Version): number {
  return a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0
}

export { norm as normalizeKey }
