import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'

// A month and a two-digit year ("end of March '24") was read with its month as the index of the
// whole lower-cased name among three-letter keys: "march", "june", "sept" gave month 0, so two
// such dates were one date, and "March '24" / "Mar '24" two (issue 27, lists27: the months read
// from words/months.ts, one list for every reader).
describe('free-text detector: a month and a two-digit year', () => {
  const detector = new TextConflictDetector()

  test.each([
    ["The Halvorsen lease runs to end of March '24", "The Halvorsen lease runs to end of Mar '24"],
    ["The Halvorsen lease runs to end of September '24", "The Halvorsen lease runs to end of Sep '24"],
  ])('one month, written long and short, agrees: %s / %s', (a, b) => {
    expect(detector.judge(a, b).conflict).toBe(false)
  })

  test('two months clash', () => {
    const v = detector.judge("The Halvorsen lease runs to end of March '24", "The Halvorsen lease runs to end of June '24")
    expect(v.conflict).toBe(true)
    expect(v.reason).toMatch(/different date: "end of March '24" vs "end of June '24"/)
  })
})
