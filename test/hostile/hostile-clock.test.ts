import { expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { decodeHlc } from '../../src/core/clock.js'
import type { Identity } from '../../src/core/identity.js'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { RecordLog } from '../../src/records/log.js'
import { signRecord as signAny } from '../../src/core/signed-record.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { PoolKind, signRecord, type MemoryBody, type PoolRecord } from '../../src/pools/records.js'
import { asValue } from '../../e2e/raw-client.js'
import { removeDir, tempDir } from '../../e2e/relay-process.js'
import { fact } from '../helpers/pools-helpers.js'
import { arena, writersArena, eventually, memoryBody, objects, type Arena } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Regression (issue 26, cases 1 and 2: "a clock from the far future", "a clock past the date
 * range"). A member signed one valid memory stamped at wall `ffffffffffff` (year 10889, counter
 * `ffffff`), or at 2^53-1 ms, and put it into the pool through the relay. Every replica's hybrid
 * logical clock jumped there: later honest records were dated in year 10889 and their counters
 * outgrew six digits (`ffffffffffff.1000001`, out of clock order), a member whose grant expires
 * could never write again, and at 2^53-1 ms facts, artifacts and working memory threw
 * `RangeError: Invalid time value` on every replica, after a restart too.
 */

/** How far ahead of the wall clock a peer may push a replica's clock (docs/sync.md, "Clocks": one minute). */
const MAX_AHEAD_MS = 60_000

const STAMP = /^[0-9a-f]{12}\.[0-9a-f]{6}\.[0-9a-z]+$/

/** A record signed by `author` under a stamp it wrote by hand, whatever its width or range. */
function stampedAs(author: Identity, pool: PoolId, body: MemoryBody, hlc: string): Promise<PoolRecord<MemoryBody>> {
  return signRecord(author, { kind: PoolKind.MEMORY, pool, tenant: null, body, author: author.did, hlc })
}

/** A stamp's wall time is this machine's, give or take the bound a peer may push a clock by. */
function nearNow(stamp: string, before: number): void {
  expect(stamp).toMatch(STAMP)
  const { wall } = decodeHlc(stamp)
  expect(wall).toBeGreaterThanOrEqual(before)
  expect(wall).toBeLessThanOrEqual(Date.now() + MAX_AHEAD_MS)
}

/** Every module of a Memory still works, and dates what it writes now. */
async function modulesWork(mem: Memory, label: string): Promise<void> {
  const before = Date.now()
  const a = await mem.facts.write(`${label} likes tea`)
  const b = await mem.facts.write(`${label} likes coffee`)
  const [fa, fb] = [await mem.facts.get(a), await mem.facts.get(b)]
  nearNow(fa!.sequence, before)
  nearNow(fb!.sequence, before)
  // Two writes in a row sort in write order, as text.
  expect(fa!.sequence < fb!.sequence).toBe(true)
  expect(Date.parse(fb!.writtenAt)).toBeGreaterThanOrEqual(before - 1)
  expect(Date.parse(fb!.writtenAt)).toBeLessThanOrEqual(Date.now() + MAX_AHEAD_MS)
  expect((await mem.facts.retrieve(`${label} tea`)).length).toBeGreaterThan(0)

  const art = await mem.artifacts.create(`${label}-notes`, { body: 'hello' })
  const stamps = JSON.stringify(art.frontmatter).match(/\d{4}-\d{2}-\d{2}T[^"]+/g) ?? []
  expect(stamps.length).toBeGreaterThan(0)
  for (const s of stamps) expect(Math.abs(Date.parse(s) - Date.now())).toBeLessThanOrEqual(MAX_AHEAD_MS + 60_000)

  const task = await mem.working.open(`${label}-task`)
  const o = await task.addObservation({ content: 'The hotel charges 120 EUR per night', sourceAgentId: 'booker' })
  nearNow(o.sequence, before)
  expect(Math.abs(Date.parse(o.timestamp) - Date.now())).toBeLessThanOrEqual(MAX_AHEAD_MS + 60_000)

  await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] }, { project: label })
  const entry = await mem.small.appendProgress({ task_id: 't1', evidence: 'started' }, { project: label })
  expect(Math.abs(Date.parse(entry.timestamp!) - Date.now())).toBeLessThanOrEqual(MAX_AHEAD_MS + 60_000)
}

