import { PoolKind, type TombstoneBody } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import type { Decoded } from './codec.js'
import { STRUCTURAL_KINDS } from './materialize.js'

/** What the planner reads of a pool's Y.Map. */
export interface RecordMap {
  has(key: string): boolean
  get(key: string): unknown
  entries(): IterableIterator<[string, unknown]>
}

/** A new value an incremental pass judges, decoded once. */
export interface Addition {
  readonly key: string
  readonly value: unknown
  readonly d: Decoded
}

/** What the planner knew after its last pass, as the incremental rules read it. */
export interface Judged {
  readonly pool: PoolId
  /** The values judged, by key. */
  readonly values: ReadonlyMap<string, unknown>
  /** Ids a signed tombstone names. */
  readonly targets: ReadonlySet<string>
  readonly forgotten: ReadonlySet<string>
}

/** Each key once: a Set as it is (a pass's slice is one; copying it cost a Set per pass of up to 50k keys). */
const distinct = (keys: Iterable<string>): Iterable<string> => (keys instanceof Set ? keys : new Set(keys))

/**
 * The document as the planner takes it: its entries, except that a `deferred` key (changed, and
 * left for a later pass by a bounded slice, materialize-step.ts) keeps the value it had when last judged, or
 * stays out if it was never judged. So a full pass costs what was taken, not what is pending.
 */
export function documentView(map: RecordMap, judged: ReadonlyMap<string, unknown> | null, deferred: ReadonlySet<string>): Array<[string, unknown]> {
  if (deferred.size === 0) return [...map.entries()]
  const out: Array<[string, unknown]> = []
  for (const [k, v] of map.entries()) {
    if (!deferred.has(k)) out.push([k, v])
    else if (judged?.has(k)) out.push([k, judged.get(k)])
  }
  // A deferred removal: the key is judged as it was until its pass comes.
  for (const k of deferred) if (!map.has(k) && judged?.has(k)) out.push([k, judged.get(k)])
  return out
}

/**
 * `documentView` without reading the whole document, once a pass has finished: every key the document
 * holds was then judged (`judged`) or changed since (the observer saw it: it is in `changed`,
 * or still `deferred`). A join's first pass used to walk 100k entries to keep the thousand it took.
 */
export function judgedView(
  changed: Iterable<string>, map: RecordMap, judged: ReadonlyMap<string, unknown>, deferred: ReadonlySet<string>,
): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = []
  for (const [k, v] of judged) {
    if (deferred.has(k)) out.push([k, v])
    else if (map.has(k)) out.push([k, map.get(k)])
  }
  for (const k of distinct(changed)) if (!judged.has(k) && !deferred.has(k) && map.has(k)) out.push([k, map.get(k)])
  return out
}

/**
 * The new values among `changed` and the forgotten keys that left the document, or null when the
 * pass must re-judge everything.
 */
export function additions(
  changed: Iterable<string>, map: RecordMap, decode: (key: string, value: unknown) => Decoded, judged: Judged,
): { added: Addition[]; removed: string[] } | null {
  const { values, pool } = judged
  const added: Addition[] = []
  const removed: string[] = []
  let named: Set<string> | null = null
  for (const key of distinct(changed)) {
    const present = map.has(key)
    if (values.has(key)) {
      if (present && map.get(key) === values.get(key)) continue
      // A forgotten memory's key leaving (this replica or a peer removing it after the tombstone)
      // changes nothing but the value judged; any other change or removal goes the full way (heal).
      if (present || !judged.forgotten.has(key) || !isPoolMemory(decode(key, values.get(key)), pool)) return null
      removed.push(key)
      continue
    }
    if (!present) continue
    const value = map.get(key)
    const d = decode(key, value)
    if (d.ok && d.record.pool === pool) {
      const { kind, id } = d.record
      if ((STRUCTURAL_KINDS.has(kind) && kind !== PoolKind.TOMBSTONE) || judged.targets.has(id)) return null
      if (kind === PoolKind.TOMBSTONE) for (const t of (d.record.body as TombstoneBody).targets) (named ??= new Set()).add(t.id)
    }
    added.push({ key, value, d })
  }
  // A tombstone and a record it names in one pass: which comes first decides, as in a full pass.
  if (named && added.some(({ key }) => named.has(key))) return null
  return { added, removed }
}

function isPoolMemory(d: Decoded, pool: PoolId): boolean {
  return d.ok && d.record.pool === pool && d.record.kind === PoolKind.MEMORY
}
