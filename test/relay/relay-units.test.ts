import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { UpdateLog, crc32 } from '../../src/relay/update-log.js'
import { changesDocument, decodeUpdate } from '../../src/relay/update-check.js'
import { tempDir } from './relay-helpers.js'

/** Two docs in sync: the relay's, and a replica's. */
function synced(): { relay: Y.Doc; replica: Y.Doc } {
  const relay = new Y.Doc()
  const m = relay.getMap('m')
  m.set('a', 'one')
  m.set('b', 'two')
  m.delete('a')
  relay.getText('t').insert(0, 'hello world')
  relay.getText('t').delete(0, 6)
  const replica = new Y.Doc()
  Y.applyUpdate(replica, Y.encodeStateAsUpdate(relay))
  return { relay, replica }
}

const stepTwo = (from: Y.Doc, to: Y.Doc): Uint8Array => Y.encodeStateAsUpdate(from, Y.encodeStateVector(to))

describe('changesDocument (what a read-only member may send quietly)', () => {
  test('a step 2 from a replica in sync changes nothing, though it repeats the whole delete set', () => {
    const { relay, replica } = synced()
    const update = stepTwo(replica, relay)
    expect(decodeUpdate(update).ds.clients.size).toBeGreaterThan(0)
    expect(changesDocument(decodeUpdate(update), relay)).toBe(false)
  })

  test('an insert, a deletion, or a deletion of something the relay has not seen is a change', () => {
    for (const edit of [
      (d: Y.Doc) => d.getMap('m').set('c', 'three'),
      (d: Y.Doc) => d.getMap('m').delete('b'),
      (d: Y.Doc) => d.getText('t').delete(0, 1),
    ]) {
      const { relay, replica } = synced()
      edit(replica)
      expect(changesDocument(decodeUpdate(stepTwo(replica, relay)), relay)).toBe(true)
    }
    // A deletion of an item the relay never had (its insert withheld): still a write attempt.
    const { relay, replica } = synced()
    const before = Y.encodeStateVector(replica)
    replica.getMap('m').set('x', 1)
    const insert = Y.encodeStateAsUpdate(replica, before)
    const mid = Y.encodeStateVector(replica)
    replica.getMap('m').delete('x')
    const onlyDelete = Y.encodeStateAsUpdate(replica, mid)
    expect(insert.length).toBeGreaterThan(0)
    expect(changesDocument(decodeUpdate(onlyDelete), relay)).toBe(true)
  })
})

