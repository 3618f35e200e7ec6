import * as Y from 'yjs'
import { describe, expect, test } from 'vitest'
import { encodeHlc } from '../../src/core/clock.js'
import { signRecord } from '../../src/core/signed-record.js'
import type { PoolId } from '../../src/index.js'
import { SMALL_DOC_KIND, SMALL_PROGRESS_KIND } from '../../src/small/state.js'
import { ARTIFACT_VERSION_KIND } from '../../src/artifacts/state.js'
import { RECORDS_MAP } from '../../src/sync/index.js'
import { T0, expectCode } from '../helpers/pools-helpers.js'
import { network, settle, useDevices, type Device } from '../helpers/sync-helpers.js'

/**
 * Other modules' records shared through a pool (src/sync/content.ts): SMP artifact versions and
 * SMALL documents and progress entries replicate in the pool's Y.Doc, forks are flagged on every
 * replica, and what the pool's ACL or the module's protocol forbids is quarantined everywhere.
 */

const setup = useDevices(7)

/** A signed record put straight into a document by a raw client (no Memory, no API checks). */
async function inject(doc: Y.Doc, who: Device, pool: PoolId, kind: string, body: unknown, ms: number): Promise<string> {
  const r = await signRecord(who.id, { kind, pool, tenant: null, body, author: who.id.did, hlc: encodeHlc({ wall: T0 + ms, counter: 0, node: 'raw' }) })
  doc.getMap(RECORDS_MAP).set(r.id, { ...r })
  return r.id
}

describe('artifacts shared through a pool', () => {
  test('versions replicate; concurrent commits on one parent are a fork flagged on both replicas, and a merge resolves it everywhere', async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'research' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    const created = await d.alice.mem.artifacts.create('llm-context', { body: 'Context windows.\n', pool })
    expect(created.pool).toBe(pool)
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem])
    expect((await d.bob.mem.artifacts.read('llm-context')).versionId).toBe(created.versionId)

    net.setOnline('alice', false)
    net.setOnline('bob', false)
    c.advance(60_000)
    const a = await d.alice.mem.artifacts.commit('llm-context', { body: 'Context windows grow.\n', message: 'alice edits' })
    const b = await d.bob.mem.artifacts.commit('llm-context', { body: 'Context windows shrink.\n', message: 'bob edits' })
    // Each commit followed its parent into the pool.
    expect([a.pool, b.pool]).toEqual([pool, pool])
    net.setOnline('alice', true)
    net.setOnline('bob', true)
    await settle(net, [d.alice.mem, d.bob.mem])

    const views = await Promise.all([d.alice, d.bob].map((x) => x.mem.artifacts.read('llm-context')))
    for (const v of views) {
      expect(v.conflicted).toBe(true)
      expect([...v.heads].sort()).toEqual([a.versionId, b.versionId].sort())
    }
    expect(views[1]!.versionId).toBe(views[0]!.versionId) // the same winner, by the same rule, on both
    expect((await d.bob.mem.artifacts.list())[0]).toMatchObject({ slug: 'llm-context', conflicted: true, pool })

    const merged = await d.bob.mem.artifacts.merge('llm-context', 'llm-context', { message: 'both kept' })
    await settle(net, [d.alice.mem, d.bob.mem])
    for (const x of [d.alice, d.bob]) {
      const v = await x.mem.artifacts.read('llm-context')
      expect(v).toMatchObject({ versionId: merged.versionId, conflicted: false, pool })
      expect(v.body).toContain('grow')
      expect(v.body).toContain('shrink')
      expect((await x.mem.artifacts.history('llm-context')).map((h) => h.versionId).sort()).toEqual(
        [created.versionId, a.versionId, b.versionId, merged.versionId].sort(),
      )
    }
  })

  test('the pool gate: unknown, read-only and encrypted pools refuse a pooled artifact with a stable code, storing nothing', async () => {
    const { d } = await setup(['alice', 'bob'] as const)
    const plain = (await d.alice.mem.pools.create({ name: 'plain' })).id
    const sealed = (await d.alice.mem.pools.create({ name: 'sealed', privacy: ['ENCRYPTED'] })).id
    await d.alice.mem.pools.share(plain, d.bob.id.did)
    await expectCode(d.bob.mem.artifacts.create('x', { pool: '0'.repeat(32) }), 'NOT_FOUND')
    await expectCode(d.alice.mem.artifacts.create('x', { pool: 'nope' }), 'INVALID_ARGUMENT', 'pool')
    await expectCode(d.alice.mem.artifacts.create('x', { pool: sealed }), 'CAPABILITY_NOT_SUPPORTED')
    expect(await d.alice.mem.artifacts.list()).toEqual([])
    await expectCode(d.alice.mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [] }, { pool: sealed }), 'CAPABILITY_NOT_SUPPORTED')
    expect(await d.alice.mem.small.projects()).toEqual([])
  })

  test('a read-only member is refused by its own API, and its forged version is quarantined by every replica', async () => {
    const { d, c } = await setup(['alice', 'bob', 'carol'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'research' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did)
    await d.alice.mem.pools.share(pool, d.carol.id.did, { write: true })
    const root = await d.alice.mem.artifacts.create('notes', { body: 'v1\n', pool })
    for (const x of [d.alice, d.bob, d.carol]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem, d.carol.mem])
    await expectCode(d.bob.mem.artifacts.commit('notes', { body: 'bob was here\n', message: 'no' }), 'PERMISSION_DENIED')

    // Bob bypasses his API: a raw client signs a version with his key and pushes it into the document.
    const raw = new Y.Doc()
    net.provider('bob-raw').connect(pool, raw, () => undefined)
    await settle(net, [d.alice.mem, d.carol.mem])
    const text = (await d.alice.mem.artifacts.read('notes')).text.replace('v1', 'bob was here')
    // The replicas' clocks reach its date: one further ahead than a minute waits for them (docs/sync.md, "Clocks").
    c.advance(120_000)
    const forged = await inject(raw, d.bob, pool, ARTIFACT_VERSION_KIND, { slug: 'notes', version: 2, parents: [root.versionId], text }, 120_000)
    await settle(net, [d.alice.mem, d.bob.mem, d.carol.mem])
    for (const x of [d.alice, d.bob, d.carol]) {
      expect((await x.mem.artifacts.read('notes')).versionId).toBe(root.versionId)
      expect((await x.mem.sync.quarantine(pool)).map((q) => [q.key, q.reason, q.kind])).toEqual([[forged, 'read-only', ARTIFACT_VERSION_KIND]])
    }
  })
})

