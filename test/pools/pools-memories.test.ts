import { describe, expect, test } from 'vitest'
import { importance, lifecycle } from '../../src/pools/importance.js'
import { DEFAULT_POLICIES } from '../../src/index.js'
import { DAY, agents, expectCode, fact, pref, rawMemory } from '../helpers/pools-helpers.js'

/** LCS-004 §1 memory fields, §4 operations (create, query, merge, forget), §8 importance, §10 lifecycle, TTL, EPHEMERAL, policies. */

describe('pool memories', () => {
  test('write keeps every LCS-004 field; query filters by type, minConfidence, subject and limit, most important first', async () => {
    const { mem, id, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const p = await mem.a.pools.write(pool.id, pref('bullet_points', { confidence: 0.95, source: 'direct_statement', ttl: 30 * 24 * 3600 }))
    expect(p).toMatchObject({
      type: 'PREFERENCE', content: { subject: 'communication_style', predicate: 'prefers', object: 'bullet_points', context: 'technical_discussions' },
      confidence: 0.95, source: 'direct_statement', evidence: [], author: id.a.did, createdAt: clock.now(), ttl: 2592000,
      expiresAt: clock.now() + 30 * DAY, permanent: false, accessCount: 0, lastAccessed: null, lifecycle: 'created', current: true,
      privacy: { visibility: 'AUTHORIZED', encrypted: false, ephemeral: false, noTraining: false },
    })
    clock.advance(1)
    const k1 = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome', { confidence: 0.6, evidence: [p.id], permanent: true }))
    clock.advance(1)
    const k2 = await mem.a.pools.write(pool.id, fact('Bo', 'lives_in', 'Oslo', { confidence: 0.3 }))
    expect(k1).toMatchObject({ evidence: [p.id], permanent: true, ttl: null, expiresAt: null })
    const ids = async (o: object) => (await mem.a.pools.query(pool.id, o)).map((m) => m.id)
    expect(await ids({ type: 'KNOWLEDGE' })).toEqual([k1.id, k2.id])
    expect(await ids({ type: 'KNOWLEDGE', minConfidence: 0.5 })).toEqual([k1.id])
    expect(await ids({ subject: 'bo' })).toEqual([k2.id])
    expect(await ids({ limit: 2 })).toHaveLength(2)
    expect(await ids({ orderBy: 'confidence' })).toEqual([p.id, k1.id, k2.id])
    expect(await ids({ type: ['PREFERENCE', 'KNOWLEDGE'], orderBy: 'recent' })).toEqual([k2.id, k1.id, p.id])
    await close()
  })

  test('bad input is INVALID_ARGUMENT naming the field; nothing is stored', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    await expectCode(mem.a.pools.write(pool.id, { ...pref('x'), type: 'OPINION' as never }), 'INVALID_ARGUMENT', 'type')
    await expectCode(mem.a.pools.write(pool.id, pref('x', { confidence: 1.5 })), 'INVALID_ARGUMENT', 'confidence')
    await expectCode(mem.a.pools.write(pool.id, pref('x', { ttl: 0 })), 'INVALID_ARGUMENT', 'ttl')
    await expectCode(mem.a.pools.write(pool.id, pref('x', { permanent: true, ttl: 5 })), 'INVALID_ARGUMENT', 'ttl')
    await expectCode(mem.a.pools.write(pool.id, pref('x', { evidence: ['ab'.repeat(16)] })), 'INVALID_ARGUMENT', 'evidence[0]')
    await expectCode(mem.a.pools.write(pool.id, pref('x', { privacy: 'ENCRYPTED' })), 'INVALID_ARGUMENT', 'privacy')
    await expectCode(mem.a.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: '', predicate: 'p', object: 'o' } }), 'INVALID_ARGUMENT', 'content.subject')
    await expectCode(mem.a.pools.write('nope', pref('x')), 'INVALID_ARGUMENT', 'poolId')
    await expectCode(mem.a.pools.create({ policies: { maxSize: 0 } }), 'INVALID_ARGUMENT', 'policies.maxSize')
    await expectCode(mem.a.pools.create({ policies: { colour: 'red' } as never }), 'INVALID_ARGUMENT', 'policies.colour')
    expect(await mem.a.pools.query(pool.id)).toEqual([])
    await close()
  })

  test('deduplication returns the existing memory (also for same-tick writes); without it a copy is stored', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const first = await mem.a.pools.write(pool.id, pref('bullet_points'))
    const again = await mem.a.pools.write(pool.id, pref('Bullet Points'))
    expect(again.id).toBe(first.id)
    const [x, y] = await Promise.all([mem.a.pools.write(pool.id, fact('Aria', 'likes', 'tea')), mem.a.pools.write(pool.id, fact('Aria', 'likes', 'tea'))])
    expect(x.id).toBe(y.id)
    expect((await mem.a.pools.info(pool.id)).size).toBe(2)
    const loose = await mem.a.pools.create({ policies: { deduplication: false } })
    const l1 = await mem.a.pools.write(loose.id, pref('bullet_points'))
    const l2 = await mem.a.pools.write(loose.id, pref('bullet_points'))
    expect(l2.id).not.toBe(l1.id)
    expect((await mem.a.pools.info(loose.id)).size).toBe(2)
    await close()
  })

  test('autoMerge folds a near-duplicate into a merge that keeps both as provenance', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { autoMerge: true, mergeStrategy: 'maximum' } })
    const first = await mem.a.pools.write(pool.id, pref('short bullet points', { confidence: 0.7 }))
    clock.advance(1000)
    const out = await mem.a.pools.write(pool.id, pref('bullet points', { confidence: 0.9 }))
    expect(out.merged?.strategy).toBe('maximum')
    expect(out.merged?.from).toContain(first.id)
    expect(out.merged?.from).toHaveLength(2)
    expect(out).toMatchObject({ confidence: 0.9, content: { object: 'bullet points' }, source: 'merge', current: true })
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id)).toEqual([out.id])
    const all = await mem.a.pools.query(pool.id, { includeSuperseded: true })
    expect(all.map((m) => m.id).sort()).toEqual([out.id, ...out.merged!.from].sort())
    expect(all.find((m) => m.id === first.id)).toMatchObject({ current: false, supersededBy: [out.id], lifecycle: 'archived' })
    // A contradiction is not a near-duplicate: it is kept (and flagged), never merged away.
    const other = await mem.a.pools.write(pool.id, pref('long paragraphs'))
    expect(other.merged).toBeNull()
    expect((await mem.a.pools.query(pool.id)).length).toBe(2)
    await close()
  })

  test('merge: average, maximum and recent strategies, provenance, evidence union; misuse is refused', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const e1 = await mem.a.pools.write(pool.id, fact('chat', 'says', 'one'))
    const e2 = await mem.a.pools.write(pool.id, fact('chat', 'says', 'two'))
    const mk = async (object: string, confidence: number, evidence: string[]) => {
      clock.advance(1000)
      return mem.a.pools.write(pool.id, pref(object, { confidence, evidence }))
    }
    const check = async (strategy: 'average' | 'maximum' | 'recent', expect_: { object: string; confidence: number }) => {
      const x = await mk(`old ${strategy}`, 0.9, [e1.id])
      const y = await mk(`new ${strategy}`, 0.5, [e2.id])
      const merged = await mem.a.pools.merge([x.id, y.id], strategy)
      expect(merged).toMatchObject({
        content: { object: expect_.object }, confidence: expect_.confidence, merged: { strategy, from: [x.id, y.id].sort() },
        supersedes: [x.id, y.id].sort(), evidence: [e1.id, e2.id].sort(), source: 'merge', current: true,
      })
      for (const src of [x, y]) expect(await mem.a.pools.get(src.id)).toMatchObject({ current: false, supersededBy: [merged.id] })
      return merged
    }
    await check('average', { object: 'old average', confidence: 0.7 })
    await check('maximum', { object: 'old maximum', confidence: 0.9 })
    const last = await check('recent', { object: 'new recent', confidence: 0.5 })
    await expectCode(mem.a.pools.merge([last.id]), 'INVALID_ARGUMENT', 'memoryIds')
    await expectCode(mem.a.pools.merge([last.id, e1.id]), 'INVALID_ARGUMENT', 'memoryIds')
    await expectCode(mem.a.pools.merge([last.merged!.from[0]!, last.id]), 'CONFLICT')
    await expectCode(mem.a.pools.merge([e1.id, e2.id], 'median' as never), 'INVALID_ARGUMENT', 'strategy')
    await close()
  })

  test('forget without cascade removes one memory, its record and its content; dependants stay', async () => {
    const { mem, storage, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const base = await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'user', predicate: 'mentioned', object: 'the blue flowerpot key' } })
    const dep = await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'key', predicate: 'hidden_under', object: 'flowerpot' }, evidence: [base.id] })
    expect(await mem.a.pools.forget(base.id)).toEqual([base.id])
    expect(await mem.a.pools.forget(base.id)).toEqual([])
    expect(await mem.a.pools.get(base.id)).toBeNull()
    expect(await mem.a.pools.status(base.id)).toBe('forgotten')
    expect(await mem.a.pools.get(dep.id)).toMatchObject({ evidence: [base.id], current: true })
    await mem.a.pools.flush()
    const raw = rawMemory(storage)
    expect(raw).not.toContain('the blue flowerpot key')
    expect(raw).toContain('hidden_under')
    await close()
  })

  test('forget with cascade removes everything resting on it through evidence or merges, transitively', async () => {
    const { mem, storage, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const root = await mem.a.pools.write(pool.id, fact('Aria', 'said', 'I moved to Turin'))
    const child = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Turin', { evidence: [root.id] }))
    const grandchild = await mem.a.pools.write(pool.id, fact('Aria', 'timezone', 'CET', { evidence: [child.id] }))
    const twin = await mem.a.pools.write(pool.id, fact('Aria', 'city', 'Turin area'))
    const merged = await mem.a.pools.merge([grandchild.id, twin.id], 'recent')
    const unrelated = await mem.a.pools.write(pool.id, fact('Bo', 'lives_in', 'Oslo'))
    const gone = await mem.a.pools.forget(root.id, { cascade: true })
    expect(gone.sort()).toEqual([root.id, child.id, grandchild.id, merged.id].sort())
    for (const id of gone) expect(await mem.a.pools.status(id)).toBe('forgotten')
    // The other merge source is not derived from the root: it stays and is current again.
    expect(await mem.a.pools.get(twin.id)).toMatchObject({ current: true })
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id).sort()).toEqual([twin.id, unrelated.id].sort())
    await mem.a.pools.flush()
    const raw = rawMemory(storage)
    for (const text of ['I moved to Turin', 'CET', '"Turin"']) expect(raw).not.toContain(text)
    expect(raw).toContain('Oslo')
    await close()
  })

  test('update supersedes; forgetting the update makes the predecessor current again', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const v1 = await mem.a.pools.write(pool.id, pref('bullet_points'))
    const v2 = await mem.a.pools.update(v1.id, { confidence: 0.99 })
    expect(v2).toMatchObject({ supersedes: [v1.id], confidence: 0.99, content: { object: 'bullet_points' }, current: true })
    await expectCode(mem.a.pools.update(v1.id, { confidence: 0.1 }), 'CONFLICT')
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id)).toEqual([v2.id])
    await mem.a.pools.forget(v2.id)
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id)).toEqual([v1.id])
    await close()
  })

  test('TTL: hidden the moment it expires on the injected clock, hard-deleted by the next writer operation', async () => {
    const { mem, storage, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const brief = await mem.a.pools.write(pool.id, fact('meeting', 'room', 'Orion-7', { ttl: 60 }))
    const forever = await mem.a.pools.write(pool.id, fact('office', 'city', 'Lyon', { permanent: true }))
    clock.advance(59_999)
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id).sort()).toEqual([brief.id, forever.id].sort())
    clock.advance(1)
    expect(await mem.a.pools.get(brief.id)).toBeNull()
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id)).toEqual([forever.id])
    await mem.a.pools.flush()
    expect(rawMemory(storage)).not.toContain('Orion-7')
    expect(await mem.a.pools.status(brief.id)).toBe('forgotten')
    clock.advance(3650 * DAY)
    expect((await mem.a.pools.query(pool.id, { includeArchived: true })).map((m) => m.id)).toEqual([forever.id])
    // sweep() does the same on demand.
    const soon = await mem.a.pools.write(pool.id, fact('x', 'y', 'ephemeral-ish', { ttl: 1 }))
    clock.advance(1000)
    expect(await mem.a.pools.sweep(pool.id)).toEqual([soon.id])
    await close()
  })

  test('EPHEMERAL: gone after its first read by another agent; never exported', async () => {
    const { mem, id, storage, close } = await agents(['a', 'b'])
    const pool = await mem.a.pools.create()
    await mem.a.pools.share(pool.id, id.b.did)
    const once = await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'otp', predicate: 'is', object: '913-554' }, privacy: 'EPHEMERAL' })
    expect(once.privacy.ephemeral).toBe(true)
    expect(once.expiresAt).toBe(once.createdAt + DEFAULT_POLICIES.ephemeralTtl * 1000)
    expect(once.factRef).toBeNull()
    expect((await mem.a.pools.export(pool.id)).memories).toEqual([])
    // Its author reading it does not use it up.
    expect((await mem.a.pools.query(pool.id)).map((m) => m.id)).toEqual([once.id])
    const first = await mem.b.pools.query(pool.id)
    expect(first.map((m) => m.content.object)).toEqual(['913-554'])
    expect(await mem.b.pools.query(pool.id)).toEqual([])
    expect(await mem.a.pools.get(once.id)).toBeNull()
    expect(await mem.a.pools.status(once.id)).toBe('forgotten')
    await mem.b.pools.flush()
    expect(rawMemory(storage)).not.toContain('913-554')
    await close()
  })

  test('EPHEMERAL: gone when its author\'s session ends', async () => {
    const { mem, storage, reopen, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const kept = await mem.a.pools.write(pool.id, fact('Aria', 'likes', 'tea'))
    await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'draft', predicate: 'says', object: 'scratch-4471' }, privacy: ['EPHEMERAL', 'NO_TRAINING'] })
    await mem.a.close()
    expect(rawMemory(storage)).not.toContain('scratch-4471')
    const again = await reopen('a')
    expect((await again.pools.query(pool.id)).map((m) => m.id)).toEqual([kept.id])
    await close()
  })

  test('importance is LCS-004 §8 with the terms defined: access*10 + confidence%*5 + recency + authority + rating, capped', async () => {
    const { mem, id, clock, close } = await agents(['owner', 'w'])
    const pool = await mem.owner.pools.create()
    await mem.owner.pools.share(pool.id, id.w.did, { write: true })
    const m = await mem.owner.pools.write(pool.id, pref('bullet_points', { confidence: 0.9 }))
    expect(m.importance).toBe(450 + 1000 + 1000)
    const byWriter = await mem.w.pools.write(pool.id, fact('Aria', 'likes', 'tea', { confidence: 0.5 }))
    expect(byWriter.importance).toBe(250 + 1000 + 500)
    const [read] = await mem.owner.pools.query(pool.id, { type: 'PREFERENCE' })
    expect(read).toMatchObject({ accessCount: 1, lastAccessed: clock.now(), importance: 2460 })
    expect((await mem.owner.pools.get(m.id))!.accessCount).toBe(2)
    clock.advance(30 * DAY)
    await mem.w.pools.rate(m.id, 1)
    await mem.owner.pools.rate(m.id, 0)
    await mem.owner.pools.rate(m.id, 0.5)
    // 2 reads before this one (+this read), one half-life old, mean rating (1 + 0.5) / 2.
    expect((await mem.owner.pools.get(m.id))!).toMatchObject({ accessCount: 3, rating: 0.75, importance: 30 + 450 + 500 + 1000 + 750 })
    await expectCode(mem.owner.pools.rate(m.id, 2), 'INVALID_ARGUMENT', 'rating')
    // Authority follows the author's rights: a revoked writer's memories weigh less.
    await mem.owner.pools.revoke(pool.id, id.w.did)
    expect((await mem.owner.pools.get(byWriter.id))!.importance).toBe(10 + 250 + 500 + 0)
    expect(importance({ accessCount: 5000, confidence: 1, createdAt: 0, authority: 1000, rating: 1 }, 0, DEFAULT_POLICIES)).toBe(10_000)
    expect(importance({ accessCount: 0, confidence: 0, createdAt: 0, authority: 0, rating: -1 }, 0, DEFAULT_POLICIES)).toBe(0)
    await close()
  })

  test('lifecycle: created, active, stale, archived (left out of default queries), forgotten; a read revives', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { staleAfter: 10 * 24 * 3600, archiveAfter: 20 * 24 * 3600 } })
    const m = await mem.a.pools.write(pool.id, pref('bullet_points'))
    const keep = await mem.a.pools.write(pool.id, fact('office', 'city', 'Lyon', { permanent: true }))
    expect(await mem.a.pools.status(m.id)).toBe('created')
    expect((await mem.a.pools.get(m.id))!.lifecycle).toBe('active')
    clock.advance(10 * DAY)
    expect(await mem.a.pools.status(m.id)).toBe('stale')
    clock.advance(10 * DAY)
    expect(await mem.a.pools.status(m.id)).toBe('archived')
    expect(await mem.a.pools.status(keep.id)).toBe('stale')
    expect((await mem.a.pools.query(pool.id)).map((x) => x.id)).toEqual([keep.id])
    const archived = await mem.a.pools.query(pool.id, { includeArchived: true })
    expect(archived.find((x) => x.id === m.id)!.lifecycle).toBe('active')
    expect(await mem.a.pools.status(m.id)).toBe('active')
    await mem.a.pools.forget(m.id)
    expect(await mem.a.pools.status(m.id)).toBe('forgotten')
    expect(await mem.a.pools.status('00'.repeat(16))).toBeNull()
    expect(lifecycle({ createdAt: 0, lastAccessed: null, accessCount: 0, permanent: false, superseded: true }, 0, DEFAULT_POLICIES)).toBe('archived')
    await close()
  })

  test('maxSize prunes the least important non-permanent memories down to the threshold, never the new one', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { maxSize: 5, pruningThreshold: 0.6 } })
    const ms = []
    for (let i = 0; i < 5; i++) {
      ms.push(await mem.a.pools.write(pool.id, fact(`item${i}`, 'is', `value${i}`, { confidence: 0.5, permanent: i === 0 })))
      clock.advance(1000)
    }
    // Reads raise importance: item3 and item4 are read, items 1 and 2 are not.
    for (let k = 0; k < 3; k++) await mem.a.pools.query(pool.id, { subject: 'item3' })
    for (let k = 0; k < 3; k++) await mem.a.pools.query(pool.id, { subject: 'item4' })
    const sixth = await mem.a.pools.write(pool.id, fact('item5', 'is', 'value5', { confidence: 0.1 }))
    // 6 > maxSize 5: prune to floor(5 * 0.6) = 3. item0 is permanent, item5 is new; of the rest the
    // unread item1 and item2 go first, then item3 (read as often as item4, but older).
    const left = (await mem.a.pools.query(pool.id)).map((m) => m.content.subject).sort()
    expect(left).toEqual(['item0', 'item4', 'item5'])
    for (const i of [1, 2, 3]) expect(await mem.a.pools.status(ms[i]!.id)).toBe('forgotten')
    expect(sixth.current).toBe(true)
    // Full of permanent memories: a write is refused rather than dropping one.
    const full = await mem.a.pools.create({ policies: { maxSize: 1 } })
    await mem.a.pools.write(full.id, fact('a', 'b', 'c', { permanent: true }))
    await expectCode(mem.a.pools.write(full.id, fact('d', 'e', 'f')), 'QUOTA_EXCEEDED')
    await close()
  })
})
