import type { StoredRecord } from '../storage/schema.js'
import { SMALL_DOCS, isSmallDocName, type SmallDocName } from './layout.js'
import { mayWrite, roleOf } from './ownership.js'
import { compareInstants, parseTimestamp, type Instant } from './timestamp.js'
import type { ProgressEntry } from './types.js'

/** Record kinds of the SMALL module (DESIGN.md "Records"; the `small-` prefix keeps them apart from other modules'). */
export const SMALL_DOC_KIND = 'small-doc'
export const SMALL_PROGRESS_KIND = 'small-progress'

/** A version of a document: its YAML text, and the version it replaces. */
export interface DocBody {
  readonly project: string
  readonly name: SmallDocName
  readonly text: string
  readonly prev: string | null
}

/** One progress entry: never replaced, never removed. */
export interface ProgressBody {
  readonly project: string
  readonly entry: ProgressEntry
}

export interface DocVersion {
  readonly id: string
  readonly body: DocBody
  readonly author: string | null
  readonly hlc: string
}

export interface ProgressRecord {
  readonly id: string
  readonly entry: ProgressEntry
  readonly author: string | null
  readonly hlc: string
  readonly instant: Instant | null
}

/** What the materializer flags instead of deciding silently. */
export type SmallConflict =
  | { readonly kind: 'fork'; readonly project: string; readonly document: SmallDocName; readonly versions: readonly string[] }
  | { readonly kind: 'refused'; readonly project: string; readonly document: SmallDocName; readonly record: string; readonly author: string | null; readonly reason: string }

const slotKey = (project: string, name: string): string => `${project}\u0000${name}`

/**
 * The materialized SMALL state: a pure function of the record set, maintained incrementally.
 * The current version of a document is the head of its version chain (the version no other
 * version replaces); two heads are a fork, flagged, with the later one (by HLC) current. Progress
 * is the set of entry records in timestamp order: there is no record that edits or removes one,
 * and a record of a human-owned document by an agent is refused here too, not only at the API.
 */
export class SmallState {
  readonly #humans: ReadonlySet<string>
  readonly #docs = new Map<string, Map<string, DocVersion>>()
  readonly #progress = new Map<string, Map<string, ProgressRecord>>()
  /** Refused record id -> why. */
  readonly #refused = new Map<string, SmallConflict>()
  /** Every record applied -> its project ('' for a body without one), to forget it again. */
  readonly #seen = new Map<string, string>()
  /** Project -> its pooled records -> their pool: it travels in the pool of the first one seen. */
  readonly #pools = new Map<string, Map<string, string>>()

  constructor(humans: ReadonlySet<string>) {
    this.#humans = humans
  }

  clear(): void {
    this.#docs.clear()
    this.#progress.clear()
    this.#refused.clear()
    this.#seen.clear()
    this.#pools.clear()
  }