/** A replica on disk (file storage) connected through the relay: it can be closed and opened again. */
async function diskReplica(a: Arena, id: Identity, dir: string): Promise<Memory> {
  const mem = await createMemory({ storage: fileStorage({ dir }), identity: id, sync: { WebSocketPolyfill: WebSocket } })
  await mem.sync.connect(a.pool, { url: a.url, token: await a.token(id.did, true) })
  return mem
}

const ATTACKS: ReadonlyArray<readonly [string, string]> = [
  ['year 10889 with the largest counter', 'ffffffffffff.ffffff.mallory'],
  ['2^53-1 ms, past the date range', `${(2 ** 53 - 1).toString(16)}.000000.mallory`],
]

test.each(ATTACKS)('a member’s memory stamped at %s moves no honest clock, and every module works on every replica, after a restart too', async (_name, poison) => {
  const a = await arena()
  const bob = await a.replica('bob')
  const malloryId = await identityFor('mallory')
  const daveId = await identityFor('dave')
  const erinId = await identityFor('erin')
  await a.owner.mem.pools.share(a.pool, bob.id.did, { write: true })
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: true })
  await a.owner.mem.pools.share(a.pool, erinId.did, { write: true })
  const dir = await tempDir()
  let erin = await diskReplica(a, erinId, dir)
  try {
    await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
    for (const m of [bob.mem, erin]) await eventually(() => objects(m, a.pool), ['Rome'])

    const mallory = await a.raw(malloryId.did, true)
    const record = await stampedAs(malloryId, a.pool, memoryBody('mallory', 'poison'), poison)
    mallory.records.set(record.id, asValue(record))
    for (const m of [a.owner.mem, bob.mem, erin]) {
      await eventually(async () => (await m.sync.quarantine(a.pool)).map((q) => q.key), [record.id])
      expect(['clock', 'future']).toContain((await m.sync.quarantine(a.pool))[0]!.reason)
    }

    // A member whose grant expires, shared after the attack, writes; every replica takes it.
    const dave = await a.replica('dave')
    await a.owner.mem.pools.share(a.pool, daveId.did, { write: true, duration: 3600 })
    await eventually(async () => (await dave.mem.pools.access(a.pool, daveId.did)).write, true)
    const byDave = await dave.mem.pools.write(a.pool, fact('Dave', 'lives_in', 'Oslo'))
    for (const m of [a.owner.mem, bob.mem, dave.mem, erin]) await eventually(() => objects(m, a.pool), ['Oslo', 'Rome'])
    for (const m of [a.owner.mem, bob.mem, erin]) expect((await m.sync.quarantine(a.pool)).map((q) => q.key)).toEqual([record.id])
    expect(await a.owner.mem.pools.status(byDave.id)).not.toBe('forgotten')

    // Honest records after the attack are dated now and sort in order, on every replica, in every module.
    for (const [m, label] of [[a.owner.mem, 'alice'], [bob.mem, 'bob'], [dave.mem, 'dave'], [erin, 'erin']] as const) await modulesWork(m, label)
    const later = await bob.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Lima'))
    for (const m of [a.owner.mem, erin]) await eventually(() => objects(m, a.pool), ['Lima', 'Oslo', 'Rome'])
    expect(later.id).toBeTruthy()

    // A restart of a replica that saw the attack: it opens, and every module works.
    await erin.close()
    erin = await diskReplica(a, erinId, dir)
    await eventually(() => objects(erin, a.pool), ['Lima', 'Oslo', 'Rome'])
    await modulesWork(erin, 'erin-again')
    await eventually(async () => (await erin.sync.quarantine(a.pool)).map((q) => q.key), [record.id])
  } finally {
    await erin.close()
    await removeDir(dir)
  }
}, 120_000)

/**
 * A store that a version before the fix wrote, holding what the attack left: the planted memories
 * (accepted then) and an honest memory its clock stamped past the counter's width. It opens, its
 * clock stays at wall time, every module works, and once sync opens the pool the planted records
 * leave `records` (they stay in the document, quarantined).
 */
