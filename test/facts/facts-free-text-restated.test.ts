import { describe, expect, test } from 'vitest'
import { createMemory, type Memory } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * Issue 27, eighth round (src/conflict/store/one-belief.ts): a statement that contradicts one
 * belief said twice is listed once, against the statement it contradicts most surely, not once per
 * restatement. Written through the public API; before the rule both restatements were listed.
 */
describe('facts: a contradiction of one belief said twice is listed once', () => {
  // `surer` and `restated` make one claim (the detector: same subject, nothing incompatible);
  // `against` negates both, `surer` with more key entities shared (lisbon, offsite, boat, tour).
  const surer = 'The Lisbon offsite includes a boat tour'
  const restated = 'boat tour booked for the offsite'
  const against = 'no boat tour at the Lisbon offsite, it was cancelled'

  async function write(texts: readonly string[]): Promise<{ mem: Memory; refs: Map<string, string> }> {
    const mem = await createMemory({ storage: memoryStorage() })
    const refs = new Map<string, string>()
    for (const t of texts) refs.set(t, await mem.facts.write(t))
    return { mem, refs }
  }

  const listed = async (mem: Memory, refs: Map<string, string>): Promise<string[][]> => {
    const text = new Map([...refs].map(([t, r]) => [r, t]))
    return (await mem.facts.conflicts()).filter((c) => c.kind === 'free-text').map((c) => c.refs.map((r) => text.get(r) ?? r).sort())
  }

  test('listed against the surer statement only; the restatement is not marked', async () => {
    const { mem, refs } = await write([surer, restated, against])
    expect(await listed(mem, refs)).toEqual([[against, surer].sort()])
    expect((await mem.facts.get(refs.get(restated)!))!.conflictsWith).toEqual([])
    expect((await mem.facts.get(refs.get(against)!))!.conflictsWith).toEqual([refs.get(surer)])
    // Below the default threshold too: the rule is not a confidence cut.
    expect((await mem.facts.conflicts({ minConfidence: 0.2 })).filter((c) => c.kind === 'free-text')).toHaveLength(1)
    await mem.close()
  })

  test('the same list whatever order the facts were written and settled in', async () => {
    const orders = [[surer, restated, against], [against, restated, surer], [restated, against, surer]]
    for (const order of orders) {
      const { mem, refs } = await write(order)
      // Settle one fact first (get compares it with its neighbours), then the rest.
      await mem.facts.get(refs.get(order[2]!)!)
      expect(await listed(mem, refs)).toEqual([[against, surer].sort()])
      await mem.close()
    }
  })

  test('superseding or deleting the surer statement lists the restatement again', async () => {
    const { mem, refs } = await write([surer, restated, against])
    await mem.facts.supersede(refs.get(surer)!, 'The Lisbon offsite has a cooking class')
    expect(await listed(mem, refs)).toEqual([[against, restated].sort()])
    await mem.close()

    const again = await write([surer, restated, against])
    expect(await again.mem.facts.delete(again.refs.get(surer)!)).toBe(true)
    expect(await listed(again.mem, again.refs)).toEqual([[against, restated].sort()])
    expect((await again.mem.facts.get(again.refs.get(restated)!))!.conflictsWith).toEqual([again.refs.get(against)])
    await again.mem.close()
  })

  test('two flags equally sure (same confidence, same key entities shared) both stay listed', async () => {
    // Nothing says which restatement is contradicted more directly: hiding one would be arbitrary.
    const [recorded, up, none] = ['the town hall was recorded', 'town hall recording is up', 'no recording of the town hall exists']
    const { mem, refs } = await write([recorded, up, none])
    expect((await listed(mem, refs)).sort()).toEqual([[none, recorded].sort(), [none, up].sort()].sort())
    await mem.close()
  })

  test('equal in confidence and key entities: the flag sharing more content words is kept', async () => {
    // Both keys (rebase, branch) on both flags; "merging" / "merge" makes the first the closer text.
    const [merging, always, none] = ['rebase branches when merging', 'always rebase branches', 'merge branches as they are, no rebasing']
    const { mem, refs } = await write([merging, always, none])
    expect(await listed(mem, refs)).toEqual([[merging, none].sort()])
    await mem.close()
  })

  test('two statements that disagree with each other are two beliefs: each flag against them stays', async () => {
    // "feature branches" / "draft branches" is itself a (sub-threshold) clash: not one claim said twice.
    const [feature, draft, none] = ['rebase feature branches when merging', 'rebase the draft branches before review', 'merge branches as they are, no rebasing']
    const { mem, refs } = await write([feature, draft, none])
    const flags = await listed(mem, refs)
    expect(flags).toContainEqual([feature, none].sort())
    expect(flags).toContainEqual([draft, none].sort())
    await mem.close()
  })
})