  /** Applies one record of any kind (other modules' kinds are ignored); idempotent. */
  apply(record: StoredRecord): void {
    if (record.kind !== SMALL_DOC_KIND && record.kind !== SMALL_PROGRESS_KIND) return
    if (this.#seen.has(record.id)) return
    const project = (record.body as { project?: unknown } | null)?.project
    this.#seen.set(record.id, typeof project === 'string' ? project : '')
    if (record.pool !== undefined && typeof project === 'string') mapOf(this.#pools, project).set(record.id, record.pool)
    if (record.kind === SMALL_DOC_KIND) this.#applyDoc(record)
    else this.#applyProgress(record)
  }

  #applyDoc(record: StoredRecord): void {
    const body = record.body as DocBody
    if (!body || typeof body.project !== 'string' || !isSmallDocName(body.name) || typeof body.text !== 'string') return
    // A shared project's record was judged by its pool's humans (by the API here, by src/sync's
    // materializer when it came from another replica); local configuration must not disagree.
    if (record.pool === undefined && !mayWrite(body.name, roleOf(record.author, this.#humans))) {
      this.#refused.set(record.id, {
        kind: 'refused', project: body.project, document: body.name, record: record.id, author: record.author,
        reason: `${body.name} is human-owned and ${record.author ?? 'an anonymous writer'} is not a configured human identity`,
      })
      return
    }
    mapOf(this.#docs, slotKey(body.project, body.name)).set(record.id, { id: record.id, body, author: record.author, hlc: record.hlc })
  }

  #applyProgress(record: StoredRecord): void {
    const body = record.body as ProgressBody
    if (!body || typeof body.project !== 'string' || typeof body.entry !== 'object' || body.entry === null) return
    const ts = parseTimestamp(body.entry.timestamp)
    mapOf(this.#progress, body.project).set(record.id, { id: record.id, entry: body.entry, author: record.author, hlc: record.hlc, instant: ts.ok ? ts.instant : null })
  }

  /**
   * Forgets a record that left storage (a pooled one the sync layer evicted, its author no longer
   * admitted by the pool), leaving the state a replica holding the other records derives: the
   * version it replaced is current again.
   */
  remove(id: string): void {
    const project = this.#seen.get(id)
    if (project === undefined) return
    this.#seen.delete(id)
    this.#refused.delete(id)
    for (const name of SMALL_DOCS) deleteFrom(this.#docs, slotKey(project, name), id)
    deleteFrom(this.#progress, project, id)
    deleteFrom(this.#pools, project, id)
  }

  #heads(project: string, name: SmallDocName): DocVersion[] {
    const slot = this.#docs.get(slotKey(project, name))
    if (!slot) return []
    const replaced = new Set<string>()
    for (const v of slot.values()) if (v.body.prev) replaced.add(v.body.prev)
    return [...slot.values()].filter((v) => !replaced.has(v.id)).sort(byHlc)
  }

  /** The pool a project is shared through, or null. */
  poolOf(project: string): string | null {
    const pooled = this.#pools.get(project)
    return pooled ? pooled.values().next().value! : null
  }

  /** The current version of a document, or null. */
  current(project: string, name: SmallDocName): DocVersion | null {
    return this.#heads(project, name).at(-1) ?? null
  }

  /** The progress entries of a project in order: by timestamp, then HLC, then id. */
  entries(project: string): ProgressRecord[] {
    return [...(this.#progress.get(project)?.values() ?? [])].sort((a, b) => {
      if (a.instant && b.instant) {
        const c = compareInstants(a.instant, b.instant)
        if (c !== 0) return c
      } else if (a.instant || b.instant) return a.instant ? -1 : 1
      return byHlc(a, b)
    })
  }

  conflicts(project: string): SmallConflict[] {
    const out: SmallConflict[] = []
    for (const key of this.#docs.keys()) {
      const [p, name] = key.split('\u0000') as [string, SmallDocName]
      if (p !== project) continue
      const heads = this.#heads(p, name)
      if (heads.length > 1) out.push({ kind: 'fork', project: p, document: name, versions: heads.map((h) => h.id) })
    }
    return [...out, ...[...this.#refused.values()].filter((r) => r.project === project)]
  }

  projects(): string[] {
    const names = new Set<string>()
    for (const key of this.#docs.keys()) names.add(key.split('\u0000')[0]!)
    for (const p of this.#progress.keys()) names.add(p)
    return [...names].sort()
  }
}

function mapOf<K, V>(maps: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let map = maps.get(key)
  if (!map) maps.set(key, (map = new Map()))
  return map
}

/** Deletes `id` from the map under `key`, and the map once it is empty (a project with nothing left is no project). */
function deleteFrom(maps: Map<string, Map<string, unknown>>, key: string, id: string): void {
  const map = maps.get(key)
  if (map?.delete(id) && map.size === 0) maps.delete(key)
}

function byHlc(a: { hlc: string; id: string }, b: { hlc: string; id: string }): number {
  return a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