describe('SMALL projects shared through a pool', () => {
  const plan = { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship sync' }] }
  const intent = { small_version: '1.0.0', owner: 'human', intent: 'Agents share memory', scope: { include: ['sync'], exclude: [] }, success_criteria: ['converge'] }

  test("a shared project converges: documents and both devices' progress entries, in one order; the pool's humans own intent", async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'project' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    // Alice owns the pool, so she acts for a person in it; Bob is an agent.
    await d.alice.mem.small.put('intent', intent, { project: 'memweave', pool })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem])
    await expectCode(d.bob.mem.small.put('intent', intent, { project: 'memweave', pool }), 'PERMISSION_DENIED')
    expect((await d.bob.mem.small.get('intent', { project: 'memweave' }))?.data).toMatchObject({ intent: 'Agents share memory' })
    // The project is shared now: Bob's writes follow it into the pool without naming it.
    await d.bob.mem.small.put('plan', plan, { project: 'memweave' })
    net.setOnline('alice', false)
    net.setOnline('bob', false)
    for (let i = 0; i < 3; i++) {
      c.advance(1000)
      await d.alice.mem.small.appendProgress({ task_id: 't1', status: 'in_progress', evidence: `alice ${i}` }, { project: 'memweave' })
      c.advance(1000)
      await d.bob.mem.small.appendProgress({ task_id: 't1', status: 'in_progress', evidence: `bob ${i}` }, { project: 'memweave' })
    }
    net.setOnline('alice', true)
    net.setOnline('bob', true)
    await settle(net, [d.alice.mem, d.bob.mem])
    const [a, b] = await Promise.all([d.alice, d.bob].map((x) => x.mem.small.export({ project: 'memweave' })))
    expect(b).toEqual(a)
    const entries = (await d.alice.mem.small.get('progress', { project: 'memweave' }))!.data.entries
    expect(entries.map((e) => e.evidence)).toEqual(['alice 0', 'bob 0', 'alice 1', 'bob 1', 'alice 2', 'bob 2'])
    expect((await d.alice.mem.sync.quarantine(pool))).toEqual([])
  })

  test('a human-owned document by an agent and an edited progress entry are quarantined on every replica', async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'project' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    await d.alice.mem.small.put('intent', intent, { project: 'p', pool })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    const raw = new Y.Doc()
    net.provider('raw').connect(pool, raw, () => undefined)
    await settle(net, [d.alice.mem, d.bob.mem])
    const entry = await d.bob.mem.small.appendProgress({ task_id: 't1', status: 'in_progress', evidence: 'real' }, { project: 'p' })
    await settle(net, [d.alice.mem, d.bob.mem])

    const current = (await d.alice.mem.small.get('intent', { project: 'p' }))!
    // The replicas' clocks reach the raw records' dates (one more than a minute ahead waits: docs/sync.md, "Clocks").
    c.advance(62_000)
    const hijack = await inject(raw, d.bob, pool, SMALL_DOC_KIND, { project: 'p', name: 'intent', text: current.text.replace('Agents share memory', 'Agents own the humans'), prev: current.version }, 60_000)
    const edited = { ...entry, evidence: 'rewritten' }
    const progressText = `small_version: "1.0.0"\nowner: agent\nentries:\n  - ${JSON.stringify(edited)}\n`
    const rewrite = await inject(raw, d.bob, pool, SMALL_DOC_KIND, { project: 'p', name: 'progress', text: progressText, prev: null }, 61_000)
    // A new entry of its own is fine: progress grows by records.
    await inject(raw, d.bob, pool, SMALL_PROGRESS_KIND, { project: 'p', entry: { ...entry, timestamp: entry.timestamp!.replace(/\d{2}Z$/, '59Z'), evidence: 'later' } }, 62_000)
    await settle(net, [d.alice.mem, d.bob.mem])

    for (const x of [d.alice, d.bob]) {
      expect((await x.mem.small.get('intent', { project: 'p' }))!.data).toMatchObject({ intent: 'Agents share memory' })
      const q = await x.mem.sync.quarantine(pool)
      expect(q.map((e) => [e.key, e.reason]).sort()).toEqual([[hijack, 'protocol'], [rewrite, 'protocol']].sort())
      expect(q.find((e) => e.key === rewrite)!.detail).toMatch(/append-only/)
      const entries = (await x.mem.small.get('progress', { project: 'p' }))!.data.entries.map((e) => e.evidence)
      expect(entries).toEqual(['real', 'later'])
    }
  })
})

