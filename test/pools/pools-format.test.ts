import { describe, expect, test } from 'vitest'
import type { PoolExport } from '../../src/index.js'
import { agents, expectCode, fact, pref } from '../helpers/pools-helpers.js'

/** LCS-004 §3 JSON content format: export, import, round trip, and NO_TRAINING carried through all of it. */

/** What must survive a round trip: everything but ids, times of this export, reads and the importing agent. */
function comparable(e: PoolExport): unknown[] {
  const idx = new Map(e.memories.map((m, i) => [m.memory_id, i]))
  return e.memories.map((m) => ({
    type: m.type, content: m.content, privacy: m.privacy,
    metadata: {
      confidence: m.metadata.confidence, source: m.metadata.source, ttl: m.metadata.ttl, permanent: m.metadata.permanent,
      timestamp: m.metadata.timestamp,
      evidence: m.metadata.supporting_evidence.map((id) => idx.get(id)).sort(),
      supersedes: m.metadata.supersedes.map((id) => idx.get(id)).sort(),
      merged: m.metadata.merged_from && { strategy: m.metadata.merged_from.strategy, from: m.metadata.merged_from.memory_ids.map((id) => idx.get(id)).sort() },
    },
  }))
}

describe('pool import and export', () => {
  test('export writes each memory in the spec\'s JSON shape, with NO_TRAINING on the memories that carry it', async () => {
    const { mem, id, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ name: 'prefs' })
    const ev = await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'chat', predicate: 'said', object: 'use bullets please' } })
    const m = await mem.a.pools.write(pool.id, pref('bullet_points', { confidence: 0.95, evidence: [ev.id], privacy: ['AUTHORIZED', 'NO_TRAINING'] }))
    const out = await mem.a.pools.export(pool.id)
    expect(out).toMatchObject({
      version: '1.0.0', format: 'lcs-004-pool',
      pool: { pool_id: `0x${pool.id}`, owner: id.a.did, name: 'prefs', encryption: 'none', no_training: false, exported_by: id.a.did, exported_at: new Date(clock.now()).toISOString() },
    })
    expect(out.pool.policies).toMatchObject({ max_size: null, auto_merge: false, deduplication: true, pruning_threshold: 0.9 })
    expect(out.memories.find((x) => x.memory_id === `0x${m.id}`)).toEqual({
      version: '1.0.0',
      memory_id: `0x${m.id}`,
      type: 'PREFERENCE',
      content: { subject: 'communication_style', predicate: 'prefers', object: 'bullet_points', context: 'technical_discussions' },
      metadata: {
        confidence: 0.95, source: 'direct_statement', supporting_evidence: [`0x${ev.id}`], creating_agent: id.a.did,
        timestamp: new Date(clock.now()).toISOString(), ttl: null, permanent: false, access_count: 0, last_accessed: null,
        importance: m.importance, supersedes: [], merged_from: null,
      },
      privacy: { encryption: 'none', visibility: 'authorized_agents_only', no_training: true },
    })
    expect(out.memories.find((x) => x.memory_id === `0x${ev.id}`)!.privacy.no_training).toBe(false)
    // A training pipeline leaves NO_TRAINING memories out.
    expect((await mem.a.pools.query(pool.id, { forTraining: true })).map((x) => x.id)).toEqual([ev.id])
    await close()
  })

  test('export -> import -> export round trips; references are remapped; NO_TRAINING is kept on every memory', async () => {
    const { mem, id, clock, close } = await agents(['a', 'b'])
    const pool = await mem.a.pools.create({ name: 'research', privacy: 'NO_TRAINING', policies: { autoMerge: false, maxSize: 100 } })
    const e = await mem.a.pools.write(pool.id, fact('paper', 'claims', 'X improves Y', { source: 'inference', confidence: 0.42 }))
    clock.advance(1000)
    const a1 = await mem.a.pools.write(pool.id, fact('X', 'improves', 'Y', { evidence: [e.id], ttl: 7 * 24 * 3600 }))
    clock.advance(1000)
    const a2 = await mem.a.pools.update(a1.id, { confidence: 0.8 })
    clock.advance(1000)
    const b1 = await mem.a.pools.write(pool.id, fact('Z', 'is', 'blue', { permanent: true, privacy: 'PUBLIC' }))
    clock.advance(1000)
    const b2 = await mem.a.pools.write(pool.id, fact('Z', 'is', 'navy blue'))
    clock.advance(1000)
    const merged = await mem.a.pools.merge([b1.id, b2.id], 'maximum')
    const first = await mem.a.pools.export(pool.id)
    expect(first.pool.no_training).toBe(true)
    expect(first.memories.map((m) => m.privacy.no_training)).toEqual(first.memories.map(() => true))
    expect(first.memories).toHaveLength(6)

    const { pool: copy, ids } = await mem.b.pools.import(JSON.parse(JSON.stringify(first)))
    expect(copy).toMatchObject({ owner: id.b.did, name: 'research', noTraining: true, encrypted: false, size: 6, current: 3 })
    expect(copy.policies.maxSize).toBe(100)
    expect(ids.get(a2.id)).toBeDefined()
    const second = await mem.b.pools.export(copy.id)
    expect(comparable(second)).toEqual(comparable(first))
    expect(second.memories.every((m) => m.metadata.creating_agent === id.b.did)).toBe(true)
    const mergedCopy = await mem.b.pools.get(ids.get(merged.id)!)
    expect(mergedCopy).toMatchObject({ current: true, merged: { strategy: 'maximum', from: [ids.get(b1.id), ids.get(b2.id)].sort() } })
    expect((await mem.b.pools.get(ids.get(a1.id)!))!.supersededBy).toEqual([ids.get(a2.id)])
    await close()
  })

  test('the spec\'s own example memory imports as it stands; bad files are refused naming the path', async () => {
    const { mem, id, close } = await agents(['a', 'reader'])
    const example = {
      version: '1.0.0',
      memory_id: '0x' + 'ab'.repeat(16),
      type: 'PREFERENCE',
      content: { subject: 'communication_style', predicate: 'prefers', object: 'bullet_points', context: 'technical_discussions' },
      metadata: { confidence: 0.95, source: 'direct_statement', supporting_evidence: ['0x' + 'cd'.repeat(16)] },
      privacy: { encryption: 'none', visibility: 'authorized_agents_only', no_training: true },
    }
    const { pool, ids } = await mem.a.pools.import([example])
    const m = (await mem.a.pools.get(ids.get('ab'.repeat(16))!))!
    expect(m).toMatchObject({ confidence: 0.95, source: 'direct_statement', evidence: [], privacy: { noTraining: true, visibility: 'AUTHORIZED' } })
    expect((await mem.a.pools.export(pool.id)).memories[0]!.privacy.no_training).toBe(true)
    // Importing again into the same pool deduplicates.
    const again = await mem.a.pools.import([example], { poolId: pool.id })
    expect(again.ids.get('ab'.repeat(16))).toBe(m.id)
    expect(again.pool.size).toBe(1)
    await mem.a.pools.share(pool.id, id.reader.did)
    await expectCode(mem.reader.pools.import([example], { poolId: pool.id }), 'PERMISSION_DENIED')
    await expectCode(mem.a.pools.import({ memories: [{ ...example, type: 'OPINION' }] }), 'INVALID_ARGUMENT', 'data.memories[0].type')
    await expectCode(mem.a.pools.import({ memories: [{ ...example, content: { subject: 'x' } }] }), 'INVALID_ARGUMENT', 'data.memories[0].content.predicate')
    await expectCode(mem.a.pools.import({ memories: [{ ...example, metadata: { confidence: 95 } }] }), 'INVALID_ARGUMENT', 'data.memories[0].metadata.confidence')
    await expectCode(mem.a.pools.import({ memories: [example, example] }), 'INVALID_ARGUMENT', 'data.memories[1].memory_id')
    await expectCode(mem.a.pools.import({ version: '2.0.0', memories: [] }), 'INVALID_ARGUMENT', 'data.version')
    await expectCode(mem.a.pools.import('nope'), 'INVALID_ARGUMENT', 'data')
    expect((await mem.a.pools.list()).length).toBe(1)
    await close()
  })

  test('an encrypted pool exports as aes-256-gcm and imports into an encrypted pool; expired memories are skipped', async () => {
    const { mem, clock, close } = await agents(['a', 'b'])
    const pool = await mem.a.pools.create({ privacy: ['ENCRYPTED', 'NO_TRAINING'] })
    await mem.a.pools.write(pool.id, fact('vault', 'code', '1234'))
    await mem.a.pools.write(pool.id, fact('vault', 'note', 'brief', { ttl: 5 }))
    const out = await mem.a.pools.export(pool.id)
    expect(out.pool.encryption).toBe('aes-256-gcm')
    expect(out.memories.map((m) => m.privacy)).toEqual([
      { encryption: 'aes-256-gcm', visibility: 'authorized_agents_only', no_training: true },
      { encryption: 'aes-256-gcm', visibility: 'authorized_agents_only', no_training: true },
    ])
    clock.advance(5000)
    const { pool: copy } = await mem.b.pools.import(out)
    expect(copy).toMatchObject({ encrypted: true, noTraining: true, size: 1 })
    expect((await mem.b.pools.query(copy.id)).map((m) => m.content.object)).toEqual(['1234'])
    await close()
  })
})
