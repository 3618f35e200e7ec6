import { appendFile, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { allBytes, connect, eventually, identity, poolOf, startRelay, tempDir, token } from './relay-helpers.js'

describe('relay: y-websocket clients converge through it', () => {
  test('two clients on one pool see each other’s writes, concurrent ones included, and awareness', async () => {
    const owner = await identity('owner')
    const writer = await identity('writer')
    const { pool } = poolOf(owner)
    const { url } = await startRelay()
    const a = connect(url, pool, await token(owner, pool, owner, true))
    const b = connect(url, pool, await token(owner, pool, writer, true))
    await Promise.all([a.synced(), b.synced()])

    a.doc.getMap('records').set('r1', { from: 'a' })
    await eventually(() => b.doc.getMap('records').get('r1'), { from: 'a' })
    // Concurrent edits of one text: both converge to the same merge.
    a.doc.getText('t').insert(0, 'left ')
    b.doc.getText('t').insert(0, 'right ')
    await eventually(() => a.doc.getText('t').toString().length, 'left right '.length)
    await eventually(() => b.doc.getText('t').toString(), a.doc.getText('t').toString())
    expect(Y.encodeStateVector(a.doc)).toEqual(Y.encodeStateVector(b.doc))

    a.provider.awareness.setLocalStateField('user', 'device A')
    await eventually(() => b.provider.awareness.getStates().get(a.doc.clientID)?.['user'], 'device A')
  })

  test('pools are separate rooms', async () => {
    const owner = await identity('owner')
    const one = poolOf(owner, 1).pool
    const two = poolOf(owner, 2).pool
    const { url } = await startRelay()
    const a = connect(url, one, await token(owner, one, owner, true))
    const b = connect(url, two, await token(owner, two, owner, true))
    const a2 = connect(url, one, await token(owner, one, owner, true))
    await Promise.all([a.synced(), b.synced(), a2.synced()])
    a.doc.getMap('m').set('k', 'pool one')
    await eventually(() => a2.doc.getMap('m').get('k'), 'pool one')
    expect(b.doc.getMap('m').get('k')).toBeUndefined()
  })
})

describe('relay: persistence', () => {
  test('a restart on the same dir keeps every pool, and a new client gets it all', async () => {
    const owner = await identity('owner')
    const p1 = poolOf(owner, 1).pool
    const p2 = poolOf(owner, 2).pool
    const dir = await tempDir()
    const first = await startRelay({ dir })
    const a = connect(first.url, p1, await token(owner, p1, owner, true))
    const b = connect(first.url, p2, await token(owner, p2, owner, true))
    await Promise.all([a.synced(), b.synced()])
    for (let i = 0; i < 50; i++) a.doc.getMap('m').set(`k${i}`, i)
    b.doc.getArray('list').push(['x', 'y'])
    // A second client proves the relay has applied the writes before it goes down.
    const check = connect(first.url, p1, await token(owner, p1, owner, false))
    await eventually(() => check.doc.getMap('m').size, 50)
    const check2 = connect(first.url, p2, await token(owner, p2, owner, false))
    await eventually(() => check2.doc.getArray('list').length, 2)
    a.provider.destroy()
    b.provider.destroy()
    check.provider.destroy()
    check2.provider.destroy()
    await first.relay.close()

    const second = await startRelay({ dir })
    const c = connect(second.url, p1, await token(owner, p1, owner, false))
    const d = connect(second.url, p2, await token(owner, p2, owner, false))
    await Promise.all([c.synced(), d.synced()])
    expect(c.doc.getMap('m').toJSON()).toEqual(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])))
    expect(d.doc.getArray('list').toArray()).toEqual(['x', 'y'])
  })

  test('a torn last frame (a crash mid-append) is cut off; the frames before it load', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const dir = await tempDir()
    const first = await startRelay({ dir })
    const a = connect(first.url, pool, await token(owner, pool, owner, true))
    await a.synced()
    a.doc.getMap('m').set('kept', 'yes')
    const check = connect(first.url, pool, await token(owner, pool, owner, false))
    await eventually(() => check.doc.getMap('m').get('kept'), 'yes')
    a.provider.destroy()
    check.provider.destroy()
    await first.relay.close()
    const log = join(dir, 'rooms', pool, 'updates.log')
    // Half a frame: a length that promises more bytes than follow.
    await appendFile(log, Uint8Array.from([200, 0, 0, 0, 1, 2, 3, 4, 5]))

    const second = await startRelay({ dir })
    const b = connect(second.url, pool, await token(owner, pool, owner, true))
    await b.synced()
    expect(b.doc.getMap('m').get('kept')).toBe('yes')
    b.doc.getMap('m').set('after', 'the crash')
    const check2 = connect(second.url, pool, await token(owner, pool, owner, false))
    await eventually(() => check2.doc.getMap('m').get('after'), 'the crash')
    b.provider.destroy()
    check2.provider.destroy()
    await second.relay.close()
    const third = await startRelay({ dir })
    const c = connect(third.url, pool, await token(owner, pool, owner, false))
    await c.synced()
    expect(c.doc.getMap('m').toJSON()).toEqual({ kept: 'yes', after: 'the crash' })
  })

  test('compaction: a string written then deleted is in no file under dir after compaction', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const dir = await tempDir()
    const secret = 'the-launch-code-is-0451-' + 'x'.repeat(40)
    const { relay, url } = await startRelay({ dir })
    const a = connect(url, pool, await token(owner, pool, owner, true))
    await a.synced()
    const map = a.doc.getMap('records')
    map.set('keep', 'public fact')
    map.set('gone', secret)
    const check = connect(url, pool, await token(owner, pool, owner, false))
    await eventually(() => check.doc.getMap('records').get('gone'), secret)
    // Appended, fsync'd: before compaction the log holds the secret.
    await eventually(async () => (await allBytes(dir)).includes(secret), true)
    expect((await allBytes(dir)).includes(secret)).toBe(true)

    map.delete('gone')
    await eventually(() => check.doc.getMap('records').has('gone'), false)
    a.provider.destroy()
    check.provider.destroy()
    await relay.close()
    const bytes = await allBytes(dir)
    expect(bytes.includes(secret)).toBe(false)
    // A fragment of the secret, not '0451' alone: the room's owner pin holds a millisecond time, and
    // four digits turn up in one now and then (this test failed so in one run in a few).
    expect(bytes.includes('launch-code')).toBe(false)
    expect(bytes.includes('public fact')).toBe(true)

    // And the compacted pool still loads.
    const again = await startRelay({ dir })
    const c = connect(again.url, pool, await token(owner, pool, owner, false))
    await c.synced()
    expect(c.doc.getMap('records').toJSON()).toEqual({ keep: 'public fact' })
  })

  test('a pool left idle is compacted and unloaded without a relay restart, and reloads on the next connection', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const dir = await tempDir()
    const secret = 'idle-secret-' + 'y'.repeat(40)
    const { url } = await startRelay({ dir, idleUnloadMs: 50 })
    const a = connect(url, pool, await token(owner, pool, owner, true))
    await a.synced()
    a.doc.getMap('m').set('gone', secret)
    a.doc.getMap('m').set('kept', 1)
    await eventually(async () => (await allBytes(dir)).includes(secret), true)
    a.doc.getMap('m').delete('gone')
    const check = connect(url, pool, await token(owner, pool, owner, false))
    await eventually(() => check.doc.getMap('m').toJSON(), { kept: 1 })
    a.provider.destroy()
    check.provider.destroy()
    await eventually(async () => (await allBytes(dir)).includes(secret), false)
    const b = connect(url, pool, await token(owner, pool, owner, false))
    await b.synced()
    expect(b.doc.getMap('m').toJSON()).toEqual({ kept: 1 })
  })

  test('the log is compacted when it grows past the threshold, while clients are connected', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const dir = await tempDir()
    const { url } = await startRelay({ dir, compactAfterBytes: 4096 })
    const a = connect(url, pool, await token(owner, pool, owner, true))
    const b = connect(url, pool, await token(owner, pool, owner, false))
    await Promise.all([a.synced(), b.synced()])
    const text = a.doc.getText('t')
    // 400 updates of ~100 bytes, each replacing the text: the live document stays small.
    for (let i = 0; i < 400; i++) {
      a.doc.transact(() => {
        text.delete(0, text.length)
        text.insert(0, `version ${i} `.padEnd(100, '.'))
      })
    }
    await eventually(() => b.doc.getText('t').toString().startsWith('version 399 '), true)
    const log = join(dir, 'rooms', pool, 'updates.log')
    // ~50 KB were appended; compacted, the log is the live text plus a few headers.
    const state = async (): Promise<[boolean, boolean, boolean]> => {
      const bytes = await readFile(log)
      return [bytes.length < 4096, bytes.includes('version 0 '), bytes.includes('version 399 ')]
    }
    await eventually(state, [true, false, true])
    expect((await stat(log)).size).toBeLessThan(4096)
  })
})
