import { MAX_AHEAD_MS, hlcWall } from '../core/clock.js'
import { entryDigest } from './append-only.js'
import { isSmallDocName } from './layout.js'
import { mayWrite, roleOf } from './ownership.js'
import { SMALL_DOC_KIND, SMALL_PROGRESS_KIND, type DocBody, type ProgressBody } from './state.js'
import { parseTimestamp } from './timestamp.js'
import { parseYaml } from './yaml-text.js'

/**
 * SMALL's rules for records that arrive from other replicas (a project shared through a pool).
 * The sync layer's materializer calls these over the pool's whole record set, so every replica
 * refuses the same records whatever order they came in:
 * - a version of a human-owned document (intent, constraints) authored by anyone the pool does not
 *   list as acting for a person (its owner and its `humans` policy);
 * - a `progress` document whose text carries an entry that no progress-entry record of the project
 *   holds: an edited (or invented) entry; progress is append-only (SMALL.md invariant 3), and an
 *   entry only ever exists as its own immutable record;
 * - a progress entry dated more than `MAX_AHEAD_MS` after its record's clock stamp: entries are
 *   strictly increasing, so every later entry of the project would be dated after it (one entry
 *   dated in year 9999 would date them all there). The record's stamp is itself held to the
 *   replicas' clocks (docs/sync.md, "Clocks"), so this bounds the entry's date the same way.
 */
export function isSmallDocBody(body: unknown): body is DocBody {
  const b = body as Partial<DocBody> | null
  return typeof b === 'object' && b !== null && typeof b.project === 'string' && isSmallDocName(b.name) &&
    typeof b.text === 'string' && (b.prev === null || typeof b.prev === 'string')
}

export function isSmallProgressBody(body: unknown): body is ProgressBody {
  const b = body as Partial<ProgressBody> | null
  return typeof b === 'object' && b !== null && typeof b.project === 'string' &&
    typeof b.entry === 'object' && b.entry !== null && !Array.isArray(b.entry) && typeof b.entry.task_id === 'string'
}

interface Candidate {
  readonly id: string
  readonly kind: string
  readonly author: string
  readonly body: unknown
  /** The record's clock stamp. */
  readonly hlc: string
}

/** Record id -> why SMALL refuses it, for the SMALL records among `records`. */
export function refuseSmallRecords(records: Iterable<Candidate>, humans: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>()
  const entries = new Map<string, Set<string>>() // project -> digests of its entry records
  const progressDocs: Array<{ id: string; project: string; text: string }> = []
  for (const r of records) {
    if (r.kind === SMALL_PROGRESS_KIND && isSmallProgressBody(r.body)) {
      const ahead = aheadOfStamp(r.body.entry.timestamp, r.hlc)
      if (ahead > MAX_AHEAD_MS) {
        out.set(r.id, `progress entry dated ${Math.round(ahead / 1000)} s after its record's clock stamp: every later entry would have to be dated after it`)
        continue
      }
      let set = entries.get(r.body.project)
      if (!set) entries.set(r.body.project, (set = new Set()))
      set.add(entryDigest(r.body.entry))
    } else if (r.kind === SMALL_DOC_KIND && isSmallDocBody(r.body)) {
      if (!mayWrite(r.body.name, roleOf(r.author, humans))) {
        out.set(r.id, `${r.body.name} is human-owned and ${r.author} is not the pool owner or in its humans policy`)
      } else if (r.body.name === 'progress') {
        progressDocs.push({ id: r.id, project: r.body.project, text: r.body.text })
      }
    }
  }
  for (const d of progressDocs) {
    const parsed = parseYaml(d.text)
    const listed = (parsed.data as { entries?: unknown } | undefined)?.entries
    if (!Array.isArray(listed)) continue
    const known = entries.get(d.project) ?? new Set<string>()
    const i = listed.findIndex((e) => !known.has(entryDigest(e)))
    if (i >= 0) out.set(d.id, `progress entry ${i} is not a recorded entry of project ${d.project}: progress is append-only, entries are never edited`)
  }
  return out
}

/** How many ms an entry's timestamp lies after its record's stamp (0 when it has none or it does not parse: other rules judge those). */
function aheadOfStamp(timestamp: unknown, hlc: string): number {
  if (timestamp === undefined) return 0
  const t = parseTimestamp(timestamp)
  return t.ok ? t.instant.seconds * 1000 - hlcWall(hlc) : 0
}
