import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/conflict/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Issue 27, events27: a kind and its instance, a part and its whole, two occurrences
// (src/conflict/judge/modifier-roles.ts, usual-and-one.ts, part-and-whole.ts, the claim frame's
// owner). Pairs written for the round apart from the data, in the shapes dev2's observation
// streams were flagged for ("eye surgery" / "cataract surgery", "raffle quilt" / "blue quilt", a
// left and a right surgery, "the drive is 35 min" / "drove 9 hours", "greenhouse heating running" /
// "greenhouse done", two dates of one person's two doings). Each compatible pair here is flagged by
// main (0.85 or 0.9) and checked so on a detached worktree of main before this change.

const detector = new TextConflictDetector()
const loose = new TextConflictDetector({ threshold: 0.2 })

const compatible: Array<[string, string, string, RegExp]> = [
  ['a colour beside a purpose', 'Priya knitted the charity scarf.', 'Priya owns a green scarf.', /says its colour/],
  ['a material beside a use', 'Tom sold the dining table.', 'Tom has a wooden table.', /what it is made of/],
  ['a body part beside a condition', 'Hugo had knee surgery in March.', 'Hugo had hernia surgery in March.', /the part of the body/],
  ['a condition beside a body part, two tenses', "Hugo's hernia surgery went well.", 'Hugo is recovering from knee surgery.', /the part of the body/],
  ['a left and a right one', "Amara's left hip replacement is booked for 3 April.", 'Amara had her right hip replacement in October.', /"left hip" and the "right hip"/],
  ['the usual drive and one drive', 'The drive to the cabin is about an hour.', 'Finn drove 6 hours to Denver last week.', /the usual one on one side/],
  ['a part running, the whole done', 'Boat engine running again.', 'Boat done.', /a part and its whole/],
  ['a part running, the whole finished', 'Shop heating running all night.', 'Shop finished.', /a part and its whole/],
  ["a date of a person's doing and of her shed's building", 'Ines planted her garlic in early October.', "Construction of Ines's new shed starts in early May.", /share only who/],
  ['the same, with "mid"', 'Ines harvested her garlic in mid July.', "Half the roof of Ines's new shed was on by mid March.", /share only who/],
]

// Contradictions of one thing keep their flag: two answers to one question, one occurrence named
// the same on both sides, one thing's two states, one thing's two dates.
const conflicts: Array<[string, string, string]> = [
  ['two colours', 'Mina has a red car.', 'Mina has a blue car.'],
  ['two sizes', 'Leo wears a small jacket.', 'Leo wears a large jacket.'],
  ['two kinds of shift', 'Kate works the day shift.', 'Kate works the night shift.'],
  ['one left hip, two dates', "Amara's left hip replacement is on 3 April.", "Amara's left hip replacement is on 9 April."],
  ['one usual commute, two lengths', 'The commute is 40 minutes.', 'The commute is 90 minutes.'],
  ['one migration, two states', 'The migration is done.', 'The migration is still running.'],
  // A noun after a preposition is not what the state is said of: "the vote on the bridge" passed.
  ['one vote, two outcomes', 'The council vote on the bridge passed 5–2.', 'The bridge motion failed.'],
  ["one shed's building, two dates", "Work on Ines's shed starts in May.", "Work on Ines's shed starts in June."],
]

describe('a kind and its instance, a part and its whole, two occurrences are not flagged', () => {
  test.each(compatible)('%s: %s / %s', (_name, a, b, why) => {
    expectJudgedBothWays(detector, a, b, false)
    // Lowered, not vetoed: a lower threshold still reaches the pair, with a reason that says why.
    const v = loose.judge(a, b)
    expect(v.conflict).toBe(true)
    expect(v.reason).toMatch(why)
  })
})

describe('contradictions of one thing keep their flag', () => {
  test.each(conflicts)('%s: %s / %s', (_name, a, b) => expectJudgedBothWays(detector, a, b, true))
})
