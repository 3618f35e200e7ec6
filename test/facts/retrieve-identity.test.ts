import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { LexicalIndex } from '../../src/facts/lexical-index.js'
import { pack, rank } from '../../src/facts/rank.js'
import type { RankParams } from '../../src/facts/types.js'
import type { FactMemory } from '../../src/facts/types.js'
import { parseTime } from '../../src/core/time.js'
import { versionFromRecord, type FactBody, type Version } from '../../src/facts/version.js'
import { ReferenceLexicalIndex } from './lexical-reference.js'
import { pack as referencePack, rank as referenceRank } from './rank-reference.js'

/**
 * Issue 15: retrieve() starts from the lexical postings and the write-ordered heads instead of
 * ranking every current fact. It must answer exactly as before: the same memories, in the same
 * order, cut at the same place. The reference is the ranking code as it was (test/facts/rank-reference.ts),
 * fed with candidates and a lexical index rebuilt from audit(), that is from the public API only.
 */

const WORDS = ['lemon', 'cake', 'garden', 'tomato', 'dentist', 'friday', 'north', 'blue', 'widget', 'paris']
const MULTI = 'likes'
const START = Date.UTC(2025, 0, 1)
const HOUR = 3_600_000

type Op =
  | { readonly type: 'write'; readonly words: string[]; readonly tenant: string | null; readonly importance: number | null; readonly validDay: number | null; readonly triple: readonly [string, string, string] | null }
  | { readonly type: 'supersede'; readonly pick: number; readonly words: string[]; readonly validDay: number | null }
  | { readonly type: 'delete'; readonly pick: number }
  | { readonly type: 'tick'; readonly ms: number }
  /** A retrieve between writes: later edits then update the kept write order in place. */
  | { readonly type: 'query'; readonly q: Query }

interface Query {
  readonly words: string[]
  readonly tenant: string | null
  readonly asOfDay: number | null
  readonly budget: number
  readonly topK: number | null
}

const words = fc.array(fc.constantFrom(...WORDS, 'zzz-unseen'), { minLength: 0, maxLength: 5 })
const tenant = fc.constantFrom<string | null>(null, null, 't1', 't2')
const day = fc.option(fc.integer({ min: 0, max: 6 }), { nil: null })
const query: fc.Arbitrary<Query> = fc.record({
  words, tenant,
  asOfDay: fc.option(fc.integer({ min: 0, max: 7 }), { nil: null, freq: 3 }),
  budget: fc.constantFrom(0, 15, 60, 200, 600, 1_000_000),
  topK: fc.option(fc.constantFrom(1, 3, 50), { nil: null }),
})
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    type: fc.constant('write' as const), words, tenant,
    importance: fc.option(fc.constantFrom(0, 0.5, 1, 3), { nil: null }),
    validDay: day,
    triple: fc.option(fc.tuple(fc.constantFrom('alice', 'bob'), fc.constantFrom(MULTI, 'lives_in'), fc.constantFrom(...WORDS)), { nil: null }),
  }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('supersede' as const), pick: fc.nat(), words, validDay: day }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), pick: fc.nat() }) },
  // 0 keeps the clock still: equal write times, ordered by sequence. Hours split episodes (contextGap).
  { weight: 2, arbitrary: fc.record({ type: fc.constant('tick' as const), ms: fc.constantFrom(0, 1, 1000, 2 * HOUR) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('query' as const), q: query }) },
)
const ranking = fc.constantFrom<Partial<RankParams> | undefined>(undefined, { contextSources: 2 }, { contextReach: 1 }, { context: 0 }, { contextReach: 3, contextDecay: 0.5 })

const dayIso = (n: number): string => new Date(Date.UTC(2024, 0, 1 + n) + n * 7 * 60_000).toISOString()

/** A Version rebuilt from what audit() shows: everything ranking reads. */
function versionOf(m: FactMemory, multiValued: ReadonlySet<string>): Version {
  const body: FactBody = {
    content: m.content,
    factId: m.factId,
    structuredId: m.structuredId,
    metadata: { ...m.metadata },
    validFrom: parseTime(m.validFrom!, 'validFrom'),
    writtenAt: parseTime(m.writtenAt, 'writtenAt'),
    supersedes: null,
    source: { writtenBy: null, signature: null, publicKey: null },
  }
  return versionFromRecord({ id: m.ref, kind: 'fact', tenant: m.tenantId, author: null, hlc: m.sequence, body }, multiValued)
}

