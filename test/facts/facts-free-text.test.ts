import { describe, expect, test } from 'vitest'
import { createMemory, type Memory } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { agents, fact } from '../helpers/pools-helpers.js'

/**
 * Issue 16: contradictions between facts written as text alone (no subject/predicate/object),
 * flagged by the model-free detector among each new fact's nearest lexical neighbours.
 */
describe('facts: free-text conflicts', () => {
  const projector = 'Room 4B has a projector'
  const noProjector = '4B has no projector, just a wall TV'

  async function open(storage = memoryStorage(), extra: { freeTextConflicts?: boolean } = {}): Promise<Memory> {
    return createMemory({ storage, facts: { ...extra } })
  }

  test('a contradiction is listed once, with a reason, and both sides point at each other', async () => {
    const mem = await open()
    const a = await mem.facts.write(projector)
    const b = await mem.facts.write(noProjector)
    const conflicts = await mem.facts.conflicts()
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toMatchObject({ kind: 'free-text', subject: null, predicate: null, tenantId: null })
    expect([...conflicts[0]!.refs].sort()).toEqual([a, b].sort())
    expect(conflicts[0]!.reason).toMatch(/projector/)
    expect((await mem.facts.get(a))!.conflictsWith).toEqual([b])
    expect((await mem.facts.get(b))!.conflictsWith).toEqual([a])
    await mem.close()
  })

  test('one fact\'s conflictsWith is complete without listing every conflict first', async () => {
    const mem = await open()
    const a = await mem.facts.write('the python sdk repo is public on GitHub')
    const b = await mem.facts.write("SDK repo's private, you need an invite to even see it")
    // get() compares the fact it returns with its neighbours; nothing else has been asked yet.
    expect((await mem.facts.get(b))!.conflictsWith).toEqual([a])
    expect((await mem.facts.get(a))!.conflictsWith).toEqual([b])
    await mem.close()
  })

  test('agreeing, unrelated and structured facts are not flagged', async () => {
    const mem = await open()
    await mem.facts.write('access tokens expire after 1 hour')
    await mem.facts.write('token TTL is 3600s')
    await mem.facts.write('incident #311 resolved')
    await mem.facts.write('room 311 booked for the interview loop')
    expect(await mem.facts.conflicts()).toEqual([])
    await mem.close()
  })

  test('structured facts: one subject and predicate is the structured check\'s, other slots are judged by text', async () => {
    const mem = await createMemory({ storage: memoryStorage(), facts: { multiValuedPredicates: ['speaks'] } })
    // Multi-valued: "speaks Spanish" and "speaks English" both hold, whatever the text says.
    await mem.facts.write('Ana speaks Spanish', { metadata: { subject: 'Ana', predicate: 'speaks', object: 'Spanish' } })
    await mem.facts.write('Ana speaks English', { metadata: { subject: 'Ana', predicate: 'speaks', object: 'English' } })
    expect(await mem.facts.conflicts()).toEqual([])
    // Two predicates for one thing: only the text shows the contradiction.
    const a = await mem.facts.write('the gym opens at 6am', { metadata: { subject: 'gym', predicate: 'opens_at', object: '6am' } })
    const b = await mem.facts.write('the gym opens at 7am', { metadata: { subject: 'gym', predicate: 'opening_hour', object: '7am' } })
    const conflicts = await mem.facts.conflicts()
    expect(conflicts.map((c) => [c.kind, [...c.refs].sort()])).toEqual([['free-text', [a, b].sort()]])
    await mem.close()
  })

  test('the flag survives a reload: a new handle on the same storage derives it again', async () => {
    const storage = memoryStorage()
    const mem = await open(storage)
    const a = await mem.facts.write('Q2 earnings release is Jul 24')
    const b = await mem.facts.write('earnings go out 7/31')
    await mem.facts.flush()
    await mem.close()
    const again = await open(storage)
    const conflicts = await again.facts.conflicts()
    expect(conflicts.map((c) => [...c.refs].sort())).toEqual([[a, b].sort()])
    expect(conflicts[0]!.reason).toMatch(/Jul 24.*7\/31|7\/31.*Jul 24/)
    await again.close()
  })

  test('hard delete of one side clears the flag on the other; superseding one side does too', async () => {
    const mem = await open()
    const a = await mem.facts.write(projector)
    const b = await mem.facts.write(noProjector)
    expect(await mem.facts.delete(b)).toBe(true)
    expect(await mem.facts.conflicts()).toEqual([])
    expect((await mem.facts.get(a))!.conflictsWith).toEqual([])
    const c = await mem.facts.write(noProjector + ' anymore')
    expect((await mem.facts.conflicts()).map((x) => [...x.refs].sort())).toEqual([[a, c].sort()])
    // A newer version of one side is what holds now: the old pair is no longer current.
    await mem.facts.supersede(c, 'Room 4B got its projector back')
    expect(await mem.facts.conflicts()).toEqual([])
    await mem.close()
  })

  test('never settled: both sides stay current and retrievable', async () => {
    const mem = await open()
    await mem.facts.write('Sven passed the AWS SA Associate exam last month')
    await mem.facts.write('sven failed his SA Associate attempt last month, retake in June')
    const hits = await mem.facts.retrieve('Sven SA Associate exam', { budgetTokens: 1000 })
    expect(hits).toHaveLength(2)
    expect(hits.every((h) => h.supersededBy === null && h.conflictsWith.length === 1)).toBe(true)
    await mem.close()
  })

  test('found among many unrelated facts: the neighbour search keys on rare terms', async () => {
    const mem = await open()
    const a = await mem.facts.write('the Kestrel contract is signed by both parties')
    for (let i = 0; i < 300; i++) await mem.facts.write(`note ${i}: the weekly contract review covers vendor ${i % 17} and the signed amendments`)
    const b = await mem.facts.write('kestrel contract: still waiting on their countersignature')
    const refs = (await mem.facts.conflicts()).map((c) => [...c.refs].sort())
    expect(refs).toContainEqual([a, b].sort())
    await mem.close()
  })

  test('tenants are isolated: a contradiction across tenants is not one', async () => {
    const mem = await open()
    await mem.facts.write(projector, { tenantId: 'acme' })
    await mem.facts.write(noProjector, { tenantId: 'globex' })
    expect(await mem.facts.conflicts()).toEqual([])
    await mem.close()
  })

  test('pool memories: their fact views are judged too, and every handle on the database sees the flag', async () => {
    const { mem, reopen, close } = await agents(['a', 'b'])
    const pool = await mem.a.pools.create({ tenantId: 'acme' })
    // Two predicates, so the pool's own contradiction check (one subject, one predicate) cannot see it.
    const x = await mem.a.pools.write(pool.id, fact('daily standup', 'starts_at', '9:30'))
    const y = await mem.a.pools.write(pool.id, fact('daily standup', 'moved_to', '10:15'))
    expect(await mem.a.pools.conflicts(pool.id)).toEqual([])
    for (const m of [mem.a, mem.b, await reopen('b')]) {
      const conflicts = await m.facts.conflicts({ tenantId: 'acme' })
      expect(conflicts.map((c) => [c.kind, [...c.refs].sort()])).toEqual([['free-text', [x.factRef, y.factRef].sort()]])
    }
    await close()
  })

  test('the off switch: createMemory({ facts: { freeTextConflicts: false } })', async () => {
    const mem = await open(memoryStorage(), { freeTextConflicts: false })
    const a = await mem.facts.write(projector)
    await mem.facts.write(noProjector)
    expect(await mem.facts.conflicts()).toEqual([])
    expect((await mem.facts.get(a))!.conflictsWith).toEqual([])
    await mem.close()
  })
})
