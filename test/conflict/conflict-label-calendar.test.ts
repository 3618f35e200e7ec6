import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { itemLabels } from '../../src/conflict/read/labels.js'

// A word before a number is a label's noun unless it is a month or a weekday ("May 5", "Friday 3"
// are dates). The calendar test matched a month's first letters followed by anything, so
// "Decision", "Juniper", "Janet", "Marketing" were months and their numbers no labels; and it
// missed "Wednesday" and "Saturday", whose short forms are not their first letters plus "day"
// (issue 27, lists27: months and weekdays from words/months.ts and words/weekdays.ts).
describe('labels: a month or weekday before a number is a date, any other noun a label', () => {
  test('nouns that begin like a month label their items', () => {
    expect(itemLabels(['Decision 3: we keep Postgres', 'Juniper 2 is on floor 3']).map((l) => l.text)).toEqual(['Decision 3', 'Juniper 2'])
  })

  test('full weekday names are dates, not labels', () => {
    expect(itemLabels(['Wednesday 3 is the demo', 'Saturday 14 is the recital'])).toEqual([])
  })

  const detector = new TextConflictDetector()
  test.each([
    ['Decision 3: we keep Postgres for billing', 'Decision 4: we move billing to MySQL'],
    ['Juniper 2 is on floor 3', 'Juniper 5 is on floor 7'],
  ])('two numbered items are two items: %s / %s', (a, b) => {
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(false)
    expect(v.reason).toMatch(/^two items/)
  })
})
