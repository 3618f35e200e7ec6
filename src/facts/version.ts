import { canonicalObject, type FactObject } from '../core/ids.js'
import { memoByString } from '../core/string-memo.js'
import type { StoredRecord } from '../storage/schema.js'
import type { FactBody } from './fact-body.js'
import type { FactRef } from './types.js'
import { storedBody } from './stored-body.js'
import { charCost, terms } from './text.js'

export type { FactBody } from './fact-body.js'

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
// (as the stemming in text.ts). NFKC was a tenth of the work of opening 100k facts.
const norm = memoByString((s) => s.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' '))

/**
 * Metadata that names rather than says: who wrote (session, agent), and the pool memory a fact is
 * the view of (src/pools/fact-view.ts). An id is unique per fact: indexed, each added a term of
 * its own to the index (and a miss to the stemming cache) and matched no query a person writes.
 */
const NOT_SEARCHED = new Set(['importance', 'session_id', 'agent_id', 'pool', 'memoryId'])

/**
 * Index terms of the text ranking sees: the content and the metadata values a person would search
 * for, as `terms()` of them joined by line breaks. No word, fold or case rule reaches across a line
 * break, so that is the content's terms followed by each value's, and a value's terms are kept
 * (`valueTerms`): subjects, predicates and types recur across facts, and a pool's fact view
 * tokenized each of them once per fact (issue 31).
 */
function searchableTerms(body: FactBody): string[] {
  const out = terms(body.content)
  const metadata = body.metadata
  // Own keys in Object.entries' order, without its array of pairs per fact (issue 31, sixth round).
  for (const key in metadata) {
    if (!Object.hasOwn(metadata, key) || NOT_SEARCHED.has(key)) continue
    const value = metadata[key]
    if (typeof value !== 'string') continue
    for (const t of valueTerms(value)) out.push(t)
  }
  return out
}

// A long value is a sentence (a memory's context), seldom said twice: tokenized each time. Names
// and types are short and recur.
const valueTerms = memoByString((value): readonly string[] => terms(value), { longest: 40 })

/**
 * Slot keys by tenant, normalized subject and normalized predicate (bounded, SLOT_KEYS_MAX):
 * the facts of one slot share one key string instead of each joining its own, 40 bytes a fact
 * (issue 31). norm() hands out its cached strings, so the lookups hash strings already hashed.
 */
const SLOT_KEYS_MAX = 50_000
const slotCache = new Map<string, Map<string, Map<string, string>>>()
let slotCached = 0

function slotKey(tenant: string | null, subject: string, predicate: string): string {
  const t = tenant ?? ''
  let bySubject = slotCache.get(t)
  if (!bySubject) slotCache.set(t, (bySubject = new Map()))
  let byPredicate = bySubject.get(subject)
  if (!byPredicate) bySubject.set(subject, (byPredicate = new Map()))
  let key = byPredicate.get(predicate)
  if (key === undefined) {
    key = [t, subject, predicate].join('\u001f')
    if (slotCached >= SLOT_KEYS_MAX) {
      slotCache.clear()
      slotCached = 0
      return key
    }
    byPredicate.set(predicate, key)
    slotCached++
  }
  return key
}

export function importanceOf(metadata: Record<string, unknown>): number {
  const v = metadata['importance']
  return typeof v === 'number' && Number.isFinite(v) ? v : 0
}

/** Metadata whose values recur across facts (who and what a fact is about, who wrote it): kept once each. */
const RECURRING = ['subject', 'predicate', 'object', 'session_id', 'agent_id', 'pool'] as const
/** A recurring string as the one copy kept of it. */
const intern = memoByString((s) => s)
const NO_SOURCE: FactBody['source'] = Object.freeze({ writtenBy: null, signature: null, publicKey: null })

/**
 * Issue 31: a fact read from storage arrives as its own copy of every string and object in it, so
 * a million facts about 1,200 people held 1,200 names a million times over. Recurring metadata
 * values are swapped for one shared copy (bounded, as the caches above), and an unsigned fact's
 * all-null `source` for one shared object: the same values, held once (about 90 bytes a fact in
 * Chromium). Only bodies fresh from storage are touched; a body this handle wrote is frozen by the
 * record log (records are never edited) and already holds the writer's strings.
 */
function compactBody(body: FactBody): void {
  if (Object.isFrozen(body)) return
  const md = body.metadata as Record<string, unknown>
  if (!Object.isFrozen(md)) {
    for (const key of RECURRING) {
      const value = md[key]
      // Assigned whatever it was: `===` compares strings by content, so it cannot tell a copy from the kept one.
      if (typeof value === 'string') md[key] = shared(value)
    }
  }
  const src = body.source
  if (src === NO_SOURCE || src === null || typeof src !== 'object') return
  if (src.writtenBy === null && src.signature === null && src.publicKey === null) {
    ;(body as { source: FactBody['source'] }).source = NO_SOURCE
  } else if (!Object.isFrozen(src)) {
    // A signer's DID and public key recur on every fact it signed (a pool's fact view: every one).
    const s = src as { writtenBy: string | null; publicKey: string | null }
    s.writtenBy = shared(s.writtenBy)
    s.publicKey = shared(s.publicKey)
  }
}

function shared<T>(value: T): T {
  return typeof value === 'string' ? (intern(value) as T) : value
}

export function versionFromRecord(record: StoredRecord, multiValued: ReadonlySet<string>, ref: string = record.id): Version {
  const read = record.body as FactBody
  compactBody(read)
  const body = Object.isFrozen(read) ? read : storedBody(read)
  const { subject, predicate, object } = body.metadata as { subject?: unknown; predicate?: unknown; object?: unknown }
  let slot: string | null = null
  let objectKey: string | null = null
  if (typeof subject === 'string' && typeof predicate === 'string' && object !== undefined && !multiValued.has(norm(predicate))) {
    slot = slotKey(record.tenant, norm(subject), norm(predicate))
    objectKey = norm(canonicalObject(object as FactObject))
  }
  return new FactVersion(record, body, slot, objectKey, ref)
}

/**
 * Where a version sits among its tenant's current versions (src/facts/head-members.ts), -1 when it
 * is not current: a field on each version rather than an entry per fact in a map by ref. Every
 * Version FactState holds carries it (versionFromRecord).
 */
export interface HeadFlag {
  headSlot: number
}

/**
 * A Version whose index terms (and character cost) are computed when asked: a store opened from a lexical snapshot
 * (src/facts/lexical-snapshot.ts) never tokenizes the facts the snapshot already indexes, unless
 * one is removed or compared for free-text conflicts.
 */
class FactVersion implements Version, HeadFlag {
  readonly ref: FactRef
  readonly tenant: string | null
  readonly hlc: string
  readonly importance: number
  headSlot = -1

  /** `ref` equals `record.id`: an equal string held elsewhere already (FactState's open), so the id is not held twice. */
  constructor(record: StoredRecord, readonly body: FactBody, readonly slot: string | null, readonly objectKey: string | null, ref: string) {
    this.ref = ref as FactRef
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
    return searchableTerms(this.body)
  }

  /** Counted when packing reads it, not kept: packing reads a few versions a query, and a field was 4 B on every one. */
  get cost(): number {
    return charCost(this.body.content)
  }
}

/** Total order of versions: sequence, then ref. */
export function compareVersions(a: Version, b: Version): number {
  return a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0
}

export { norm as normalizeKey }