describe('working memory shared through a pool', () => {
  test("a shared task's observations reach every replica, with their authors; a non-writer's handle cannot add to it", async () => {
    const { d, c } = await setup(['alice', 'bob', 'carol'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'incident' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    await d.alice.mem.pools.share(pool, d.carol.id.did)
    for (const x of [d.alice, d.bob, d.carol]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem, d.carol.mem])
    const [wa, wb, wc] = await Promise.all([d.alice, d.bob, d.carol].map((x) => x.mem.working.open('incident-42', { pool })))
    const a = await wa!.addObservation({ content: 'The relay restarted at 03:10', sourceAgentId: 'alice-agent', isBeliefCandidate: true, beliefType: 'FACT' })
    c.advance(1000)
    const b = await wb!.addObservation({ content: 'Disk on the relay host is 97% full', sourceAgentId: 'bob-agent' })
    await expectCode(wc!.addObservation({ content: 'carol only reads', sourceAgentId: 'carol-agent' }), 'PERMISSION_DENIED')
    await settle(net, [d.alice.mem, d.bob.mem, d.carol.mem])
    for (const w of [wa!, wb!, wc!]) {
      const seen = await w.observations()
      expect(seen.map((o) => [o.id, o.sourceAgentId, o.content]).sort()).toEqual(
        [[a.id, 'alice-agent', a.content], [b.id, 'bob-agent', b.content]].sort(),
      )
    }
    expect((await wb!.getBeliefCandidates()).map((o) => o.id)).toEqual([a.id])
    // A task that is not shared stays on its device.
    const local = await d.alice.mem.working.open('private-notes')
    await local.addObservation({ content: 'only here', sourceAgentId: 'alice-agent' })
    await settle(net, [d.alice.mem, d.bob.mem, d.carol.mem])
    expect(await (await d.bob.mem.working.open('private-notes')).observations()).toEqual([])
  })

  test('a contradiction observed on two devices while apart is flagged on both once they meet', async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'standup' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem])
    const [wa, wb] = await Promise.all([d.alice, d.bob].map((x) => x.mem.working.open('standup', { pool })))
    net.setOnline('alice', false)
    net.setOnline('bob', false)
    const a = await wa!.addObservation({ content: 'Meeting at 3pm', sourceAgentId: 'agent-a', isBeliefCandidate: true, beliefType: 'FACT' })
    c.advance(1000)
    const b = await wb!.addObservation({ content: 'Meeting at 4pm', sourceAgentId: 'agent-b', isBeliefCandidate: true, beliefType: 'FACT' })
    // Apart, neither device has anything to compare with.
    expect([await wa!.getConflicts(), await wb!.getConflicts()]).toEqual([[], []])
    net.setOnline('alice', true)
    net.setOnline('bob', true)
    await settle(net, [d.alice.mem, d.bob.mem])
    for (const w of [wa!, wb!]) {
      const conflicts = await w.getConflicts()
      expect(conflicts.map((k) => [k.a.id, k.b.id].sort())).toEqual([[a.id, b.id].sort()])
      expect(conflicts[0]).toMatchObject({ flaggedBy: 'detector', resolution: null })
      // Neither side of an open conflict is a belief candidate any more, on either device.
      expect(await w.getBeliefCandidates()).toEqual([])
    }
  })
})
