import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { LexicalIndex, type LexicalSnapshot } from '../../src/facts/lexical-index.js'

/**
 * Issue 31: `nearest` (the free-text conflict check's neighbours, run for each fact a retrieve
 * returns for the first time) adds its scores up in the index's reused score buffer instead of a
 * Map per call. Its answer must not change: the reference below is the Map-based code it replaced,
 * run on the index's own slots and postings as `snapshot()` gives them. And the shared buffer must
 * be left clean: scores of a query before and after any number of `nearest` calls are the same.
 */

/** The neighbours as the Map-based `nearest` found them, from a snapshot of the index. */
function referenceNearest(s: LexicalSnapshot, terms: readonly string[], k: number, exclude: string | undefined, probe = 4, maxDf = 1000): string[] {
  const refs = s.refs === '' ? [] : s.refs.split('\n')
  const live = refs.filter((r) => r !== '').length
  if (live === 0 || k <= 0) return []
  const postings = new Map<string, Array<[number, number]>>()
  const vocab = s.vocab === '' ? [] : s.vocab.split('\n')
  let at = 0
  vocab.forEach((term, t) => {
    const n = s.counts[t]!
    postings.set(term, Array.from({ length: n }, (_, i) => [s.slots[at + i]!, s.tfs[at + i]!] as [number, number]))
    at += n
  })
  const own = exclude !== undefined && refs.includes(exclude) ? 1 : 0
  const rare = [...new Set(terms)]
    .map((t) => [t, postings.get(t)?.length ?? 0] as const)
    .filter(([, df]) => df > own && df <= maxDf)
    .sort((x, y) => x[1] - y[1])
    .slice(0, probe)
  const scores = new Map<number, number>()
  for (const [t, df] of rare) {
    const idf = Math.log(1 + (live - df + 0.5) / (df + 0.5))
    for (const [slot] of postings.get(t)!) scores.set(slot, (scores.get(slot) ?? 0) + idf)
  }
  const excluded = exclude === undefined ? -1 : refs.indexOf(exclude)
  return [...scores]
    .filter(([slot]) => slot !== excluded)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([slot]) => refs[slot]!)
}

const WORDS = ['aria', 'rome', 'tea', 'cat', 'blue', 'oslo', 'chess', 'pilot', 'may', 'x1', 'x2', 'x3']
const doc = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 })
const op = fc.oneof(
  { weight: 5, arbitrary: fc.record({ type: fc.constant('add' as const), terms: doc }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('remove' as const), pick: fc.nat() }) },
)

describe('LexicalIndex.nearest over the reused buffer (issue 31)', () => {
  test('the same neighbours as the Map-based code, after adds and removals (slots reused)', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 120 }), doc, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 40 }), fc.nat(),
        (ops, query, k, probe, maxDf, pick) => {
          const index = new LexicalIndex()
          const docs = new Map<string, string[]>()
          let n = 0
          for (const o of ops) {
            if (o.type === 'add') {
              const ref = `d${n++}`
              index.add(ref, o.terms)
              docs.set(ref, o.terms)
            } else if (docs.size > 0) {
              const ref = [...docs.keys()][o.pick % docs.size]!
              index.remove(ref, docs.get(ref)!)
              docs.delete(ref)
            }
          }
          const refs = [...docs.keys()]
          const exclude = refs.length > 0 && pick % 3 !== 0 ? refs[pick % refs.length] : undefined
          const want = referenceNearest(index.snapshot(), query, k, exclude, probe, maxDf)
          expect(index.nearest(query, k, exclude, probe, maxDf)).toEqual(want)
          // Twice: the buffer was left clean by the first call.
          expect(index.nearest(query, k, exclude, probe, maxDf)).toEqual(want)
        }),
      { numRuns: 500 },
    )
  })

  test('a query scores the same before and after nearest() calls on the shared buffer', () => {
    const index = new LexicalIndex()
    for (let i = 0; i < 300; i++) {
      const terms = [WORDS[i % WORDS.length]!, WORDS[(i * 7) % WORDS.length]!, `u${i % 17}`]
      index.add(`d${i}`, terms, i)
      index.mark(`d${i}`, true)
    }
    const live = (): Array<[number, unknown]> => {
      const out: Array<[number, unknown]> = []
      index.scoreLive(new Map([['rome', 1], ['u3', 1], ['chess', 1]]), 1.2, 0.75, (s, d) => out.push([s, d]))
      return out.sort((a, b) => (a[1] as number) - (b[1] as number))
    }
    const before = live()
    for (let i = 0; i < 50; i++) index.nearest(['rome', `u${i % 17}`, 'oslo', 'tea'], 4, `d${i}`, 4, 60)
    expect(live()).toEqual(before)
    expect(before.length).toBeGreaterThan(0)
  })
})
