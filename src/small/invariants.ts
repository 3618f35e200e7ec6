import { evidenceOf, missingEvidenceMessage } from './evidence.js'
import { SmallRule, pushAll, type Finding } from './findings.js'
import { filePathOf, type SmallDocName } from './layout.js'
import { findSecrets, secretMessage } from './secrets.js'
import { compareInstants, parseTimestamp, type Instant } from './timestamp.js'

export interface DocumentCheckOptions {
  /** Strict mode: a suspected secret is an error instead of a warning. */
  readonly strict?: boolean
  /** Pointers the schema already reported; a value the schema rejected is not reported twice. */
  readonly flagged?: ReadonlySet<string>
}

/**
 * The invariants of SMALL.md that one document can be checked for on its own, beyond its schema:
 * no secrets (1), evidence on every progress entry (2), RFC 3339 timestamps with fractional
 * seconds, strictly increasing at full precision (the reference validator's rule), and unique ids.
 */
export function documentFindings(name: SmallDocName, data: unknown, options: DocumentCheckOptions = {}): Finding[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return []
  const file = filePathOf(name)
  const flagged = options.flagged ?? new Set<string>()
  const findings: Finding[] = []
  const doc = data as Record<string, unknown>
  if (name === 'progress' && Array.isArray(doc['entries'])) pushAll(findings, progressFindings(doc['entries'], flagged))
  if (name === 'plan' && Array.isArray(doc['tasks'])) pushAll(findings, uniqueIds(file, 'tasks', doc['tasks'], 'task'))
  if (name === 'constraints' && Array.isArray(doc['constraints'])) pushAll(findings, uniqueIds(file, 'constraints', doc['constraints'], 'constraint'))
  for (const hit of findSecrets(data)) {
    findings.push({ severity: options.strict ? 'error' : 'warning', file, pointer: hit.pointer, rule: SmallRule.SECRETS, message: secretMessage(hit) })
  }
  return findings
}

/** Evidence and timestamps of every entry; `entries[i]` is checked against the last good timestamp before it. */
export function progressFindings(entries: readonly unknown[], flagged: ReadonlySet<string> = new Set()): Finding[] {
  const file = filePathOf('progress')
  const findings: Finding[] = []
  let last: { instant: Instant; text: string; index: number } | null = null
  entries.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return
    const e = entry as Record<string, unknown>
    if (evidenceOf(e).length === 0) {
      findings.push({ severity: 'error', file, pointer: `/entries/${i}`, rule: SmallRule.EVIDENCE, message: missingEvidenceMessage(e) })
    }
    const pointer = `/entries/${i}/timestamp`
    if (flagged.has(pointer)) return
    const ts = e['timestamp']
    if (ts === undefined) {
      findings.push({ severity: 'error', file, pointer, rule: SmallRule.TIMESTAMP, message: 'timestamp is missing: every progress entry needs an RFC 3339 timestamp with fractional seconds, later than the entry before it' })
      return
    }
    const parsed = parseTimestamp(ts)
    if (!parsed.ok) {
      findings.push({ severity: 'error', file, pointer, rule: SmallRule.TIMESTAMP, message: `timestamp ${JSON.stringify(ts)} ${parsed.reason}` })
      return
    }
    if (!parsed.hasFraction) {
      findings.push({ severity: 'error', file, pointer, rule: SmallRule.TIMESTAMP, message: `timestamp "${String(ts)}" has no fractional seconds; write it with them, e.g. "${String(ts).replace(/(:\d{2})([Zz+-])/, '$1.000000000$2')}"` })
      return
    }
    if (last && compareInstants(parsed.instant, last.instant) <= 0) {
      findings.push({
        severity: 'error', file, pointer, rule: SmallRule.TIMESTAMP,
        message: `timestamp "${String(ts)}" is not after entry ${last.index}'s "${last.text}": progress timestamps must be strictly increasing (compared to the nanosecond)`,
      })
      return
    }
    last = { instant: parsed.instant, text: String(ts), index: i }
  })
  return findings
}

function uniqueIds(file: string, key: string, items: readonly unknown[], what: string): Finding[] {
  const first = new Map<string, number>()
  const findings: Finding[] = []
  items.forEach((item, i) => {
    const id = (item as Record<string, unknown> | null)?.['id']
    if (typeof id !== 'string') return
    const prior = first.get(id)
    if (prior === undefined) first.set(id, i)
    else {
      findings.push({ severity: 'error', file, pointer: `/${key}/${i}/id`, rule: SmallRule.UNIQUE_ID, message: `${what} id "${id}" is already used by /${key}/${prior}; ids must be unique` })
    }
  })
  return findings
}