test('a store already holding poisoned stamps opens and works: the clock passes them over, sync quarantines them and takes them out of records', async () => {
  const storage = memoryStorage()
  const alice = await identityFor('alice')
  const malloryId = await identityFor('mallory')
  let mem = await createMemory({ storage, identity: alice })
  const pool = (await mem.pools.create({ name: 'household' })).id
  await mem.pools.share(pool, malloryId.did, { write: true })
  await mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  await mem.close()

  // What the old sync stored: appended through the record log as another handle on the storage would.
  const planted = [
    await stampedAs(malloryId, pool, memoryBody('mallory', 'far'), 'ffffffffffff.ffffff.mallory'),
    await stampedAs(malloryId, pool, memoryBody('mallory', 'past-dates'), `${(2 ** 53 - 1).toString(16)}.000000.mallory`),
    await stampedAs(alice, pool, memoryBody('alice', 'overflowed'), 'ffffffffffff.1000001.x'),
  ]
  const side = new RecordLog(storage, { ownsStorage: false })
  await side.append(planted)
  await side.close()

  mem = await createMemory({ storage, identity: alice, sync: {} })
  try {
    // The pools module loads the planted records (the record log observes their stamps) before anything else.
    await mem.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
    await modulesWork(mem, 'restarted')
    await mem.sync.open(pool)
    await mem.sync.flush()
    expect((await mem.sync.quarantine(pool)).map((q) => `${q.key} ${q.reason}`).sort()).toEqual(planted.map((r) => `${r.id} clock`).sort())
    await eventually(() => objects(mem, pool), ['Oslo', 'Rome'])
    await modulesWork(mem, 'synced')
  } finally {
    await mem.close()
  }
}, 60_000)

/**
 * A record stamped past the bound but inside the range is held, not judged: quarantined as
 * `future` while this replica's clock is behind it, judged like any record once its time comes.
 * Each replica holds it against its own clock (bob's runs ten minutes later here).
 */
test('a memory stamped ten minutes ahead is held on every replica until that replica’s clock reaches it, then accepted', async () => {
  const a = await arena()
  const bobId = await identityFor('bob')
  const malloryId = await identityFor('mallory')
  await a.owner.mem.pools.share(a.pool, bobId.did, { write: true })
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: true })
  let offset = 0
  const bob = await createMemory({ storage: 'memory', identity: bobId, sync: { WebSocketPolyfill: WebSocket }, now: () => Date.now() + offset })
  try {
    await bob.sync.connect(a.pool, { url: a.url, token: await a.token(bobId.did, true) })
    await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
    await eventually(() => objects(bob, a.pool), ['Rome'])

    const soon = Date.now() + 10 * 60_000
    const mallory = await a.raw(malloryId.did, true)
    const record = await stampedAs(malloryId, a.pool, memoryBody('mallory', 'soon'), `${soon.toString(16).padStart(12, '0')}.000000.mallory`)
    mallory.records.set(record.id, asValue(record))
    for (const m of [a.owner.mem, bob]) {
      await eventually(async () => (await m.sync.quarantine(a.pool)).map((q) => `${q.key} ${q.reason}`), [`${record.id} future`])
      expect(await objects(m, a.pool)).toEqual(['Rome'])
      const before = Date.now()
      nearNow((await m.facts.get(await m.facts.write('held, not adopted')))!.sequence, before)
    }

    // Bob's clock reaches the stamp: the next pass judges it, and a member's memory it is.
    offset = 10 * 60_000 + 1_000
    const oslo = await bob.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
    await eventually(() => objects(bob, a.pool), ['Oslo', 'Rome', 'soon'])
    expect(await bob.sync.quarantine(a.pool)).toEqual([])
    // The owner's clock has not: still held there, and so is what bob's clock, now ten minutes
    // ahead of the owner's, stamps: a device set that far wrong waits, it is not refused.
    await eventually(async () => (await a.owner.mem.sync.quarantine(a.pool)).map((q) => `${q.key} ${q.reason}`).sort(), [`${oslo.id} future`, `${record.id} future`].sort())
    expect(await objects(a.owner.mem, a.pool)).toEqual(['Rome'])
  } finally {
    await bob.close()
  }
}, 60_000)

