import { describe, expect, test } from 'vitest'
import { encodeHlc } from '../../src/core/clock.js'
import { isPayload } from '../../src/pools/payload.js'
import { PoolKind, signRecord } from '../../src/pools/records.js'
import { agents, fact, pref, rawMemory } from '../helpers/pools-helpers.js'

/**
 * One truth, two views: a pool memory that is a fact is also in `mem.facts` (GMP), in the pool's
 * tenant, with supersession mirrored and hard deletes carried through. The pool record is authoritative.
 */

describe('pool memories as facts', () => {
  test('a factual memory is a GMP fact in the pool\'s tenant with pool metadata; CONTEXT memories are not', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ tenantId: 'acme' })
    const m = await mem.a.pools.write(pool.id, pref('bullet_points', { confidence: 0.9 }))
    const ctx = await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'chat', predicate: 'topic', object: 'billing' } })
    expect(ctx.factRef).toBeNull()
    expect(m.factRef).not.toBeNull()
    const f = await mem.a.facts.get(m.factRef!)
    expect(f).toMatchObject({
      tenantId: 'acme',
      content: 'communication_style prefers bullet_points (technical_discussions)',
      metadata: {
        subject: 'communication_style', predicate: 'prefers', object: 'bullet_points', importance: m.importance / 10_000,
        pool: pool.id, memoryId: m.id, memoryType: 'PREFERENCE', context: 'technical_discussions', confidence: 0.9,
      },
    })
    expect(f!.structuredId).not.toBeNull()
    const hits = await mem.a.facts.retrieve('communication style', { tenantId: 'acme' })
    expect(hits.map((h) => h.ref)).toEqual([m.factRef])
    expect(await mem.a.facts.retrieve('communication style', { tenantId: null })).toEqual([])
    expect((await mem.a.facts.audit()).map((x) => x.metadata['memoryId'])).toEqual([m.id])
    await close()
  })

  test('update supersedes the fact: the GMP chain, validUntil and current answers follow the pool', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const v1 = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    clock.advance(1000)
    const v2 = await mem.a.pools.update(v1.id, { content: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
    const audit = await mem.a.facts.audit()
    const old = audit.find((f) => f.ref === v1.factRef)!
    expect(old.supersededBy).toBe(v2.factRef)
    expect(old.validUntil).not.toBeNull()
    expect((await mem.a.facts.retrieve('where does Aria live')).map((f) => f.content)).toEqual(['Aria lives in Milan'])
    expect(await mem.a.facts.conflicts()).toEqual([])
    await close()
  })

  test('forgetting the memory hard-deletes every version of its fact view; the predecessor\'s view is current again', async () => {
    const { mem, storage, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const v1 = await mem.a.pools.write(pool.id, fact('spare key', 'hidden_under', 'the blue flowerpot'))
    const v2 = await mem.a.pools.update(v1.id, { content: { subject: 'spare key', predicate: 'hidden_under', object: 'the red doormat' } })
    await mem.a.pools.forget(v2.id)
    expect(await mem.a.facts.get(v2.factRef!)).toBeNull()
    const audit = await mem.a.facts.audit()
    expect(audit.map((f) => f.ref)).toEqual([v1.factRef])
    expect(audit[0]!.supersededBy).toBeNull()
    expect((await mem.a.pools.get(v1.id))!.factRef).toBe(v1.factRef)
    await mem.a.pools.forget(v1.id)
    expect(await mem.a.facts.audit()).toEqual([])
    await mem.a.facts.flush()
    await mem.a.pools.flush()
    const raw = rawMemory(storage)
    expect(raw).not.toContain('red doormat')
    expect(raw).not.toContain('blue flowerpot')
    await close()
  })

  test('cascade forget removes the dependants\' facts; expiry removes the fact at the sweep', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const root = await mem.a.pools.write(pool.id, fact('Aria', 'said', 'moving to Turin'))
    const dep = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Turin', { evidence: [root.id] }))
    const keep = await mem.a.pools.write(pool.id, fact('Bo', 'lives_in', 'Oslo'))
    const brief = await mem.a.pools.write(pool.id, fact('Cy', 'visits', 'Oslo', { ttl: 10 }))
    await mem.a.pools.forget(root.id, { cascade: true })
    expect((await mem.a.facts.audit()).map((f) => f.metadata['memoryId']).sort()).toEqual([keep.id, brief.id].sort())
    expect(dep.factRef).not.toBeNull()
    clock.advance(10_000)
    await mem.a.pools.sweep(pool.id)
    expect((await mem.a.facts.audit()).map((f) => f.metadata['memoryId'])).toEqual([keep.id])
    await close()
  })

  test('merge continues the chain of its newest source; other sources leave current facts', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const x = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome', { confidence: 0.6 }))
    clock.advance(1000)
    const y = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Milan', { confidence: 0.9 }))
    expect((await mem.a.facts.conflicts()).length).toBe(1)
    const merged = await mem.a.pools.merge([x.id, y.id], 'maximum')
    const audit = await mem.a.facts.audit()
    expect(audit.find((f) => f.ref === y.factRef)!.supersededBy).toBe(merged.factRef)
    expect(audit.find((f) => f.ref === x.factRef)).toBeUndefined()
    // retrieve() ranks every current fact (GMP never filters); the current ones are the pool's current memories.
    const current = async (subject: string) => (await mem.a.facts.retrieve(subject)).filter((f) => f.metadata['subject'] === subject)
    expect((await current('Aria')).map((f) => f.metadata['memoryId'])).toEqual([merged.id])
    expect(await mem.a.facts.conflicts()).toEqual([])
    // Resolving a conflict by winner takes the loser out of current facts too.
    const p = await mem.a.pools.write(pool.id, fact('Bo', 'lives_in', 'Oslo'))
    const q = await mem.a.pools.write(pool.id, fact('Bo', 'lives_in', 'Bergen'))
    const [c] = await mem.a.pools.conflicts(pool.id)
    await mem.a.pools.resolve(c!.id, { winner: q.id })
    expect((await current('Bo')).map((f) => f.ref)).toEqual([q.factRef])
    expect(p.factRef).not.toBeNull()
    await close()
  })

  test('encrypted pools and EPHEMERAL memories have no fact view (it would hold plaintext)', async () => {
    const { mem, close } = await agents(['a'])
    const sealed = await mem.a.pools.create({ privacy: 'ENCRYPTED' })
    const s = await mem.a.pools.write(sealed.id, fact('vault', 'code', '1234'))
    const open = await mem.a.pools.create()
    const e = await mem.a.pools.write(open.id, { ...fact('otp', 'is', '9999'), privacy: 'EPHEMERAL' })
    expect([s.factRef, e.factRef]).toEqual([null, null])
    expect(await mem.a.facts.audit()).toEqual([])
    await close()
  })

  test('a fact view deleted through mem.facts is not resurrected by later pool operations', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create()
    const m = await mem.a.pools.write(pool.id, fact('Aria', 'likes', 'tea'))
    expect(await mem.a.facts.delete(m.factRef!)).toBe(true)
    await mem.a.pools.write(pool.id, fact('Bo', 'likes', 'coffee'))
    await mem.a.pools.query(pool.id)
    expect((await mem.a.facts.audit()).map((f) => f.metadata['subject'])).toEqual(['Bo'])
    expect((await mem.a.pools.get(m.id))!.factRef).toBeNull()
    await close()
  })

  test('two current memories that say one text each have their own fact: forgetting one leaves the other\'s', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { deduplication: false, autoMerge: false } })
    const first = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    clock.advance(1000)
    const second = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    expect(second.id).not.toBe(first.id)
    // GMP answers a re-assertion of a current text with the fact already there; each memory's fact
    // is valid from its own createdAt, so the second is a fact of its own, not the first one's.
    expect(second.factRef).not.toBeNull()
    expect(second.factRef).not.toBe(first.factRef)
    expect((await mem.a.facts.get(second.factRef!))!.metadata['memoryId']).toBe(second.id)
    expect((await mem.a.facts.get(first.factRef!))!.validFrom).toBe(new Date(first.createdAt).toISOString().replace('Z', '000+00:00'))
    await mem.a.pools.forget(first.id)
    const left = (await mem.a.facts.audit()).filter((f) => f.metadata['pool'] === pool.id && f.supersededBy === null)
    expect(left.map((f) => f.metadata['memoryId'])).toEqual([second.id])
    await close()
  })

  test('two current memories that say one text, made in one millisecond, share one fact; the other gets its own when it goes', async () => {
    const { mem, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ policies: { deduplication: false, autoMerge: false } })
    const current = async (): Promise<Array<{ content: string; memoryId: unknown }>> =>
      (await mem.a.facts.audit()).filter((f) => f.metadata['pool'] === pool.id && f.supersededBy === null).map((f) => ({ content: f.content, memoryId: f.metadata['memoryId'] }))
    // Same text, same validFrom (createdAt), same signer: GMP answers the second write with the first's fact.
    const first = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    const second = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    const third = await mem.a.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    expect(new Set([first.id, second.id, third.id]).size).toBe(3)
    expect(await current()).toEqual([{ content: 'Aria lives in Rome', memoryId: first.id }])
    // The update continues the first's chain: the shared fact is no longer a head, and the others,
    // which nothing links to the update, must not be left without the text.
    const moved = await mem.a.pools.update(first.id, { content: { subject: 'Aria', predicate: 'lives_in', object: 'Oslo' } })
    const after = await current()
    expect(after.map((f) => f.content).sort()).toEqual(['Aria lives in Oslo', 'Aria lives in Rome'])
    const rome = after.find((f) => f.content === 'Aria lives in Rome')!
    expect([second.id, third.id]).toContain(rome.memoryId)
    // Forgetting the one the fact now names hands it on again: a deletion takes it away as well.
    await mem.a.pools.forget(rome.memoryId as string)
    const left = rome.memoryId === second.id ? third.id : second.id
    expect((await current()).sort((a, b) => a.content.localeCompare(b.content))).toEqual([
      { content: 'Aria lives in Oslo', memoryId: moved.id },
      { content: 'Aria lives in Rome', memoryId: left },
    ])
    await close()
  })

  test('a memory whose createdAt no GMP time can hold still gets its fact, and the others theirs', async () => {
    const { mem, id, storage, clock, close } = await agents(['owner', 'other'])
    const pool = await mem.owner.pools.create()
    const normal = await mem.owner.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    // The writer chooses createdAt; year 318857 is a valid number but no GMP time.
    const payload = {
      type: 'KNOWLEDGE', subject: 'Bruno', predicate: 'lives_in', object: 'Oslo', context: null, confidence: 1, source: 'x', evidence: [],
      createdAt: 1e16, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
    }
    expect(isPayload(payload)).toBe(true)
    const odd = await signRecord(id.owner, {
      kind: PoolKind.MEMORY, pool: pool.id, tenant: null, author: id.owner.did, hlc: encodeHlc({ wall: clock.now(), counter: 1, node: 'x' }), body: { payload } as never,
    })
    await storage.write(['records', 'log'], async (tx) => {
      await tx.put('records', [odd])
      await tx.put('log', [{ ref: odd.id, op: 'put' }])
    })
    // A share brings the fact view of every current memory in line (Maintenance.afterAuthority).
    await mem.owner.pools.share(pool.id, id.other.did)
    const later = await mem.owner.pools.write(pool.id, fact('Cy', 'lives_in', 'Lima'))
    const facts = (await mem.owner.facts.audit()).filter((f) => f.metadata['pool'] === pool.id && f.supersededBy === null)
    expect(facts.map((f) => f.metadata['memoryId']).sort()).toEqual([normal.id, odd.id, later.id].sort())
    await close()
  })
})
