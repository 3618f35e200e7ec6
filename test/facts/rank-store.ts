import { LexicalIndex } from '../../src/facts/lexical-index.js'
import { versionFromRecord, type FactBody, type Version } from '../../src/facts/version.js'
import { ReferenceLexicalIndex } from './lexical-reference.js'

/** Microseconds in an hour, and a write time to count from: the two rank property tests' clock. */
export const HOUR_US = 3_600_000_000
export const BASE = 1_700_000_000_000_000

export interface RankRow { readonly words: readonly string[]; readonly importance: number; readonly t: number; readonly validHours: number }

/**
 * Versions for the rank property tests (rank-one-pass, rank-selection): row i written at `t` ms
 * after BASE, valid `validHours` later, its text `content(row, i)`. Refs are `r<(i * 7919) % ids>`
 * and sequences `i` padded to `hlcWidth`: unrelated orders, so only the ranking's own tie-break decides.
 */
export function rankStore<R extends RankRow>(rows: readonly R[], content: (row: R, i: number) => string, ids: number, hlcWidth: number): Version[] {
  return rows.map((r, i) => {
    const writtenAt = BASE + r.t * 1000
    const body: FactBody = {
      content: content(r, i), factId: `f${i}`, structuredId: null,
      metadata: r.importance ? { importance: r.importance } : {}, validFrom: writtenAt + r.validHours * HOUR_US, writtenAt,
      supersedes: null, source: { writtenBy: null, signature: null, publicKey: null },
    }
    return versionFromRecord({ id: `r${(i * 7919) % ids}`, kind: 'fact', tenant: null, author: null, hlc: String(i).padStart(hlcWidth, '0'), body }, new Set())
  })
}

/**
 * Both indexes over `versions` (the real one and the reference), and the candidates: the versions
 * `live` keeps, marked live in the real index as retrieve() finds them.
 */
export function rankIndexes(versions: readonly Version[], live: (i: number) => boolean): { lexical: LexicalIndex; reference: ReferenceLexicalIndex; candidates: Version[] } {
  const lexical = new LexicalIndex(), reference = new ReferenceLexicalIndex()
  for (const v of versions) {
    lexical.add(v.ref, v.terms, v)
    reference.add(v.ref, v.terms)
  }
  const candidates = versions.filter((_, i) => live(i))
  for (const v of candidates) lexical.mark(v.ref, true)
  return { lexical, reference, candidates }
}
