import { sha256 } from '@noble/hashes/sha2.js'
import { toHex, utf8 } from '../core/bytes.js'
import { canonicalJson } from '../core/ids.js'
import { SmallRule, type Finding } from './findings.js'
import { filePathOf } from './layout.js'

/**
 * SMALL.md invariant 3: progress is append-only. Given the entries as they were last known (the
 * stored entries, or the ledger memweave keeps in `.small-cache/`) and the entries now, every known
 * entry must still be there, unchanged and in its place; only new entries at the end are allowed.
 * Entries are compared by the SHA-256 of their canonical JSON (RFC 8785), so YAML re-formatting
 * is not an edit but any change of meaning is.
 */
export function entryDigest(entry: unknown): string {
  return toHex(sha256(utf8(canonicalJson(entry))))
}

export function checkAppendOnly(known: readonly string[], current: readonly unknown[]): Finding[] {
  const file = filePathOf('progress')
  const findings: Finding[] = []
  for (let i = 0; i < known.length; i++) {
    if (i >= current.length) {
      const missing = known.length - current.length
      findings.push({
        severity: 'error', file, pointer: `/entries/${i}`, rule: SmallRule.APPEND_ONLY,
        message:
          `${missing} recorded progress ${missing === 1 ? 'entry was' : 'entries were'} removed (from entry ${i} on): ` +
          `progress is append-only (SMALL.md invariant 3); restore ${missing === 1 ? 'it' : 'them'} and add a new entry instead`,
      })
      break
    }
    if (entryDigest(current[i]) !== known[i]) {
      findings.push({
        severity: 'error', file, pointer: `/entries/${i}`, rule: SmallRule.APPEND_ONLY,
        message:
          `entry ${i} differs from the entry recorded earlier: progress is append-only (SMALL.md invariant 3), ` +
          `so restore it and append a new entry that corrects it`,
      })
    }
  }
  return findings
}
