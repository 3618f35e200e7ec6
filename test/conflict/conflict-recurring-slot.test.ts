import { describe, expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { runStore, type StoreFact } from '../../scripts/eval-conflict-store.js'
import { SlotTally } from '../../src/facts/slot-tally.js'
import { SubjectTally } from '../../src/facts/subject-tally.js'
import type { Version } from '../../src/facts/version.js'

// Issue 27, session 11 (store28): a thing told over time (src/conflict/store/recurring-slot.ts,
// counted by src/facts/slot-tally.ts). A store that told a name together with a word, differently,
// on three days or more follows that thing as it changes: two statements of it at two dates are
// listed lower. Hand-written texts (not from any eval set), written through createMemory +
// mem.facts.write, listed by mem.facts.conflicts() at the default threshold.

const at = (month: number): string => `2025-${String(month).padStart(2, '0')}-10T12:00:00Z`

/** Fourteen facts about Marta over six months; her cycling is told in March, May and June. */
const DIARY: readonly StoreFact[] = [
  ['Marta works as a pharmacist in Coimbra.', 2],
  ['Marta has a tabby cat named Figo.', 2],
  ['Marta sings in a community choir.', 2],
  ['Marta cycles to the pharmacy along the river.', 3],
  ['Marta is reading a biography of Amália.', 3],
  ['Marta planted basil and mint on her balcony.', 3],
  ['Marta bought panniers so she can cycle with her shopping.', 5],
  ['Marta visited her brother in Faro.', 5],
  ['Marta joined a Sunday cycling club that rides to Figueira.', 6],
  ['Marta baked a lemon cake for the choir.', 6],
  ['Marta repainted her front door green.', 6],
  ['Marta took a pottery class on Thursday evenings.', 7],
  ['Marta found a cheaper dentist near the station.', 7],
  ['Marta lent her ladder to the neighbour upstairs.', 8],
].map(([content, month]) => ({ content: content as string, validFrom: at(month as number) }))

// A change the store has followed: listed by main (0.85), not here.
const cyclesDaily: StoreFact = { content: 'Marta cycles to the hospital every day.', validFrom: at(3) }
const cannotCycle: StoreFact = { content: 'Marta cannot cycle to the hospital while her broken wrist heals.', validFrom: at(8) }
const pairOf = (f: { a: string; b: string }): string[] => [f.a, f.b].sort()

// Contradictions of the same thing in the same store, each listed beside the change (main lists both).
const contradictions: Array<[string, StoreFact, StoreFact]> = [
  ['two statements on one day', { content: 'Marta cycles to the market on Saturdays.', validFrom: at(7) }, { content: 'Marta does not cycle to the market.', validFrom: at(7) }],
  ['a later statement told as lasting ("never")', { content: 'Marta cycles to the library on Fridays.', validFrom: at(4) }, { content: 'Marta has never cycled to the library.', validFrom: at(8) }],
]

describe('a thing the store tells over time', () => {
  test('the diary alone lists nothing', async () => {
    expect((await runStore(DIARY)).flags).toEqual([])
  })

  test('the pair alone is listed: no store behind it', async () => {
    expect((await runStore([cyclesDaily, cannotCycle])).flags.map(pairOf)).toEqual([pairOf({ a: cyclesDaily.content, b: cannotCycle.content })])
  })

  test('in the diary, months apart, it is lowered under the threshold with a reason', async () => {
    expect((await runStore([...DIARY, cyclesDaily, cannotCycle])).flags).toEqual([])
    const low = (await runStore([...DIARY, cyclesDaily, cannotCycle], { minConfidence: 0.2 })).flags.find((f) => [f.a, f.b].includes(cannotCycle.content))
    expect(low?.confidence).toBeLessThan(0.8)
    expect(low?.reason).toMatch(/the store tells "cycles" of marta on \d days, and these two are \d+ days apart: a thing told over time/)
  })

  test.each(contradictions)('%s: still listed in the same store, the change beside it not', async (_, x, y) => {
    const flags = (await runStore([...DIARY, cyclesDaily, x, cannotCycle, y])).flags
    expect(flags.map(pairOf)).toEqual([pairOf({ a: x.content, b: y.content })])
    expect(flags[0]!.reason).not.toMatch(/told over time/)
  })

  test('the counts survive a reopen: the reopened store judges the pair the same', async () => {
    const storage = memoryStorage()
    const [x, y] = [contradictions[0]![1], contradictions[0]![2]]
    const first = await createMemory({ storage })
    const refs = new Map<string, string>()
    for (const f of [...DIARY, cyclesDaily, x, cannotCycle, y]) refs.set(f.content, await first.facts.write(f.content, { validFrom: f.validFrom! }))
    const key = (a: StoreFact, b: StoreFact): string => [refs.get(a.content)!, refs.get(b.content)!].sort().join(' ')
    const judged = async (mem: typeof first): Promise<Map<string, number | undefined>> =>
      new Map((await mem.facts.conflicts({ minConfidence: 0.2 })).map((c) => [[...c.refs].sort().join(' '), c.confidence]))
    const before = await judged(first)
    await first.close()
    const again = await createMemory({ storage })
    try {
      // Compared afresh on the reopened store's first read, with counts its load rebuilt: the change
      // is lowered by as much, the contradiction beside it listed as before. (Which other pairs a
      // fact meets no longer differs: neighbours that tie on the name go by write order since
      // session 12, test/facts/nearest-write-order.test.ts; docs/conflicts.md, rule 23.)
      const after = await judged(again)
      for (const pair of [key(cyclesDaily, cannotCycle), key(x, y)]) {
        expect(before.get(pair)).toBeDefined()
        expect(after.get(pair)).toBeCloseTo(before.get(pair)!, 6)
      }
      expect(after.get(key(cyclesDaily, cannotCycle))).toBeLessThan(0.8)
      const low = await again.facts.conflicts({ minConfidence: 0.2 })
      expect(low.some((c) => /the store tells "cycles?" of marta/.test(c.reason))).toBe(true)
    } finally {
      await again.close()
    }
  })
})

/** The two tallies fed as the store feeds them (facts/free-text-conflicts.ts `current`), with its current versions by ref. */
function tallies(): { add(v: Version): void; delete(ref: string): void; recurring(a: Version, b: Version, keys: readonly string[]): ReturnType<SlotTally['recurring']> } {
  const subjects = new SubjectTally()
  const slots = new SlotTally((ref) => subjects.subjectOf(ref))
  const current = new Map<string, Version>()
  return {
    add: (v) => {
      current.set(v.ref, v)
      slots.add(v, subjects.add(v))
    },
    delete: (ref) => {
      slots.delete(ref)
      subjects.delete(ref)
      current.delete(ref)
    },
    recurring: (a, b, keys) => slots.recurring(a, b, keys, (ref) => current.get(ref) ?? null),
  }
}

describe('the slot tally follows the store, one change at a time', () => {
  const day = (d: number): number => Date.UTC(2025, 0, d) * 1000
  const version = (ref: string, content: string, d: number, tenant: string | null = null): Version =>
    ({ ref, tenant, body: { content, metadata: {}, validFrom: day(d) } }) as unknown as Version
  /** Ten facts that open with Noor, on one day, none of them about swimming. */
  const filler = Array.from({ length: 10 }, (_, i) => version(`f${i}`, `Noor note ${'abcdefghij'[i]}.`, 1))
  const swims = [version('s1', 'Noor swims on Mondays.', 2), version('s2', 'Noor swims at dawn now.', 9), version('s3', 'Noor cannot swim this month.', 20)]

  test('three days, three texts: a thing told over time; deletes uncount', () => {
    const t = tallies()
    for (const v of [...filler, ...swims]) t.add(v)
    expect(t.recurring(swims[0]!, swims[2]!, ['noor', 'swim'])).toEqual({ name: 'noor', word: 'swim', days: 3 })
    t.delete('s2')
    expect(t.recurring(swims[0]!, swims[2]!, ['swim'])).toBeNull()
    t.add(swims[1]!)
    expect(t.recurring(swims[0]!, swims[2]!, ['swim'])?.days).toBe(3)
  })

  test('a fact that stops being current before its name is counted is never counted; told again, it counts once', () => {
    const t = tallies()
    for (const v of [...filler, ...swims]) t.add(v)
    t.delete('s2')
    expect(t.recurring(swims[0]!, swims[2]!, ['swim'])).toBeNull()
    const u = tallies()
    for (const v of [...filler, ...swims]) u.add(v)
    // Out and back in while waiting (a successor forgotten): one fact, one day.
    u.delete('s2')
    u.add(swims[1]!)
    u.delete('s3')
    expect(u.recurring(swims[0]!, swims[1]!, ['swim'])).toBeNull()
    u.add(swims[2]!)
    expect(u.recurring(swims[0]!, swims[1]!, ['swim'])?.days).toBe(3)
  })

  test('the same text on three days is one way of saying it', () => {
    const t = tallies()
    for (const v of filler) t.add(v)
    for (const d of [2, 9, 20]) t.add(version(`r${d}`, 'Noor swims on Mondays.', d))
    expect(t.recurring(version('r2', '', 2), version('r20', '', 20), ['swim'])).toBeNull()
  })

  test('a name that opens fewer than ten facts tells no history; the names are not the thing', () => {
    const t = tallies()
    for (const v of swims) t.add(v)
    expect(t.recurring(swims[0]!, swims[2]!, ['swim'])).toBeNull()
    for (const v of filler) t.add(v)
    expect(t.recurring(swims[0]!, swims[2]!, ['noor'])).toBeNull()
  })

  test('another tenant is another store; a version told twice counts once', () => {
    const t = tallies()
    for (const v of [...filler, ...swims.slice(0, 2)]) t.add(v)
    t.add(swims[0]!)
    const elsewhere = version('x', 'Noor cannot swim this month.', 20, 'team')
    t.add(elsewhere)
    expect(t.recurring(swims[0]!, elsewhere, ['swim'])).toBeNull()
  })
})
