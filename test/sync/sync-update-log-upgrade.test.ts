import { cp, mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Y from 'yjs'
import { expect, test } from 'vitest'
import { FORMAT_VERSIONS } from '../../src/core/format-version.js'
import { InProcessNetwork, createIdentity, createMemory, type Memory } from '../../src/index.js'
import { RECORDS_MAP } from '../../src/sync/index.js'
import { fileStorage } from '../../src/node/index.js'
import { FORMAT_ROW, type FormatRow } from '../../src/records/format-marker.js'
import { CHUNK_CLOCKS, UpdateLog, type UpdateRow } from '../../src/sync/update-log.js'
import type { PoolId } from '../../src/pools/types.js'

/**
 * Store format 2 (issue 31, second round): a pool's persisted Yjs log in chunks of CHUNK_CLOCKS
 * clocks, each part marked with its size. test/fixtures/sync-log/ee16973/ is a Node file store whose
 * log 0.2.0 (commit ee16973) compacted in 4,096-clock parts, one memory forgotten before
 * (scripts/make-sync-log-fixture.ts). Today's build reads it, re-chunks it at its first compaction,
 * marks the store format 2 in that same transaction (a 0.2.0 build then refuses the store with
 * FORMAT_TOO_NEW rather than read or rewrite parts whose names mean other clocks), and no row
 * holds a forgotten memory's content.
 *
 * test/fixtures/sync-log/261c48c/ is the same pool's log compacted in store format 2 by 0.3.0 before
 * each chunk carried its own deletions (commit 261c48c): the whole delete set in one row, `ds`.
 * Today's build reads it and its first compaction folds that row into the chunks.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures/sync-log')
const FIXTURE = join(FIXTURES, 'ee16973')

interface Expected {
  readonly pool: PoolId
  readonly owner: string
  readonly ownerSeed: number
  readonly readAt: number
  readonly memories: readonly string[]
  readonly forgotten: string
  readonly secret: string
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

async function rowsOf(dir: string, fixture = FIXTURE): Promise<{ rows: UpdateRow[]; marker: FormatRow | undefined; doc: Y.Doc; pool: PoolId }> {
  const e = await expected(fixture)
  const storage = fileStorage({ dir })
  await storage.open()
  const rows = await storage.read(['syncUpdates'], (tx) => tx.where<UpdateRow>('syncUpdates', 'pool', e.pool))
  const marker = await storage.read(['meta'], (tx) => tx.get<FormatRow>('meta', FORMAT_ROW))
  const doc = new Y.Doc({ gc: true })
  for (const u of await new UpdateLog(storage, e.pool).load()) Y.applyUpdate(doc, u)
  await storage.close()
  return { rows, marker, doc, pool: e.pool }
}

async function expected(fixture = FIXTURE): Promise<Expected> {
  return JSON.parse(await readFile(join(fixture, 'expected.json'), 'utf8')) as Expected
}

async function openOwner(dir: string, e: Expected): Promise<Memory> {
  const identity = await createIdentity({ seed: new Uint8Array(32).fill(e.ownerSeed) })
  let now = e.readAt
  const mem = await createMemory({ storage: fileStorage({ dir }), identity, now: () => (now += 1000) })
  await mem.sync.attach(e.pool, new InProcessNetwork().provider('owner'))
  await mem.sync.flush()
  return mem
}

/**
 * Opens the stored pool with today's build, checks it reads every memory and the forgotten one as
 * forgotten, then forgets one more (memory 200) and closes: the store as that forget's compaction left it.
 */
async function openAndForgetOneMore(dir: string, e: Expected): Promise<{ later: string; laterObject: string }> {
  const mem = await openOwner(dir, e)
  expect((await mem.pools.export(e.pool)).memories.map(exportedId).sort()).toEqual([...e.memories].sort())
  expect(await mem.pools.status(e.forgotten)).toBe('forgotten')
  const later = e.memories[200]!
  const laterObject = String((await mem.pools.export(e.pool)).memories.find((m) => exportedId(m) === later)!.content.object)
  await mem.pools.forget(later)
  await mem.pools.flush()
  await mem.sync.flush()
  await mem.close()
  return { later, laterObject }
}

/** An LCS-004 export names a memory `0x<id>`. */
const exportedId = (m: { memory_id: string }): string => m.memory_id.replace(/^0x/, '')

const memoryIds = (doc: Y.Doc): string[] =>
  [...doc.getMap<{ kind: string }>(RECORDS_MAP).entries()].filter(([, v]) => v.kind === 'pool-memory').map(([k]) => k).sort()

test("a pool's log compacted by 0.2.0 in 4,096-clock parts is read, re-chunked at the next forget with the format 2 marker, and holds no forgotten content", async () => {
  const e = await expected()
  const dir = join(await mkdtemp(join(tmpdir(), 'mw-sync-log-')), 'store')
  await cp(join(FIXTURE, 'store'), dir, { recursive: true })

  // The fixture is what it says: 0.2.0's parts (no chunk size), no marker of format 2, one chunk of more clocks than today's.
  const old = await rowsOf(dir)
  expect(old.rows.length).toBeGreaterThan(0)
  expect(old.rows.every((r) => typeof r.part === 'string' && r.clocks === undefined)).toBe(true)
  expect(old.marker?.version ?? 1).toBe(1)
  const clocks = Y.encodeStateVector(old.doc)
  expect(Math.max(...Y.decodeStateVector(clocks).values())).toBeGreaterThan(CHUNK_CLOCKS)
  expect(memoryIds(old.doc)).toEqual([...e.memories].sort())

  // A forget with today's build: its compaction is the first, so it rewrites every part.
  const { later, laterObject } = await openAndForgetOneMore(dir, e)

  const now = await rowsOf(dir)
  const structs = now.rows.filter((r) => r.part!.startsWith('s:'))
  expect(now.rows.every((r) => typeof r.part === 'string')).toBe(true)
  expect(structs.length).toBeGreaterThan(1)
  expect(structs.every((r) => r.clocks === CHUNK_CLOCKS)).toBe(true)
  expect(now.marker?.version).toBe(FORMAT_VERSIONS.store)
  expect(FORMAT_VERSIONS.store).toBeGreaterThan(1)
  const bytes = now.rows.map((r) => text(r.update)).join('\n')
  expect(bytes).not.toContain(e.secret)
  expect(bytes).not.toContain(laterObject)
  expect(bytes).toContain(e.memories[100]!)
  // The parts load into the document the build kept syncing: every memory but the two forgotten.
  expect(memoryIds(now.doc)).toEqual(e.memories.filter((id) => id !== later).sort())

  // And a second open reads the format 2 parts as they are.
  const again = await openOwner(dir, e)
  expect((await again.pools.export(e.pool)).memories.map(exportedId).sort()).toEqual(e.memories.filter((id) => id !== later).sort())
  await again.close()
})

test("a pool's log compacted in store format 2 with the delete set in a row of its own is read, and the next forget folds that row into the chunks", async () => {
  const fixture = join(FIXTURES, '261c48c')
  const e = await expected(fixture)
  const dir = join(await mkdtemp(join(tmpdir(), 'mw-sync-log-')), 'store')
  await cp(join(fixture, 'store'), dir, { recursive: true })

  // The fixture is what it says: format 2 parts and marker, the delete set in its own row.
  const old = await rowsOf(dir, fixture)
  expect(old.marker?.version).toBe(2)
  expect(old.rows.filter((r) => r.part!.startsWith('s:')).every((r) => r.clocks === CHUNK_CLOCKS)).toBe(true)
  expect(old.rows.filter((r) => r.part === 'ds')).toHaveLength(1)
  expect(memoryIds(old.doc)).toEqual([...e.memories].sort())
  const deletions = Y.snapshot(old.doc)

  const { later, laterObject } = await openAndForgetOneMore(dir, e)

  const now = await rowsOf(dir, fixture)
  expect(now.rows.every((r) => typeof r.part === 'string' && r.part.startsWith('s:') && r.clocks === CHUNK_CLOCKS)).toBe(true)
  expect(now.marker?.version).toBe(FORMAT_VERSIONS.store)
  const bytes = now.rows.map((r) => text(r.update)).join('\n')
  expect(bytes).not.toContain(e.secret)
  expect(bytes).not.toContain(laterObject)
  expect(memoryIds(now.doc)).toEqual(e.memories.filter((id) => id !== later).sort())
  // Every deletion the old rows held is in the chunks now (the forget's own come on top).
  for (const [client, items] of deletions.ds.clients) {
    for (const item of items) expect(Y.isDeleted(Y.snapshot(now.doc).ds, Y.createID(client, item.clock))).toBe(true)
  }

  const again = await openOwner(dir, e)
  expect((await again.pools.export(e.pool)).memories.map(exportedId).sort()).toEqual(e.memories.filter((id) => id !== later).sort())
  await again.close()
})
