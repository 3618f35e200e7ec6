import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays, freeTextFlags } from '../helpers/conflict-probes.js'

/**
 * Issue 27, session 11 (names28): a name pair name-role.ts reads as two roles (a person and a
 * place, a home and a trip) is final. Before, the vetoed pair simply vanished from the checks, and
 * a second difference it had been blocking ("two subjects": a day, an hour, a count) flagged the
 * pair alone. The sentences are written for this test, apart from every data set.
 */
const detector = new TextConflictDetector()

// Each: two names in two roles beside a second difference, and the same second difference with one
// name in one role (the twin), which is a contradiction and stays flagged.
const cases = [
  ['Astrid runs with Sven on Tuesdays.', 'Astrid runs in Uppsala on Thursdays.', 'Astrid runs with Sven on Thursdays.'],
  ['Kemal plays chess with Ayla on Monday.', 'Kemal plays chess in Izmir on Wednesday.', 'Kemal plays chess with Ayla on Wednesday.'],
  ['Priya went hiking with Rohan in June.', 'Priya went hiking in Manali in August.', 'Priya went hiking with Rohan in August.'],
  ['Priya went hiking with Rohan for three days.', 'Priya went hiking in Manali for five days.', 'Priya went hiking with Rohan for five days.'],
  ['Astrid bakes with Sven every Sunday at 6.', 'Astrid bakes in Uppsala every Sunday at 9.', 'Astrid bakes with Sven every Sunday at 9.'],
] as const

describe('conflict name role is final: two names in two roles still tell two events apart', () => {
  test.each(cases)('%s / %s (twin: %s)', (a, b, twin) => {
    expectJudgedBothWays(detector, a, b, false)
    expect(detector.judge(a, b).reason).toMatch(/^two subjects: /)
    expectJudgedBothWays(detector, a, twin, true)
  })
})

// A person kept by "only" and a place on the other side: the place is no one added to the "only".
describe('conflict name role is final: no other check flags the two names', () => {
  test('a town against "the only one" is not an addition; another person is', () => {
    const only = 'Ola is the only one at the studio who can fix the kiln.'
    expectJudgedBothWays(detector, only, 'Our first studio was in Brixton.', false)
    expectJudgedBothWays(detector, only, 'The studio kiln can also be fixed by Piotr.', true)
  })
})

describe('conflict name role is final: in a store', () => {
  test('a companion and a town beside two days give no flag; the same companion on two days does', async () => {
    expect(await freeTextFlags([{ content: 'Ilse swims with Marta on Saturdays.' }, { content: 'Ilse swims in Aarhus on Sundays.' }])).toEqual([])
    expect(await freeTextFlags([{ content: 'Ilse swims with Marta on Saturdays.' }, { content: 'Ilse swims with Marta on Sundays.' }])).toHaveLength(1)
  })
})
