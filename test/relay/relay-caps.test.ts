import * as encoding from 'lib0/encoding'
import { describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { connect, eventually, identity, poolOf, rawConnect, startRelay, token, updateMessage } from './relay-helpers.js'

/** Two connected writers on one pool: the bystanders every cap test checks are unharmed. */
async function bystanders(url: string, pool: string, tokenText: string) {
  const a = connect(url, pool, tokenText)
  const b = connect(url, pool, tokenText)
  await Promise.all([a.synced(), b.synced()])
  return {
    /** A write on one reaches the other: the relay still serves them. */
    async stillServed(value: string): Promise<void> {
      a.doc.getMap('m').set('probe', value)
      await eventually(() => b.doc.getMap('m').get('probe'), value)
    },
    b,
  }
}

describe('relay: caps', () => {
  test('a frame above maxMessageBytes closes that connection (1009) before it is applied; the others go on', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const { url } = await startRelay({ limits: { maxMessageBytes: 2048 } })
    const t = await token(owner, pool, owner, true)
    const others = await bystanders(url, pool, t)
    const big = connect(url, pool, t)
    await big.synced()
    const closed = new Promise<number>((ok) => big.provider.once('connection-close', (event) => ok(event!.code)))
    big.doc.getMap('m').set('huge', 'H'.repeat(4000))
    expect(await closed).toBe(1009)
    await others.stillServed('after the big frame')
    expect(others.b.doc.getMap('m').has('huge')).toBe(false)
  })

  test('an update that would grow the document past maxDocumentBytes is refused (4413) and not applied', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const { url } = await startRelay({ limits: { maxDocumentBytes: 4096 } })
    const t = await token(owner, pool, owner, true)
    const others = await bystanders(url, pool, t)
    const filler = connect(url, pool, t)
    await filler.synced()
    for (let i = 0; i < 3; i++) filler.doc.getMap('m').set(`fill${i}`, 'f'.repeat(900))
    await eventually(() => others.b.doc.getMap('m').size, 3)
    filler.doc.getMap('m').set('overflow', 'o'.repeat(2000))
    expect(await filler.closed).toEqual({ code: 4413, reason: expect.stringMatching(/^document-too-large: pool [0-9a-f]{32} is at its size limit/) })
    await others.stillServed('small')
    expect(others.b.doc.getMap('m').has('overflow')).toBe(false)
    // Deleting content makes room again: GC drops it, and the exact size is what counts.
    const writer = connect(url, pool, t)
    await writer.synced()
    writer.doc.transact(() => {
      for (let i = 0; i < 3; i++) writer.doc.getMap('m').delete(`fill${i}`)
    })
    writer.doc.getMap('m').set('fits-now', 'n'.repeat(2000))
    await eventually(() => others.b.doc.getMap('m').has('fits-now'), true)
  })

  test('connections per IP per window: the next one is answered HTTP 429 before any upgrade, and the window reopens', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const { url } = await startRelay({ limits: { connectionsPerWindow: 3, connectionWindowMs: 600 } })
    const t = await token(owner, pool, owner, true)
    const first = [rawConnect(url, pool, t), rawConnect(url, pool, t), rawConnect(url, pool, t)]
    await Promise.all(first.map((c) => c.opened))
    const refused = rawConnect(url, pool, t)
    await expect(refused.opened).rejects.toThrow('HTTP 429')
    // Open connections are not affected.
    expect(first.every((c) => c.ws.readyState === c.ws.OPEN)).toBe(true)
    await new Promise((ok) => setTimeout(ok, 650))
    await rawConnect(url, pool, t).opened
  })
})

describe('relay: malformed frames close that connection only', () => {
  const awarenessJunk = (() => {
    // An awareness update whose state is not JSON.
    const inner = encoding.createEncoder()
    encoding.writeVarUint(inner, 1)
    encoding.writeVarUint(inner, 42)
    encoding.writeVarUint(inner, 1)
    encoding.writeVarString(inner, '{not json')
    const e = encoding.createEncoder()
    encoding.writeVarUint(e, 1)
    encoding.writeVarUint8Array(e, encoding.toUint8Array(inner))
    return encoding.toUint8Array(e)
  })()
  const validUpdate = (() => {
    const d = new Y.Doc()
    d.getMap('m').set('x', 1)
    return Y.encodeStateAsUpdate(d)
  })()

  test.each<[string, Uint8Array | string, RegExp]>([
    ['a text frame', 'hello', /text frames/],
    ['an empty frame', new Uint8Array(0), /truncated/],
    ['an unknown message type', Uint8Array.of(7), /unknown message type 7/],
    ['an auth message from a client', Uint8Array.of(2, 0, 0), /unknown message type 2/],
    ['an unknown sync type', Uint8Array.of(0, 9, 0), /unknown sync message type 9/],
    ['a truncated sync step 1', Uint8Array.of(0, 0, 5, 1), /truncated/],
    ['a garbage update', updateMessage(Uint8Array.of(200, 1, 2, 3, 4, 5, 6)), /not a valid Yjs update/],
    ['a garbage step 2', updateMessage(Uint8Array.of(1, 1, 1, 1, 255, 255, 255), 1), /not a valid Yjs update/],
    ['trailing bytes after an update', Uint8Array.from([...updateMessage(validUpdate), 0]), /trailing bytes/],
    ['an awareness update that is not JSON', awarenessJunk, /not a valid awareness update/],
  ])('%s: 1007 with a reason; the relay keeps serving the others', async (_name, frame, reason) => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const { url } = await startRelay()
    const t = await token(owner, pool, owner, true)
    const others = await bystanders(url, pool, t)
    const bad = rawConnect(url, pool, t)
    await bad.opened
    bad.ws.send(frame, { binary: typeof frame !== 'string' })
    const closed = await bad.closed
    expect(closed.code).toBe(1007)
    expect(closed.reason).toMatch(/^malformed: /)
    expect(closed.reason).toMatch(reason)
    await others.stillServed(`after ${_name}`)
    expect(others.b.doc.getMap('m').has('x')).toBe(false)
  })

  test('a malformed frame sent before admission finished is handled in order, after it', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const { url } = await startRelay()
    const t = await token(owner, pool, owner, true)
    const bad = rawConnect(url, pool, t)
    await bad.opened
    // Sent at once, while the token is still being verified.
    bad.ws.send(Uint8Array.of(7))
    expect((await bad.closed).code).toBe(1007)
    await connect(url, pool, t).synced()
  })
})
