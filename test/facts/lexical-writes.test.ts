import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { LexicalIndex } from '../../src/facts/lexical-index.js'

/**
 * Issue 31 (sixth round): a write into the lexical index costs O(its terms), never O(a term's
 * postings). Counted, not timed: the Int32Array elements moved or copied (`copyWithin`, `set`)
 * while documents are removed and added into an index whose common term is held by `df`
 * documents. Before this round a document took a freed slot and its postings were inserted in
 * the middle (the later ones moved by one), and a removal moved the later postings back: both
 * grew with df.
 */
const TypedArray = Object.getPrototypeOf(Int32Array.prototype) as { copyWithin: (this: Int32Array, target: number, start: number, end?: number) => unknown; set: (this: Int32Array, source: ArrayLike<number>, offset?: number) => void }
const original = { copyWithin: TypedArray.copyWithin, set: TypedArray.set }
let copied = 0

beforeEach(() => {
  copied = 0
  TypedArray.copyWithin = function (this: Int32Array, target: number, start: number, end?: number) {
    if (this instanceof Int32Array) copied += Math.max(0, Math.min(end ?? this.length, this.length) - start)
    return original.copyWithin.call(this, target, start, end)
  }
  TypedArray.set = function (this: Int32Array, source: ArrayLike<number>, offset?: number) {
    if (this instanceof Int32Array) copied += source.length
    original.set.call(this, source, offset)
  }
})
afterEach(() => {
  TypedArray.copyWithin = original.copyWithin
  TypedArray.set = original.set
})

/** An index of `df` documents, each with the common term and two of its own. */
function build(df: number): LexicalIndex {
  const index = new LexicalIndex()
  for (let i = 0; i < df; i++) index.add(`d${i}`, ['common', `own${i}`, `pair${i >> 1}`], i)
  return index
}

/** Elements copied by `removals` removals spread over the index, then as many adds, counted apart. */
function churn(df: number, removals: number): { removed: number; added: number } {
  const index = build(df)
  copied = 0
  for (let r = 0; r < removals; r++) {
    const i = Math.floor(((r + 0.5) * df) / removals)
    index.remove(`d${i}`, ['common', `own${i}`, `pair${i >> 1}`])
  }
  const removed = copied
  copied = 0
  for (let a = 0; a < removals; a++) index.add(`n${a}`, ['common', `new${a}`], a)
  const added = copied
  expect(index.documentFrequency('common')).toBe(df)
  return { removed, added }
}

describe('a write into the lexical index moves no postings (issue 31, sixth round)', () => {
  test('removals, and adds after them, copy no posting at a df of 1,000 or of 60,000 (main: 19,960 and 1.2M elements)', () => {
    // df just under a power of two (the arrays' capacity): the adds fit without growing them.
    const small = churn(1_000, 20), large = churn(60_000, 20)
    // Nothing moves: a removal marks its postings dead, an add appends past the last slot.
    expect(small).toEqual({ removed: 0, added: 0 })
    expect(large).toEqual({ removed: 0, added: 0 })
  })
})

describe('the snapshot of an index with freed slots (layout unchanged)', () => {
  test('each freed slot is an empty ref listed in free, with no posting: an older build reads it as it wrote it; restored, the holes are gone and the scores the same', () => {
    const index = build(300)
    for (let i = 0; i < 300; i += 3) index.remove(`d${i}`, ['common', `own${i}`, `pair${i >> 1}`])
    for (let a = 0; a < 50; a++) index.add(`n${a}`, ['common', `new${a}`, `pair${a}`], `n${a}`)
    const snap = index.snapshot()
    const refs = snap.refs.split('\n')
    expect(refs.length).toBe(350)
    const holes = refs.flatMap((r, slot) => (r === '' ? [slot] : []))
    expect(holes.length).toBe(100)
    expect([...snap.free]).toEqual(holes)
    const hole = new Set(holes)
    for (const slot of snap.slots) expect(hole.has(slot)).toBe(false)
    for (const slot of holes) expect(snap.lengths[slot]).toBe(0)

    const q = new Map([['common', 1], ['pair7', 1], ['new3', 1]])
    const scores = (ix: LexicalIndex): Map<string, number> => {
      const s = ix.score(q), out = new Map<string, number>()
      s.forEach((score, ref) => out.set(ref, score))
      return out
    }
    const restored = LexicalIndex.restore(snap)
    expect(restored.size).toBe(250)
    expect(scores(restored)).toEqual(scores(index))
    // Renumbered without holes: its own snapshot has none.
    const again = restored.snapshot()
    expect(again.free.length).toBe(0)
    expect(again.refs.split('\n').length).toBe(250)
    // Writes after the restore go on as in the index it was taken of.
    for (const ix of [index, restored]) {
      ix.remove('d1', ['common', 'own1', 'pair0'])
      ix.add('late', ['common', 'pair7'], 'late')
    }
    expect(scores(restored)).toEqual(scores(index))
  })
})
