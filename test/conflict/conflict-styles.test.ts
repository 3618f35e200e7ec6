import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { evaluateRule, loadRealistic } from '../../scripts/eval-conflicts.js'
import { figures, judgePairs, parseArgs, parseDelimited, readPairs } from '../../scripts/eval-labelled-pairs.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, external-data round: the detector measured on public human-labelled pairs (MultiNLI
 * dev matched, ProSeCCo's self-contradictions in dialogue), kept outside the repository and split
 * by a hash of each pair's text (docs/conflicts.md, "Public data"). The false flags of the two dev
 * halves, grouped by cause, gave six general rules; each is pinned below by pairs written apart
 * from every data set, in the styles of that data. Each compatible pair was flagged on the code
 * before the round, and each contradiction beside it stays flagged. The styles set
 * test/fixtures/conflict-pairs-styles.json (written for the round, not copied) pins the figures of
 * its dev half; its holdout is not read here.
 */
const detector = new TextConflictDetector()
const styles = loadRealistic(new URL('../fixtures/conflict-pairs-styles.json', import.meta.url).pathname, new URL('../fixtures/conflict-styles-split.json', import.meta.url).pathname)
const dev = styles.filter((p) => p.split === 'dev')

describe('styles set, dev half', () => {
  test('the split is fixed and half/half', () => {
    expect(styles.length).toBe(116)
    expect(styles.filter((p) => p.label === 'conflict').length).toBe(47)
    expect(dev.length).toBe(57)
  })

  test('text detector: at most 3 false flags, recall at least 13 of 23', () => {
    const r = evaluateRule(dev, (a, b) => detector.judge(a, b)).overall
    // Before the round: 10 false flags (P 0.565) at the same 13 found.
    expect(r.tp + r.fn).toBe(23)
    expect(r.fp).toBeLessThanOrEqual(3)
    expect(r.tp).toBeGreaterThanOrEqual(13)
  })
})

describe('the causes of the external dev halves\' false flags', () => {
  test('"the end of" a time retracts nothing; "the cancellation of" a thing still does', () => {
    expectJudgedBothWays(detector, 'Invoices are sent to the client every week.', 'The last invoice was sent at the end of the quarter.', false)
    expectJudgedBothWays(detector, 'The 7:15 bus to Bath runs on weekdays.', 'They announced the cancellation of the 7:15 bus to Bath.', true)
  })

  test('two names one letter apart are one name misspelled; two names are still two', () => {
    expectJudgedBothWays(detector, 'The keynote speaker is Patterson.', 'The keynote speaker is Pattersen.', false)
    expectJudgedBothWays(detector, 'Our contact at the bank is Christopher.', 'Our contact at the bank is Christpher.', false)
    expectJudgedBothWays(detector, 'The keynote speaker is Patterson.', 'The keynote speaker is Okafor.', true)
    // Different at the end, or short: two people.
    expectJudgedBothWays(detector, 'The meeting is with Maria.', 'The meeting is with Marie.', true)
  })

  test('an amount a verb of rising or falling gives "by" is a change, not a level; two changes compare', () => {
    expectJudgedBothWays(detector, 'The gym charges $45 a month.', 'The gym fee went up by $5 in March.', false)
    expectJudgedBothWays(detector, 'The warehouse holds 12,000 pallets.', 'Storage at the warehouse increased by 500 pallets.', false)
    expectJudgedBothWays(detector, 'Membership fell by 10% last year.', 'Membership fell by 30% last year.', true)
    expectJudgedBothWays(detector, 'The gym charges $45 a month.', 'The gym charges $60 a month.', true)
  })

  test('one verb negated and stated of two particular things is two claims; of one thing, or of a whole kind, a contradiction', () => {
    expectJudgedBothWays(detector, 'The board does not approve the merger terms.', 'The board approves the hiring plan.', false)
    expectJudgedBothWays(detector, 'Ravi does not work with the sales team.', 'Ravi works with the support team.', false)
    expectJudgedBothWays(detector, 'The board does not approve the merger terms.', 'The board approves the merger terms.', true)
    // "never ... a horse" denies every horse.
    expectJudgedBothWays(detector, 'Leo has never ridden a horse.', 'Leo rides the old horse every weekend.', true)
  })

  test('a link or determiner after a definite one ends no scan early or never (the object reader looped on "with that on" before its fix)', () => {
    expectJudgedBothWays(detector, 'Tom does not agree with that on principle.', 'Tom agrees with that.', true)
  })

  test('"may be" hedges like "might"; "May" the month does not', () => {
    expectJudgedBothWays(detector, 'There may be a leak in the roof of the shed.', 'There is no leak in the roof of the shed.', false)
    expectJudgedBothWays(detector, 'The launch is planned for May.', 'The launch is planned for June.', true)
  })

  test('a rule that forbids, against the thing done in the past: broken, not contradicted; two rules still clash', () => {
    expectJudgedBothWays(detector, 'Visitors must not feed the ducks.', 'A visitor fed the ducks on Sunday.', false)
    expectJudgedBothWays(detector, 'The temperature should not rise above the red line.', 'The temperature rose above the red line at noon.', false)
    expectJudgedBothWays(detector, 'Visitors must not feed the ducks.', 'Visitors are allowed to feed the ducks.', true)
  })
})