describe('UpdateLog', () => {
  test('appends land in order, group-committed; rewrite replaces them; a reopen reads what is there', async () => {
    const dir = await tempDir()
    const path = join(dir, 'updates.log')
    const { log, updates } = await UpdateLog.open(path)
    expect(updates).toEqual([])
    await Promise.all([1, 2, 3].map((n) => log.append(Uint8Array.of(n, n, n))))
    await log.close()
    const again = await UpdateLog.open(path)
    expect(again.updates.map((u) => [...u])).toEqual([[1, 1, 1], [2, 2, 2], [3, 3, 3]])
    void again.log.append(Uint8Array.of(4))
    await again.log.rewrite(Uint8Array.of(9, 9))
    await again.log.append(Uint8Array.of(5))
    expect(again.log.bytes).toBe((await readFile(path)).length)
    await again.log.close()
    const third = await UpdateLog.open(path)
    expect(third.updates.map((u) => [...u])).toEqual([[9, 9], [5]])
    await third.log.close()
  })

  test('a torn last frame is cut (with a warning); a foreign file is refused, not overwritten', async () => {
    const dir = await tempDir()
    const path = join(dir, 'updates.log')
    const { log } = await UpdateLog.open(path)
    await log.append(Uint8Array.of(1, 1))
    await log.append(Uint8Array.of(2, 2))
    await log.close()
    const bytes = await readFile(path)
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff
    await writeFile(path, bytes)
    const warnings: string[] = []
    const opened = await UpdateLog.open(path, { warn: (m) => warnings.push(m) })
    expect(opened.updates.map((u) => [...u])).toEqual([[1, 1]])
    await opened.log.close()
    expect((await readFile(path)).length).toBe(bytes.length - 18)
    expect(warnings).toEqual([expect.stringMatching(/cut a torn last frame \(18 bytes/)])

    const foreign = join(dir, 'foreign.log')
    await writeFile(foreign, 'not a log at all')
    await expect(UpdateLog.open(foreign)).rejects.toMatchObject({ code: 'STORAGE' })
    expect(await readFile(foreign, 'utf8')).toBe('not a log at all')
  })

  // Issue 13: damage in frame 200 of 400 made the relay cut the log there and rewrite it without 200-400.
  test.each([
    ['a flipped byte in the update', (frame: number) => frame + 16 + 5],
    ['a bad length field', (frame: number) => frame + 5],
    ['a bad marker', (frame: number) => frame],
  ])('v2, %s in frame 200 of 400: every other frame is kept, the damaged file copied', async (_, offsetIn) => {
    const dir = await tempDir()
    const path = join(dir, 'updates.log')
    const { log } = await UpdateLog.open(path)
    const sent = Array.from({ length: 400 }, (_, i) => new TextEncoder().encode(`update ${i} `.padEnd(40 + (i % 7), '.')))
    for (const u of sent) void log.append(u)
    await log.close()
    const bytes = await readFile(path)
    const frame200 = 8 + sent.slice(0, 199).reduce((sum, u) => sum + 16 + u.length, 0)
    bytes[offsetIn(frame200)]! ^= 0x20
    await writeFile(path, bytes)
    const warnings: string[] = []
    const opened = await UpdateLog.open(path, { warn: (m) => warnings.push(m) })
    await opened.log.close()
    expect(opened.updates.map((u) => new TextDecoder().decode(u))).toEqual(sent.filter((_, i) => i !== 199).map((u) => new TextDecoder().decode(u)))
    expect(warnings).toEqual([expect.stringMatching(/skipped 1 damaged region\(s\) \(\d+ bytes, at offsets \d+\), kept 399 intact frames; the damaged file is kept as .*updates\.log\.damaged-/)])
    const copies = (await readdir(dir)).filter((f) => f.startsWith('updates.log.damaged-'))
    expect(copies).toHaveLength(1)
    expect(Buffer.compare(await readFile(join(dir, copies[0]!)), bytes)).toBe(0)
    // The log itself is now clean: a reopen reads the same 399 without a word.
    const again = await UpdateLog.open(path, { warn: (m) => warnings.push(m) })
    await again.log.close()
    expect(again.updates).toHaveLength(399)
    expect(warnings).toHaveLength(1)
  })

  test('a v1 log (before checksummed headers) still loads, damage in the middle included, and is migrated to v2', async () => {
    const dir = await tempDir()
    const path = join(dir, 'updates.log')
    const sent = Array.from({ length: 400 }, (_, i) => new TextEncoder().encode(`v1 update ${i}`))
    const v1Frame = (u: Uint8Array): Buffer => {
      const head = Buffer.alloc(8)
      head.writeUInt32LE(u.length, 0)
      head.writeUInt32LE(crc32(u), 4)
      return Buffer.concat([head, u])
    }
    const clean = Buffer.concat([Buffer.from('MWYLOG1\n'), ...sent.map(v1Frame)])
    await writeFile(path, clean)
    const migrated = await UpdateLog.open(path, { warn: () => undefined })
    await migrated.log.close()
    expect(migrated.updates).toHaveLength(400)
    expect((await readFile(path)).subarray(0, 8).toString()).toBe('MWYLOG2\n')
    expect((await UpdateLog.open(path)).updates.map((u) => new TextDecoder().decode(u))).toEqual(sent.map((u) => new TextDecoder().decode(u)))

    const damaged = Buffer.from(clean)
    const frame200 = 8 + sent.slice(0, 199).reduce((sum, u) => sum + 8 + u.length, 0)
    damaged.writeUInt32LE(0x00ffffff, frame200) // a length far past the end
    await writeFile(path, damaged)
    const warnings: string[] = []
    const opened = await UpdateLog.open(path, { warn: (m) => warnings.push(m) })
    await opened.log.close()
    expect(opened.updates.map((u) => new TextDecoder().decode(u))).toEqual(sent.filter((_, i) => i !== 199).map((u) => new TextDecoder().decode(u)))
    expect(warnings[0]).toMatch(/kept 399 intact frames/)
  })

  test('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
  })
})
