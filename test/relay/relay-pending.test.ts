import { describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { Room, pendingBytes, type Peer } from '../../src/relay/room.js'
import { connect, eventually, identity, poolOf, rawConnect, startRelay, token, updateMessage } from './relay-helpers.js'

const KiB = 1024

/**
 * An update whose structs depend on content the relay never received: the first write of a
 * client is withheld, so everything after it waits in `doc.store.pendingStructs`.
 */
function outOfOrder(bytes: number, key = 'big'): Uint8Array {
  const doc = new Y.Doc()
  doc.getMap('m').set('withheld', 1)
  const after = Y.encodeStateVector(doc)
  doc.getMap('m').set(key, 'x'.repeat(bytes))
  return Y.encodeStateAsUpdate(doc, after)
}

const peer: Peer = { grant: { pool: 'p', sub: 'did:key:z', write: true, expiresAt: Infinity } as unknown as Peer['grant'], send: () => undefined, close: () => undefined }

function room(maxDocumentBytes = 1 << 30, maxPendingBytes = 64 * KiB): Promise<Room> {
  return Room.open('p', { dir: null, compactAfterBytes: 1 << 20, maxDocumentBytes, maxPendingBytes, onError: (err) => { throw err } })
}

describe('relay: out-of-order updates (issue 13: pending structs outside every cap)', () => {
  test('pending content is capped by maxPendingBytes, and refusing an update keeps what was pending before', async () => {
    const r = await room()
    expect(r.applyUpdate(outOfOrder(40 * KiB, 'a'), peer)).toBe('applied')
    const held = pendingBytes(r.doc)
    expect(held).toBeGreaterThan(40 * KiB)
    // A second one would take the pending total past 64 KiB: its unresolved part is dropped.
    expect(r.applyUpdate(outOfOrder(40 * KiB, 'b'), peer)).toBe('too-much-pending')
    expect(pendingBytes(r.doc)).toBe(held)
    // One huge one (the 64 MiB attack, scaled down) never stays either.
    expect(r.applyUpdate(outOfOrder(1024 * KiB), peer)).toBe('too-much-pending')
    expect(pendingBytes(r.doc)).toBe(held)
    // Many tiny out-of-order messages each add to the total, so they hit the same cap.
    let outcome = 'applied'
    for (let i = 0; i < 10_000 && outcome === 'applied'; i++) outcome = r.applyUpdate(outOfOrder(1, `t${i}`), peer)
    expect(outcome).toBe('too-much-pending')
    expect(pendingBytes(r.doc)).toBeLessThanOrEqual(64 * KiB)
    await r.close()
  })

  test('pending content counts toward maxDocumentBytes', async () => {
    const r = await room(48 * KiB, 1 << 20)
    expect(r.applyUpdate(outOfOrder(40 * KiB), peer)).toBe('applied')
    // The document itself is empty (the pending 40 KiB is not in it); that is what leaves no room for 10 more.
    expect(r.doc.getMap('m').size).toBe(0)
    const small = new Y.Doc()
    small.getMap('m').set('k', 'y'.repeat(10 * KiB))
    expect(r.applyUpdate(Y.encodeStateAsUpdate(small), peer)).toBe('too-large')
    await r.close()
  })

  test('a real relay closes the sender with 4413 too-much-pending; later out-of-order messages and other pools are served', async () => {
    const owner = await identity('owner')
    const attacked = poolOf(owner, 1).pool
    const other = poolOf(owner, 2).pool
    const { url } = await startRelay()
    const ta = await token(owner, attacked, owner, true)
    const to = await token(owner, other, owner, true)
    const attacker = rawConnect(url, attacked, ta)
    await attacker.opened
    // 2 MiB pending, over the default cap of 1 MiB.
    attacker.ws.send(updateMessage(outOfOrder(2 * 1024 * KiB)))
    expect(await attacker.closed).toEqual({ code: 4413, reason: expect.stringMatching(/^too-much-pending: pool [0-9a-f]{32}/) })
    // A second connection sends a stream of 19-byte out-of-order messages, each of which made the
    // relay re-merge everything pending; the attacked pool's honest writers and another pool go on.
    const a = connect(url, attacked, ta)
    const b = connect(url, attacked, ta)
    const c = connect(url, other, to)
    const d = connect(url, other, to)
    await Promise.all([a.synced(), b.synced(), c.synced(), d.synced()])
    const spammer = rawConnect(url, attacked, ta)
    await spammer.opened
    for (let i = 0; i < 200; i++) spammer.ws.send(updateMessage(outOfOrder(1, `s${i}`)))
    a.doc.getMap('m').set('probe', 'honest')
    c.doc.getMap('m').set('probe', 'other pool')
    await eventually(() => b.doc.getMap('m').get('probe'), 'honest')
    await eventually(() => d.doc.getMap('m').get('probe'), 'other pool')
    expect(b.doc.getMap('m').has('big')).toBe(false)
  })
})
