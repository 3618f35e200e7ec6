import type { StoredRecord } from '../storage/schema.js'
import { isSmallDocName, type SmallDocName } from './layout.js'
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
  readonly #refused: SmallConflict[] = []
  readonly #seen = new Set<string>()
  /** Project -> the pool its records travel in (the first pooled record seen). */
  readonly #pools = new Map<string, string>()

  constructor(humans: ReadonlySet<string>) {
    this.#humans = humans
  }

  clear(): void {
    this.#docs.clear()
    this.#progress.clear()
    this.#refused.length = 0
    this.#seen.clear()
    this.#pools.clear()
  }

  /** Applies one record of any kind (other modules' kinds are ignored); idempotent. */
  apply(record: StoredRecord): void {
    if (record.kind !== SMALL_DOC_KIND && record.kind !== SMALL_PROGRESS_KIND) return
    if (this.#seen.has(record.id)) return
    this.#seen.add(record.id)
    const project = (record.body as { project?: unknown } | null)?.project
    if (record.pool !== undefined && typeof project === 'string' && !this.#pools.has(project)) this.#pools.set(project, record.pool)
    if (record.kind === SMALL_DOC_KIND) this.#applyDoc(record)
    else this.#applyProgress(record)
  }

  #applyDoc(record: StoredRecord): void {
    const body = record.body as DocBody
    if (!body || typeof body.project !== 'string' || !isSmallDocName(body.name) || typeof body.text !== 'string') return
    // A shared project's record was judged by its pool's humans (by the API here, by src/sync's
    // materializer when it came from another replica); local configuration must not disagree.
    if (record.pool === undefined && !mayWrite(body.name, roleOf(record.author, this.#humans))) {
      this.#refused.push({
        kind: 'refused', project: body.project, document: body.name, record: record.id, author: record.author,
        reason: `${body.name} is human-owned and ${record.author ?? 'an anonymous writer'} is not a configured human identity`,
      })
      return
    }
    let slot = this.#docs.get(slotKey(body.project, body.name))
    if (!slot) this.#docs.set(slotKey(body.project, body.name), (slot = new Map()))
    slot.set(record.id, { id: record.id, body, author: record.author, hlc: record.hlc })
  }

  #applyProgress(record: StoredRecord): void {
    const body = record.body as ProgressBody
    if (!body || typeof body.project !== 'string' || typeof body.entry !== 'object' || body.entry === null) return
    let set = this.#progress.get(body.project)
    if (!set) this.#progress.set(body.project, (set = new Map()))
    const ts = parseTimestamp(body.entry.timestamp)
    set.set(record.id, { id: record.id, entry: body.entry, author: record.author, hlc: record.hlc, instant: ts.ok ? ts.instant : null })
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
    return this.#pools.get(project) ?? null
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
    return [...out, ...this.#refused.filter((r) => r.project === project)]
  }

  projects(): string[] {
    const names = new Set<string>()
    for (const key of this.#docs.keys()) names.add(key.split('\u0000')[0]!)
    for (const p of this.#progress.keys()) names.add(p)
    return [...names].sort()
  }
}

function byHlc(a: { hlc: string; id: string }, b: { hlc: string; id: string }): number {
  return a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
