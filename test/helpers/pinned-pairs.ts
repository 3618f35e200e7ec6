import { expect, test } from 'vitest'
import { ConflictDetector, TextConflictDetector } from '../../src/index.js'
import { evaluate, evaluateRule, type LabelledPair } from '../../scripts/eval-conflicts.js'
import { locomoTurns, runPlanted } from '../../scripts/eval-conflict-store.js'

/**
 * What issue 27's hand-written pair sets share in tests: a set with a fixed dev/holdout split whose
 * dev half pins the figures a round reached (the holdout is never read here). A round that adds a
 * set names its figures once and gets the same four tests as the sets before it.
 */
export interface PinnedSet {
  /** Every pair of the set, both halves. */
  readonly load: () => LabelledPair[]
  /** The split: at least `atLeast` pairs, exactly `dev` of them in the dev half, exactly `conflicts` labelled conflict. */
  readonly size: { readonly atLeast: number; readonly dev: number; readonly conflicts: number }
  /** The dev contradictions the text detector (what facts use) finds at least, with no false flag. */
  readonly text: number
  /** The same for the working-memory detector. */
  readonly working: number
  /**
   * The dev pairs planted in `conversation`'s turns with `seed`: no flag between background turns,
   * at least `tp` found, at most `fp` false; `timeout` in ms (the store is written fact by fact).
   */
  readonly planted: { readonly conversation: string; readonly seed: number; readonly tp: number; readonly fp: number; readonly timeout: number }
}

/** The dev half of a set's pairs. */
export function devHalf(pairs: readonly LabelledPair[]): LabelledPair[] {
  return pairs.filter((p) => p.split === 'dev')
}

/** Defines the set's four pinned-figure tests in the describe block that calls it. */
export function testPinnedSet(set: PinnedSet): void {
  const dev = devHalf(set.load())
  const conflicts = dev.filter((p) => p.label === 'conflict').length
  const detector = new TextConflictDetector()

  test('the split is fixed and half/half', () => {
    const all = set.load()
    expect(all.length).toBeGreaterThanOrEqual(set.size.atLeast)
    expect(dev.length).toBe(set.size.dev)
    expect(all.filter((p) => p.label === 'conflict').length).toBe(set.size.conflicts)
  })

  test(`text detector (what facts use): no false flag, recall at least ${set.text} of ${conflicts}`, () => {
    const r = evaluateRule(dev, (a, b) => detector.judge(a, b)).overall
    expect(r.fp).toBe(0)
    expect(r.tp).toBeGreaterThanOrEqual(set.text)
  })

  test(`working-memory detector: no false flag, recall at least ${set.working} of ${conflicts}`, async () => {
    const r = (await evaluate(dev, new ConflictDetector())).overall
    expect(r.fp).toBe(0)
    expect(r.tp).toBeGreaterThanOrEqual(set.working)
  })

  const { conversation, seed, tp, fp, timeout } = set.planted
  test(`planted in ${conversation}'s turns: precision and recall floors`, async () => {
    const r = await runPlanted(dev, locomoTurns(conversation), seed)
    expect(r.background).toBe(0)
    expect(r.tp).toBeGreaterThanOrEqual(tp)
    expect(r.fp).toBeLessThanOrEqual(fp)
  }, timeout)
}