/** What retrieve() answered before issue 15, computed by the reference ranking. */
function referenceRetrieve(audit: readonly FactMemory[], q: Query, params: Partial<RankParams> | undefined): string[] {
  const mine = audit.filter((m) => m.tenantId === q.tenant)
  const lexical = new ReferenceLexicalIndex()
  const multiValued = new Set([MULTI])
  const versions = mine.map((m) => versionOf(m, multiValued))
  for (const v of versions) lexical.add(v.ref, v.terms)
  const at = q.asOfDay === null ? null : parseTime(dayIso(q.asOfDay), 'asOf')
  const candidates = versions.filter((v, i) => {
    const m = mine[i]!
    if (at === null) return m.supersededBy === null
    return v.body.validFrom <= at && (m.validUntil === null || at < parseTime(m.validUntil, 'validUntil'))
  })
  return referencePack(referenceRank(q.words.join(' '), candidates, { lexical, params }), q.budget, q.topK).map((v) => v.ref)
}

async function run(ops: readonly Op[], queries: readonly Query[], params: Partial<RankParams> | undefined): Promise<void> {
  let tick = START
  const mem = await createMemory({ storage: 'memory', now: () => tick, facts: { multiValuedPredicates: [MULTI], ranking: params } })
  try {
    const refs: string[] = []
    const check = async (q: Query): Promise<void> => {
      const audit = await mem.facts.audit()
      const got = await mem.facts.retrieve(q.words.join(' '), {
        tenantId: q.tenant, asOf: q.asOfDay === null ? null : dayIso(q.asOfDay), budgetTokens: q.budget, topK: q.topK ?? undefined,
      })
      expect(got.map((m) => m.ref), JSON.stringify(q)).toEqual(referenceRetrieve(audit, q, params))
    }
    for (const o of ops) {
      if (o.type === 'tick') tick += o.ms
      else if (o.type === 'query') await check(o.q)
      else if (o.type === 'write') {
        const metadata: Record<string, unknown> = {}
        if (o.importance !== null) metadata['importance'] = o.importance
        if (o.triple) [metadata['subject'], metadata['predicate'], metadata['object']] = o.triple
        const content = `${o.words.join(' ')} note ${refs.length}`
        refs.push(await mem.facts.write(content, { tenantId: o.tenant, metadata, validFrom: o.validDay === null ? null : dayIso(o.validDay) }))
      } else if (refs.length > 0) {
        const ref = refs[o.pick % refs.length]!
        // Superseding or deleting a version that is gone or already superseded may be refused: the
        // store's answer is what it is, and the comparison below runs on whatever state results.
        try {
          if (o.type === 'delete') await mem.facts.delete(ref)
          else refs.push(await mem.facts.supersede(ref, `${o.words.join(' ')} update ${refs.length}`, { validFrom: o.validDay === null ? null : dayIso(o.validDay) }))
        } catch {
          /* refused: nothing changed */
        }
      }
    }
    for (const q of queries) await check(q)
  } finally {
    await mem.close()
  }
}

