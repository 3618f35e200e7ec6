import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { UpdateLog, crc32 } from '../src/relay/update-log.js'
import { changesDocument, decodeUpdate } from '../src/relay/update-check.js'
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

  test('a frame whose checksum fails ends the log there (and is cut off); a foreign file is refused, not overwritten', async () => {
    const dir = await tempDir()
    const path = join(dir, 'updates.log')
    const { log } = await UpdateLog.open(path)
    await log.append(Uint8Array.of(1))
    await log.append(Uint8Array.of(2))
    await log.close()
    const bytes = await readFile(path)
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff
    await writeFile(path, bytes)
    const opened = await UpdateLog.open(path)
    expect(opened.updates.map((u) => [...u])).toEqual([[1]])
    await opened.log.close()
    expect((await readFile(path)).length).toBe(bytes.length - 9)

    const foreign = join(dir, 'foreign.log')
    await writeFile(foreign, 'not a log at all')
    await expect(UpdateLog.open(foreign)).rejects.toMatchObject({ code: 'STORAGE' })
    expect(await readFile(foreign, 'utf8')).toBe('not a log at all')
  })

  test('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
  })
})
