import { describe, expect, test } from 'vitest'
import { DAY, agents, expectCode, fact, pref } from '../helpers/pools-helpers.js'

/** LCS-004 §6: conflicts are flagged with resolve_conflict's answer as a suggestion; nothing is overwritten until someone resolves. */

describe('pool conflicts', () => {
  test('a contradiction is listed with a suggested winner and why; both memories stay current', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const old = await mem.a.pools.write(pool.id, pref('bullet_points'))
    clock.advance(2 * DAY)
    const neu = await mem.a.pools.write(pool.id, pref('paragraphs'))
    const [c, ...rest] = await mem.a.pools.conflicts(pool.id)
    expect(rest).toEqual([])
    expect(c).toMatchObject({
      kind: 'contradiction', pool: pool.id, memories: [old.id, neu.id].sort(), subject: 'communication_style', predicate: 'prefers',
      context: 'technical_discussions', suggestion: { winner: neu.id, rule: 'recency' },
    })
    expect(c!.suggestion.reason).toMatch(/newer/)
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id).sort()).toEqual([old.id, neu.id].sort())
    expect((await mem.a.pools.get(old.id))!.conflictsWith).toEqual([neu.id])
    // Listing conflicts changes nothing, however often it is called.
    await mem.a.pools.conflicts(pool.id)
    expect((await mem.a.pools.get(old.id))!.current).toBe(true)
    await close()
  })

  test('the suggestion follows §6 in order: recency, then confidence x1.5, then trusted source, else merge', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { trustedSources: ['direct_statement'] } })
    const suggestion = async (x: Parameters<typeof pref>[1], y: Parameters<typeof pref>[1], ms = 1000) => {
      const p = await mem.a.pools.create({ policies: { trustedSources: ['direct_statement'] } })
      const a = await mem.a.pools.write(p.id, pref('bullet_points', x))
      clock.advance(ms)
      const b = await mem.a.pools.write(p.id, pref('paragraphs', y))
      const [c] = await mem.a.pools.conflicts(p.id)
      return { a: a.id, b: b.id, s: c!.suggestion }
    }
    // Recency wins over everything when they are far apart, even against much higher confidence.
    const r = await suggestion({ confidence: 1 }, { confidence: 0.1, source: 'inference' }, 2 * DAY)
    expect(r.s).toMatchObject({ winner: r.b, rule: 'recency' })
    const c = await suggestion({ confidence: 0.95 }, { confidence: 0.6 })
    expect(c.s).toMatchObject({ winner: c.a, rule: 'confidence' })
    const notEnough = await suggestion({ confidence: 0.8, source: 'inference' }, { confidence: 0.6 })
    expect(notEnough.s).toMatchObject({ winner: notEnough.b, rule: 'source-authority' })
    const merge = await suggestion({ confidence: 0.8 }, { confidence: 0.7 })
    expect(merge.s).toMatchObject({ winner: null, rule: 'merge', strategy: 'average' })
    expect((await mem.a.pools.conflicts(pool.id))).toEqual([])
    await close()
  })

  test('no conflict across contexts, for multi-valued predicates, or between near-duplicates', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { multiValuedPredicates: ['knows'] } })
    await mem.a.pools.write(pool.id, pref('bullet_points', {}, 'technical_discussions'))
    await mem.a.pools.write(pool.id, pref('paragraphs', {}, 'casual_chat'))
    await mem.a.pools.write(pool.id, { type: 'RELATIONSHIP', content: { subject: 'Aria', predicate: 'knows', object: 'Bo' } })
    await mem.a.pools.write(pool.id, { type: 'RELATIONSHIP', content: { subject: 'Aria', predicate: 'knows', object: 'Cy' } })
    await mem.a.pools.write(pool.id, fact('Aria', 'drinks', 'green tea'))
    await mem.a.pools.write(pool.id, fact('Aria', 'drinks', 'green tea, hot'))
    expect(await mem.a.pools.conflicts(pool.id)).toEqual([])
    await mem.a.pools.write(pool.id, fact('Aria', 'drinks', 'espresso'))
    expect((await mem.a.pools.conflicts(pool.id)).length).toBe(2)
    await close()
  })

  test('resolve with a winner supersedes the loser (kept, not deleted); resolve by suggestion merges', async () => {
    const { mem, id, close } = await agents(['a', 'reader'])
    const pool = await mem.a.pools.create()
    await mem.a.pools.share(pool.id, id.reader.did)
    const x = await mem.a.pools.write(pool.id, pref('bullet_points', { confidence: 0.8 }))
    const y = await mem.a.pools.write(pool.id, pref('paragraphs', { confidence: 0.7 }))
    const [c] = await mem.a.pools.conflicts(pool.id)
    await expectCode(mem.reader.pools.resolve(c!.id, { winner: x.id }), 'PERMISSION_DENIED')
    await expectCode(mem.a.pools.resolve(c!.id, { winner: '00'.repeat(16) }), 'INVALID_ARGUMENT', 'decision.winner')
    const won = await mem.a.pools.resolve(c!.id, { winner: y.id })
    expect(won).toMatchObject({ id: y.id, current: true, conflictsWith: [] })
    expect(await mem.a.pools.get(x.id)).toMatchObject({ current: false, supersededBy: [y.id], lifecycle: 'archived' })
    expect(await mem.a.pools.conflicts(pool.id)).toEqual([])
    await expectCode(mem.a.pools.resolve(c!.id), 'NOT_FOUND')
    // A later resolution of the same pair reverses the earlier one (the latest record wins).
    const again = await mem.a.pools.create()
    const p = await mem.a.pools.write(again.id, fact('Aria', 'lives_in', 'Rome'))
    const q = await mem.a.pools.write(again.id, fact('Aria', 'lives_in', 'Milan'))
    const [c2] = await mem.a.pools.conflicts(again.id)
    expect(c2!.suggestion.rule).toBe('merge')
    const merged = await mem.a.pools.resolve(c2!.id)
    expect(merged.merged).toEqual({ strategy: 'average', from: [p.id, q.id].sort() })
    expect((await mem.a.pools.query(again.id)).map((m) => m.id)).toEqual([merged.id])
    await close()
  })

  test('two agents updating the same memory concurrently: a competing-update conflict, both kept', async () => {
    const { mem, id, close } = await agents(['a', 'b'])
    const pool = await mem.a.pools.create()
    await mem.a.pools.share(pool.id, id.b.did, { write: true })
    const base = await mem.a.pools.write(pool.id, fact('Aria', 'favourite_colour', 'blue'))
    await mem.b.pools.query(pool.id)
    const [u1, u2] = await Promise.all([
      mem.a.pools.update(base.id, { confidence: 0.7 }),
      mem.b.pools.update(base.id, { confidence: 0.4 }),
    ])
    const conflicts = await mem.a.pools.conflicts(pool.id)
    expect(conflicts.map((c) => [c.kind, c.memories])).toEqual([['competing-update', [u1.id, u2.id].sort()]])
    expect(conflicts[0]!.suggestion).toMatchObject({ winner: u1.id, rule: 'confidence' })
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id).sort()).toEqual([u1.id, u2.id].sort())
    await close()
  })
})