describe('eval:pairs, the script a user checks the detector on their data with', () => {
  test('CSV: quoted fields, doubled quotes, a line break inside quotes, CRLF', () => {
    expect(parseDelimited('a,b,label\r\n"x, ""y""","line\none",1\r\n')).toEqual([['a', 'b', 'label'], ['x, "y"', 'line\none', '1']])
  })

  test('columns found by their usual names or named by options; the figures count flags and positives', () => {
    const csv = 'sentence1,sentence2,label\nThe shop opens at 9.,The shop opens at 11.,1\nThe shop opens at 9.,The shop sells bread.,0\n'
    const rows = judgePairs(readPairs(csv), { positive: ['1'] })
    expect(rows.map((r) => [r.positive, r.flagged])).toEqual([[true, true], [false, false]])
    expect(figures(rows)).toMatchObject({ pairs: 2, positives: 1, flags: 1, tp: 1, fp: 0, precision: 1, recall: 1 })
    const jsonl = '{"t1":"Ana is vegan.","t2":"Ana eats steak every week.","gold":"contradiction"}\n'
    expect(readPairs(jsonl, { format: 'jsonl', a: 't1', b: 't2', label: 'gold' })[0]).toMatchObject({ a: 'Ana is vegan.', label: 'contradiction' })
  })

  test('bad input is INVALID_ARGUMENT naming what is wrong', () => {
    const code = (f: () => unknown): string | undefined => { try { f() } catch (e) { return isMemweaveError(e) ? `${e.code}:${e.details?.['field']}` : 'other' } return undefined }
    expect(code(() => readPairs('x,y\n1,2\n'))).toBe('INVALID_ARGUMENT:a')
    expect(code(() => readPairs('{"a":"x","b":"y"}\nnot json\n', { format: 'jsonl' }))).toBe('INVALID_ARGUMENT:file')
    expect(code(() => parseDelimited('a,b\n"open'))).toBe('INVALID_ARGUMENT:file')
    expect(code(() => parseArgs(['f.csv', '--threshold=2']))).toBe('INVALID_ARGUMENT:threshold')
    expect(code(() => parseArgs(['f.csv', '--colour=red']))).toBe('INVALID_ARGUMENT:colour')
    expect(parseArgs(['f.jsonl', '--where=split=dev', '--positive=1,yes'])).toMatchObject({ file: 'f.jsonl', format: 'jsonl', where: ['split', 'dev'], positive: ['1', 'yes'] })
  })
})