describe('retrieve() from the index answers exactly as the full ranking did (issue 15)', () => {
  test('random stores: writes, supersessions, deletes, tenants, asOf, budgets and topK', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 0, maxLength: 80, size: 'large' }), fc.array(query, { minLength: 1, maxLength: 8 }), ranking, run),
      { numRuns: 200 },
    )
  }, 120_000)

  test('many matches and a long zero-score tail: the budget reaches into the tail', async () => {
    const ops: Op[] = []
    for (let i = 0; i < 300; i++) {
      ops.push({ type: 'write', words: i % 7 === 0 ? ['lemon'] : ['garden'], tenant: null, importance: i % 5 === 0 ? 1 : null, validDay: null, triple: null })
      ops.push({ type: 'tick', ms: i % 3 === 0 ? 0 : 1000 })
      if (i % 11 === 0) ops.push({ type: 'supersede', pick: i * 7, words: ['lemon', 'cake'], validDay: null })
      if (i % 13 === 0) ops.push({ type: 'delete', pick: i * 3 })
    }
    const queries: Query[] = [
      { words: ['lemon'], tenant: null, asOfDay: null, budget: 1_000_000, topK: null },
      { words: ['lemon'], tenant: null, asOfDay: null, budget: 3000, topK: null },
      { words: ['lemon', 'garden'], tenant: null, asOfDay: null, budget: 500, topK: 40 },
      { words: ['zzz-unseen'], tenant: null, asOfDay: null, budget: 400, topK: null },
      { words: [], tenant: null, asOfDay: null, budget: 1_000_000, topK: null },
    ]
    await run(ops, queries, undefined)
    await run(ops, queries, { contextSources: 5 })
  }, 60_000)

  test('rank() over thousands of equal scores: the order among them is importance, recency, ref, as before', () => {
    // Far more ties than the lazy order reads in one round, so it must split them on the numeric keys.
    const versions = Array.from({ length: 3000 }, (_, i) => {
      const writtenAt = 1_700_000_000_000_000 + (i % 9) * 1000
      const body: FactBody = {
        content: i % 5 === 0 ? `lemon cake garden row` : `lemon garden row`, factId: `f${i}`, structuredId: null,
        metadata: { importance: [0, 1, 3][(i * 7) % 3]! }, validFrom: writtenAt + (i % 4) * HOUR * 1000, writtenAt,
        supersedes: null, source: { writtenBy: null, signature: null, publicKey: null },
      }
      return versionFromRecord({ id: `r${(i * 7919) % 10007}`, kind: 'fact', tenant: null, author: null, hlc: String(i).padStart(5, '0'), body }, new Set())
    })
    const lexical = new LexicalIndex(), reference = new ReferenceLexicalIndex()
    for (const v of versions) {
      lexical.add(v.ref, v.terms)
      reference.add(v.ref, v.terms)
    }
    for (const params of [undefined, { contextSources: 500 }, { context: 0 }]) {
      for (const budget of [500, 5000, 60_000]) {
        const got = pack(rank('lemon garden', versions, { lexical, params }), budget, null).map((v) => v.ref)
        const want = referencePack(referenceRank('lemon garden', versions, { lexical: reference, params }), budget, null).map((v) => v.ref)
        expect(got).toEqual(want)
      }
    }
  })

  test('rank() over raw versions, with equal write times ordered by sequence (as sync can produce)', () => {
    const raw = fc.record({
      words, importance: fc.constantFrom(0, 0, 1),
      t: fc.integer({ min: 0, max: 8 }), hlc: fc.integer({ min: 0, max: 999 }), validHours: fc.integer({ min: 0, max: 3 }), live: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.uniqueArray(raw, { maxLength: 40, selector: (r) => r.hlc }), words, fc.constantFrom(0, 50, 300, 1e9), ranking, (rows, q, budget, params) => {
        const versions = rows.map((r, i) => {
          const writtenAt = 1_700_000_000_000_000 + r.t * 1000
          const body: FactBody = {
            content: `${r.words.join(' ')} row ${i}`, factId: `f${i}`, structuredId: null,
            metadata: r.importance ? { importance: r.importance } : {}, validFrom: writtenAt + r.validHours * HOUR * 1000, writtenAt,
            supersedes: null, source: { writtenBy: null, signature: null, publicKey: null },
          }
          // Refs and sequences in unrelated orders, so only the write order's own tie-break decides.
          return versionFromRecord({ id: `r${(i * 7919) % 1009}`, kind: 'fact', tenant: null, author: null, hlc: String(r.hlc).padStart(4, '0'), body }, new Set())
        })
        const lexical = new LexicalIndex(), reference = new ReferenceLexicalIndex()
        for (const v of versions) {
          lexical.add(v.ref, v.terms)
          reference.add(v.ref, v.terms)
        }
        // Versions that are not candidates still count in the index (superseded ones do).
        const candidates = versions.filter((_, i) => rows[i]!.live)
        const got = pack(rank(q.join(' '), candidates, { lexical, params }), budget, null).map((v) => v.ref)
        const want = referencePack(referenceRank(q.join(' '), candidates, { lexical: reference, params }), budget, null).map((v) => v.ref)
        expect(got).toEqual(want)
      }),
      { numRuns: 500 },
    )
  })
})
