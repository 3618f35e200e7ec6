import { describe, expect, test } from 'vitest'
import { ConflictDetector, hashEmbedder } from '../../src/index.js'
import { parseClaim } from '../../src/conflict/read/claim.js'
import { extractValues } from '../../src/conflict/read/extract-values.js'
import { compareValues } from '../../src/conflict/read/values.js'
import { FRESH_PAIRS, evaluate, loadPairs } from '../../scripts/eval-conflicts.js'

const detector = new ConflictDetector()
async function judge(a: string, b: string, threshold?: number) {
  const [x, y] = await detector.analyze([a, b])
  return detector.compare(x!, y!, threshold)
}

describe('conflict detector: the labelled evaluation set (npm run eval:conflicts)', () => {
  test('the set is varied and large enough: >= 300 pairs, every label, hard negatives', () => {
    const pairs = loadPairs()
    expect(pairs.length).toBeGreaterThanOrEqual(300)
    expect(new Set(pairs.map((p) => p.id)).size).toBe(pairs.length)
    const cats = new Set(pairs.map((p) => p.category))
    for (const c of ['time', 'date', 'money', 'quantity', 'entity', 'negation', 'antonym', 'paraphrase', 'equivalent', 'complementary', 'different-subject', 'unrelated']) {
      expect(cats.has(c), c).toBe(true)
    }
    expect(pairs.filter((p) => p.label === 'conflict').length).toBeGreaterThan(150)
    expect(pairs.filter((p) => p.label !== 'conflict').length).toBeGreaterThan(150)
  })

  test('precision and recall above 0.9, overall and on the held-out split', async () => {
    const r = await evaluate(loadPairs())
    expect(r.overall.precision).toBeGreaterThan(0.9)
    expect(r.overall.recall).toBeGreaterThan(0.9)
    expect(r.bySplit['holdout']!.precision).toBeGreaterThan(0.9)
    expect(r.bySplit['holdout']!.recall).toBeGreaterThan(0.9)
    // No conflict category falls apart.
    for (const [name, s] of Object.entries(r.byCategory)) expect(s.accuracy, name).toBeGreaterThan(0.85)
  })

  test('the set written after the detector was frozen (fresh-2) also clears 0.9', async () => {
    const r = await evaluate(loadPairs(FRESH_PAIRS).filter((p) => p.split === 'fresh-2'))
    expect(r.overall.pairs).toBeGreaterThanOrEqual(70)
    expect(r.overall.precision).toBeGreaterThan(0.9)
    expect(r.overall.recall).toBeGreaterThan(0.9)
  })

  test('deterministic: two runs give identical verdicts', async () => {
    const pairs = loadPairs().slice(0, 60)
    const [x, y] = [await evaluate(pairs), await evaluate(pairs, new ConflictDetector({ embedder: hashEmbedder() }))]
    expect(y.results.map((r) => [r.predicted, r.similarity])).toEqual(x.results.map((r) => [r.predicted, r.similarity]))
  })
})

describe('conflict detector: behaviour', () => {
  test.each([
    ['Meeting at 3pm', 'Meeting at 4pm', /3pm.*4pm/],
    ['The ticket costs $5', 'The ticket costs $7', /\$5.*\$7/],
    ['The API supports pagination', 'The API does not support pagination', /polarity/],
    ['The production server is up', 'The production server is down', /polarity/],
    ['The service stores data in PostgreSQL', 'The service stores data in MySQL', /PostgreSQL.*MySQL/],
    ['The cluster has 3 nodes', 'The cluster has 5 nodes', /3 nodes.*5 nodes/],
  ])('conflict: %s / %s', async (a, b, reason) => {
    const v = await judge(a, b)
    expect(v.conflict).toBe(true)
    expect(v.similarity).toBeGreaterThanOrEqual(0.7)
    expect(v.reason).toMatch(reason)
  })

  test.each([
    ['The meeting is at 3pm', 'The meeting is at 15:00'],
    ['The ticket costs $5', 'The ticket costs five dollars'],
    ['The drive takes 2 hours', 'The drive takes 120 minutes'],
    ['The deadline is March 5, 2025', 'The deadline is 2025-03-05'],
    ['The build passed', 'The build succeeded'],
    ['The store is closed today', "The store isn't open today"],
    ["Alice's flight lands at 3pm", "Bob's flight lands at 5pm"],
    ['The meeting is at 3pm', 'The meeting lasts 2 hours'],
    ['The museum is open on Mondays', 'The museum is closed on Tuesdays'],
    ['The user speaks Spanish', 'The user also speaks French'],
    ['The meeting is at 3pm', 'The deploy pipeline takes 4 minutes'],
  ])('no conflict: %s / %s', async (a, b) => {
    expect((await judge(a, b)).conflict).toBe(false)
  })

  test('below the threshold nothing is a conflict, whatever the wording', async () => {
    const v = await judge('Alice owns the billing service', 'Bob owns the billing service', 0.99)
    expect(v).toMatchObject({ conflict: false, reason: 'different topics' })
  })

  test('values are normalized: equal amounts in other forms compare equal', () => {
    const one = (t: string) => extractValues(t)[0]!.value
    const equal: Array<[string, string]> = [
      ['at 3pm', 'at 15:00'], ['at noon', 'at 12:00'], ['half past nine', '9:30'], ['quarter to four', '3:45pm'],
      ['$5', 'five dollars'], ['$50k', '$50,000'], ['$2.50', 'two dollars and fifty cents'], ['1 minute', '60 seconds'],
      ['one year', '12 months'], ['10MB', '10 megabytes'], ['25%', 'twenty-five percent'], ['0.5%', 'half a percent'],
      ['March 5, 2025', '2025-03-05'], ['the 3rd of June', 'June 3'], ['version 2.0', '2.0.0'],
    ]
    for (const [a, b] of equal) expect(compareValues(one(a), one(b)), `${a} = ${b}`).toBe('equal')
    expect(compareValues(one('at 3pm'), one('at 4pm'))).toBe('differ')
    expect(compareValues(one('at 9'), one('at 9pm'))).toBe('equal')
    expect(compareValues(one('$5'), one('5 euros'))).toBe('differ')
  })

  test('the topic masks the answer: values, names and polarity words', () => {
    expect(parseClaim('The meeting is at 3pm').topic).toBe('meet')
    expect(parseClaim('The service stores data in PostgreSQL').topic).toBe(parseClaim('The service stores data in MySQL').topic)
    expect(parseClaim('The production server is up').topic).toBe(parseClaim('The production server is down').topic)
  })

  test('rejects a bad threshold', () => {
    expect(() => new ConflictDetector({ threshold: 1.5 })).toThrow(/threshold/)
  })
})
