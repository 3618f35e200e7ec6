import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, public30: what a negation reaches. The false flags of ProSeCCo's whole-file dev half
 * (public data kept outside the repository, docs/conflicts.md "Public data") fell into shapes of a
 * reading, not into words: a denied saying or certainty read as a denial of what is said (and, from a MultiNLI page added
 * later, a denied memory: "can't remember the last years"), a word in
 * an open question ("whether or not") read as stated, a denied universal ("not all") read as a
 * denial of the whole kind, the far side of a comparison ("as often as") read as denied, and a
 * denied negation ("not ungovernable") read as a negation. Every pair below is our own sentence.
 * Each compatible pair is flagged on main as at e7aa704; each contradiction beside it stays flagged.
 */
const detector = new TextConflictDetector()

describe('what a negation reaches', () => {
  test('a denied saying or certainty denies the saying, not what would be said', () => {
    expectJudgedBothWays(detector, 'Dana is not saying the bridge is unsafe.', 'The bridge is unsafe.', false)
    expectJudgedBothWays(detector, 'The mayor is not claiming that the budget has a hole.', 'The budget has a hole.', false)
    expectJudgedBothWays(detector, 'Dana is not sure the bridge is safe.', 'The bridge is safe.', false)
    // The saying itself is still denied, and a plain denial still clashes.
    expectJudgedBothWays(detector, "Dana didn't say the bridge was safe.", 'Dana said the bridge was safe.', true)
    expectJudgedBothWays(detector, 'The bridge is not safe.', 'The bridge is safe.', true)
  })

  test('a denied memory denies the remembering, not what is remembered', () => {
    expectJudgedBothWays(detector, "Nadia can't remember the opening night of the festival.", 'Nadia was at the opening night of the festival.', false)
    expectJudgedBothWays(detector, "Nadia doesn't recall the new parking rules.", 'The new parking rules start in May.', false)
    expectJudgedBothWays(detector, "Nadia doesn't remember the fire drill.", 'Nadia remembers the fire drill.', true)
  })

  test('a word in an open question or a condition is not stated', () => {
    expectJudgedBothWays(detector, 'The van is in for a check of whether it has a dent.', 'The van has no dent.', false)
    expectJudgedBothWays(detector, 'There is a council survey of whether or not the road has speed cameras.', 'The council confirmed the road has no speed cameras.', false)
    expectJudgedBothWays(detector, 'The van has a dent.', 'The van has no dent.', true)
    expectJudgedBothWays(detector, 'The council confirmed the road has speed cameras.', 'The council confirmed the road has no speed cameras.', true)
  })

  test('"not all" denies the universal only: it meets "all", not "most"', () => {
    expectJudgedBothWays(detector, 'Not all vans in the fleet are electric.', 'Most vans in the fleet are electric.', false)
    expectJudgedBothWays(detector, 'Not every tenant on the street pays rent on time.', 'Tenants on the street mostly pay rent on time.', false)
    expectJudgedBothWays(detector, 'Not all vans in the fleet are electric.', 'All the vans in the fleet are electric.', true)
  })

  test('the far side of a comparison after "as" is not denied', () => {
    expectJudgedBothWays(detector, "Ana doesn't swim as fast as a professional athlete.", 'Ana is a professional athlete.', false)
    expectJudgedBothWays(detector, 'The old laptop does not boot as quickly as the new tablet.', 'The new tablet is in the drawer.', false)
    expectJudgedBothWays(detector, "Ana doesn't swim.", 'Ana swims every morning.', true)
  })

  test('a denied negation ("not ungovernable") meets no bare word; a plain negating prefix still does', () => {
    expectJudgedBothWays(detector, 'The cycle lane is not entirely unusable.', 'The cycle lane is usable in the mornings.', false)
    expectJudgedBothWays(detector, 'The cycle lane is unusable.', 'The cycle lane is usable.', true)
  })
})