/**
 * The same class in SMALL's own dates: progress entries are strictly increasing, and a new entry is
 * dated after the last one, so one entry a member dated in year 9999 dated every later entry of the
 * project there. An entry dated more than the bound after its record's stamp is refused (protocol).
 */
test('a progress entry dated in year 9999 is refused on every replica, and later entries are dated now', async () => {
  const { a, bob, malloryId } = await writersArena()
  await a.owner.mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] }, { project: 'p', pool: a.pool })
  await eventually(async () => (await bob.mem.small.get('plan', { project: 'p' }))?.version !== undefined, true)

  const mallory = await a.raw(malloryId.did, true)
  const entry = { task_id: 't1', timestamp: '9999-12-31T23:59:59.999999999Z', status: 'in_progress', evidence: 'from the future' }
  const record = await signAny(malloryId, { kind: 'small-progress', pool: a.pool, tenant: null, body: { project: 'p', entry }, author: malloryId.did, hlc: `${Date.now().toString(16).padStart(12, '0')}.000000.mallory` })
  mallory.records.set(record.id, { ...record })
  for (const m of [a.owner.mem, bob.mem]) await eventually(async () => (await m.sync.quarantine(a.pool)).map((q) => `${q.key} ${q.reason}`), [`${record.id} protocol`])
  const next = await bob.mem.small.appendProgress({ task_id: 't1', evidence: 'today' }, { project: 'p' })
  expect(Math.abs(Date.parse(next.timestamp!) - Date.now())).toBeLessThanOrEqual(MAX_AHEAD_MS + 60_000)
  await eventually(async () => (await a.owner.mem.small.get('progress', { project: 'p' }))?.data.entries.map((e) => e.evidence), ['today'])
}, 60_000)

/**
 * What the clock at 2^53-1 ms left in a local facts store before the fix: a fact whose write time
 * no `Date` can show (stored, then its answer threw). Every read of the store threw `RangeError:
 * Invalid time value` from then on. It is read now, its time shown as the last a Date can show.
 */
test('a stored fact whose write time is past the date range does not break reads of the facts store', async () => {
  const storage = memoryStorage()
  let mem = await createMemory({ storage })
  const ref = await mem.facts.write('Aria lives in Rome')
  await mem.close()
  await storage.open()
  await storage.write(['records'], async (tx) => {
    const r = (await tx.get<{ id: string; body: { writtenAt: number; validFrom: number } }>('records', ref))!
    await tx.put('records', [{ ...r, hlc: `${(2 ** 53 - 1).toString(16)}.000001.x`, body: { ...r.body, writtenAt: (2 ** 53 - 1) * 1000 + 1, validFrom: (2 ** 53 - 1) * 1000 + 1 } }])
  })
  await storage.close()
  mem = await createMemory({ storage })
  try {
    const hits = await mem.facts.retrieve('Aria Rome')
    expect(hits.map((h) => h.ref)).toEqual([ref])
    expect(hits[0]!.writtenAt).toMatch(/^\+275760-09-13T/)
    await modulesWork(mem, 'local')
  } finally {
    await mem.close()
  }
})

/** A memory's `createdAt` is its author's number too: one past the range of Date must not make every replica's export throw. */
test('a member’s memory created at 1e300 ms leaves every replica’s export working', async () => {
  const { a, bob, malloryId } = await writersArena()
  await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  await eventually(() => objects(bob.mem, a.pool), ['Rome'])
  const mallory = await a.raw(malloryId.did, true)
  const record = await stampedAs(malloryId, a.pool, memoryBody('mallory', 'forever', 1e300), `${Date.now().toString(16).padStart(12, '0')}.000000.mallory`)
  mallory.records.set(record.id, asValue(record))
  await bob.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
  for (const m of [a.owner.mem, bob.mem]) {
    await eventually(async () => (await m.pools.export(a.pool)).memories.map((x) => String(x.content.object)).sort(), ['Oslo', 'Rome', 'forever'])
  }
}, 60_000)
