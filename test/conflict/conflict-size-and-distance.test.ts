import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A length that tells a size against one that tells a distance (issue 27, session 14, notes40,
// rule 41; src/conflict/judge/size-and-distance.ts). Found on dev3's planted van ("just under 24 ft"
// / "32 miles to the gallon") and dev9-2's yacht ("his 28-foot yacht" / "sailed ... about six
// miles"); these pairs are written apart from them. Each compatible pair was flagged on main; each
// contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a size against a distance', () => {
  test.each([
    // a size after a copula against a rate of distance
    ['The camper is 7 metres long.', 'The camper does 28 miles to the gallon on the motorway.'],
    // a length joined to its noun against a distance in a sentence of going
    ["Bram took his sons out in the club's 19-foot gig.", 'Bram and his sons rowed up the estuary and back, roughly eight miles.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // two sizes
    ["Wen's canoe is a 16-foot Prospector.", "Wen's canoe is 14 feet long."],
    // two distances
    ['Wen paddled nine miles down the Wye on Sunday.', 'Wen paddled twelve miles down the Wye on Sunday.'],
    ['The camper does 28 miles to the gallon.', 'The camper does 35 miles to the gallon.'],
    // "runs for" tells how far a thing reaches: a size
    ['The tunnel runs for 3 kilometres under the hill.', 'The tunnel is only about 800 metres long.'],
  ])('one length, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a record of going is a distance', () => {
  test.each([
    ["Wen's longest paddle is the 14-kilometre canal loop.", 'Wen paddled 30 kilometres down the Wye and back.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
