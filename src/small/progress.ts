import { invalidArgument } from '../core/errors.js'
import { findingsError, type Finding } from './findings.js'
import { documentFindings } from './invariants.js'
import { SMALL_VERSION } from './layout.js'
import { schemaFindings } from './schema-check.js'
import { compareInstants, nextTimestamp, parseTimestamp, type Instant } from './timestamp.js'
import type { ProgressEntry } from './types.js'

/**
 * Making a new progress entry: the one write SMALL allows to progress (invariant 3). The entry gets
 * a timestamp when it has none (now, or one nanosecond after the last entry, never earlier), the
 * current run's replayId when it is run-bound (§6), and is checked in place, as entry N after the
 * existing ones: schema, evidence, timestamp strictly after the last one, secrets.
 */
export type ProgressEntryInput = Omit<ProgressEntry, 'timestamp'> & { readonly timestamp?: string }

export interface AppendContext {
  /** The entries so far (the new one goes after them). */
  readonly entries: readonly unknown[]
  /** Wall clock in ms. */
  readonly now: number
  /** The current run's replayId, stamped on run-bound entries that carry none. */
  readonly runId?: string | null
  readonly strict?: boolean
  /** A floor for a generated timestamp besides the entries: the last one this writer issued but may not have committed yet. */
  readonly issued?: Instant | null
}

export function lastInstant(entries: readonly unknown[]): Instant | null {
  let last: Instant | null = null
  for (const e of entries) {
    const ts = (e as { timestamp?: unknown } | null)?.timestamp
    const p = parseTimestamp(ts)
    if (p.ok && (last === null || compareInstants(p.instant, last) > 0)) last = p.instant
  }
  return last
}

/**
 * Builds and checks the entry to append.
 * @returns the entry and any warnings (a suspected secret outside strict mode).
 * @throws MemweaveError INVALID_ARGUMENT naming the file, `/entries/N/...` pointer and rule.
 */
export function prepareEntry(input: ProgressEntryInput, ctx: AppendContext): { entry: ProgressEntry; warnings: Finding[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalidArgument('entry', 'must be an object')
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Record<string, unknown>
  const taskId = given['task_id']
  const runBound = typeof taskId === 'string' && !taskId.startsWith('meta/')
  // Key order as a person reads an entry: what, when, which run, then the rest as given.
  const entry = {
    task_id: taskId,
    timestamp: given['timestamp'] ?? nextTimestamp(ctx.now, later(lastInstant(ctx.entries), ctx.issued ?? null)),
    ...(given['replayId'] !== undefined ? { replayId: given['replayId'] } : ctx.runId && runBound ? { replayId: ctx.runId } : {}),
    ...given,
  } as unknown as ProgressEntry
  const index = ctx.entries.length
  const doc = { small_version: SMALL_VERSION, owner: 'agent', entries: [...ctx.entries, entry] }
  const mine = (f: Finding): boolean => f.pointer === `/entries/${index}` || f.pointer.startsWith(`/entries/${index}/`)
  const schema = schemaFindings('progress', doc).filter(mine)
  const findings = [...schema, ...documentFindings('progress', doc, { strict: ctx.strict, flagged: new Set(schema.map((f) => f.pointer)) }).filter(mine)]
  const errors = findings.filter((f) => f.severity === 'error')
  if (errors.length > 0) throw findingsError(errors)
  return { entry, warnings: findings.filter((f) => f.severity === 'warning') }
}

function later(a: Instant | null, b: Instant | null): Instant | null {
  if (a === null) return b
  if (b === null) return a
  return compareInstants(a, b) >= 0 ? a : b
}
