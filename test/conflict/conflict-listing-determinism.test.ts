import { describe, expect, test } from 'vitest'
import { runStore, type StoreFact } from '../../scripts/eval-conflict-store.js'

// Issue 27, session 12 (det35): one store listed different conflicts from run to run (the eval's
// dev6-2 observations printed 25 flags twice and 26 once on the same code). Cause: the one-belief
// rule (src/conflict/store/one-belief.ts) asks whether two statements make one claim, and the
// detector reads a pair in order; the order was the refs', which hash a random clock node and the
// write time, so it changed with every build. Hand-written texts (not from any eval set).

// The detector reads these two as one claim about the user's garden in one order (the purchase
// first) and as two answers in the other; both are negated by the retirement.
const VISITS = "A gardener called Colin comes every other Thursday to do heavy jobs in the user's back garden."
const BOUGHT = "The user bought Gardener's Pride tomato plants at the Riverside garden centre."
const RETIRED = 'Colin the gardener has retired.'

/** The listing as text, so that runs with different refs compare. */
async function listing(facts: readonly string[], build: number): Promise<string[]> {
  // Each build its own wall clock: the refs (and so any order taken from them) differ per build.
  let t = Date.UTC(2026, 0, 1) + build * 7_919_000
  const run = await runStore(facts.map((content): StoreFact => ({ content })), { memory: { now: () => (t += 1000) } })
  return run.flags.map((f) => [f.a, f.b].sort().join(' <> ') + ` :: ${f.reason}`).sort()
}

describe('a store lists the same conflicts in every build', () => {
  test.each([
    ['the visits written first', [VISITS, BOUGHT, RETIRED]],
    ['the purchase written first', [BOUGHT, VISITS, RETIRED]],
  ])('%s: twelve builds, one listing', async (_, facts) => {
    const first = await listing(facts, 0)
    expect(first.some((l) => l.includes(RETIRED) && l.includes(VISITS))).toBe(true)
    for (let build = 1; build < 12; build++) expect(await listing(facts, build)).toEqual(first)
  })

  test('the purchase read first is one claim with the visits: the retirement is listed once, against the visits', async () => {
    const flags = await listing([BOUGHT, VISITS, RETIRED], 0)
    expect(flags.filter((l) => l.includes(RETIRED))).toEqual([expect.stringContaining(VISITS)])
  })

  test('the visits read first are another answer: the retirement is listed against both', async () => {
    const flags = await listing([VISITS, BOUGHT, RETIRED], 0)
    expect(flags.filter((l) => l.includes(RETIRED))).toHaveLength(2)
  })
})
