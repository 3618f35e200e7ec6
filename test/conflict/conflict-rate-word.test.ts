import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'

// "The annual fee is $120, due on March 3": the frequency word before an amount says what the
// amount is per, and its schedule slot is dropped; "annual" has none, and the reader dropped the
// last slot it had found instead ("March 3"), so the due date was never compared (lists27).
describe('free-text detector: a frequency word before an amount keeps the other values', () => {
  const detector = new TextConflictDetector()
  test('the date after an annual amount is read', () => {
    const v = detector.judge('The annual gym fee is $120, due on March 3', 'The annual gym fee is $120, due on April 9')
    expect(v.conflict).toBe(true)
    expect(v.reason).toMatch(/March 3.*April 9/)
  })
})
