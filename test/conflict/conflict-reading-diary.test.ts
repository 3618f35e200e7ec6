import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, eleventh round: how one text is read, causes that recurred in the hand-written
 * conversations' observation flags (test/fixtures/conversations-synthetic.json). Every pair is
 * written apart from the conversations; each compatible one was flagged on the code before its rule.
 */
const detector = new TextConflictDetector()

describe('taking a boat, a dog or a person out is an outing, not a removal', () => {
  test.each([
    ['Rosa is repainting an old canoe in her garage.', 'Rosa took the canoe out on the lake on Saturday.'],
    ['Dev adopted a rescue greyhound in March.', 'Dev took the greyhound out for a walk at dawn.'],
    ['Mina bought a small kayak last spring.', 'Mina took the kayak out to the island with her cousin.'],
  ])('an outing: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The app has a dark mode.', 'We took dark mode out of the app.'],
  ])('a removal, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
