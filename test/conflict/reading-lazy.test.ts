import { describe, expect, it } from 'vitest'
import { mayCountNights, readText, type Reading } from '../../src/conflict/read/reading.js'
import { readSlots } from '../../src/conflict/read/slots.js'
import { stem } from '../../src/conflict/read/stem.js'
import { readingCorpus } from '../helpers/reading-corpus.js'

/**
 * A reading's parts are read when first asked (issue 31: a retrieve judges the facts it returns,
 * and most pairs are settled by their keys and leading names). Two things keep that invisible: the
 * keys ask for the slots whenever a night count is possible (the stay topic), and no part depends
 * on which part was asked first.
 */
const corpus = readingCorpus()
const FIELDS = ['text', 'norm', 'tokens', 'content', 'keys', 'compounds', 'negated', 'poles', 'entities', 'slots', 'past', 'leadingName', 'simplePast', 'pastAt', 'orders', 'present', 'exclusive', 'universal', 'additive'] as const satisfies ReadonlyArray<keyof Reading>

/** Every part of a reading, asked in `order`, as plain data (`pastAt` as its answer at each token). */
function materialize(r: Reading, order: readonly (keyof Reading)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of order) {
    const v = r[f]
    out[f] = typeof v === 'function' ? r.tokens.map((t) => (v as (p: number) => boolean)(t.start)) : v
  }
  return out
}

describe('readText reads its parts when asked (issue 31)', () => {
  it('the corpus is the detector data and the bench texts', () => {
    expect(corpus.length).toBeGreaterThan(5000)
  })

  it('a count of nights is only read where the text says "night" or "check" (so the stay key needs no other slots)', { timeout: 120_000 }, () => {
    let nights = 0
    for (const text of corpus) {
      const norm = readText(text).norm
      if (!readSlots(norm).slots.some((s) => s.kind === 'count' && s.unit === 'night')) continue
      nights++
      expect(mayCountNights(norm), text).toBe(true)
    }
    // Not vacuous: the data has stays told both ways.
    expect(nights).toBeGreaterThan(5)
  })

  it('the stay is a key whichever way it is told, and not without one', () => {
    for (const text of ['we booked 3 nights at the Harbor Inn', 'check in Thursday, check out Saturday at the Harbor Inn']) {
      expect(readText(text).keys.has(stem('stay')), text).toBe(true)
    }
    expect(readText('Dinner at the Harbor Inn at 8pm on Thursday').keys.has(stem('stay'))).toBe(false)
  })

  it('every text reads the same whichever part is asked first, and as a spread', () => {
    const reversed = [...FIELDS].reverse()
    corpus.forEach((text, i) => {
      const forward = materialize(readText(text), FIELDS)
      expect(materialize(readText(text), reversed), text).toEqual(forward)
      if (i % 10 === 0) expect(materialize({ ...readText(text) }, FIELDS), text).toEqual(forward)
    })
  }, 180_000)
})
