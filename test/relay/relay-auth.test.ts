import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createPoolToken } from '../../src/sync/pool-token.js'
import { HOUR, allBytes, connect, eventually, identity, poolOf, rawConnect, sleep, startRelay, tempDir, token } from './relay-helpers.js'

describe('relay: who may connect', () => {
  test('missing, malformed, expired, forged, other-pool tokens and a bad room: closed with a code and a reason; the client stops retrying', async () => {
    const owner = await identity('owner')
    const stranger = await identity('stranger')
    const { pool } = poolOf(owner)
    const other = poolOf(owner, 7).pool
    const { url } = await startRelay()
    const good = await token(owner, pool, owner, true)
    const [body, sig] = good.split('.') as [string, string]
    const forgedSig = (await token(stranger, pool, owner, true)).split('.')[1]!
    const cases: Array<[string, string | null, string, number, RegExp]> = [
      ['missing', null, pool, 4401, /^missing: connect with \?token=/],
      ['malformed', 'not-a-token', pool, 4401, /^malformed:/],
      ['expired', await token(owner, pool, owner, true, Date.now() - 1), pool, 4401, /^expired:/],
      ['forged (a stranger signed the owner’s grant)', `${body}.${forgedSig}`, pool, 4401, /^bad-signature:/],
      ['for another pool', good, other, 4403, /^wrong-pool:/],
      ['bad room', good, 'Not..A..Pool', 4404, /^bad-room:/],
    ]
    for (const [name, text, room, code, reason] of cases) {
      const client = connect(url, room, text)
      const closed = await client.closed
      expect(closed.code, name).toBe(code)
      expect(closed.reason, name).toMatch(reason)
      // 4400-4499 is permanent for y-websocket: no reconnect loop against the relay.
      expect(client.provider.shouldConnect, name).toBe(false)
    }
    // And the relay still serves a good token.
    const ok = connect(url, pool, good)
    await ok.synced()
  })

  test('trust on first use: the first issuer owns the pool, others are refused, and the pin survives a restart', async () => {
    const owner = await identity('owner')
    const stranger = await identity('stranger')
    const { pool } = poolOf(owner)
    const dir = await tempDir()
    const first = await startRelay({ dir })
    const a = connect(first.url, pool, await token(owner, pool, owner, true))
    await a.synced()
    const pin = JSON.parse(await readFile(join(dir, 'rooms', pool, 'owner.json'), 'utf8'))
    expect(pin).toMatchObject({ v: 1, owner: owner.did, source: 'tofu' })
    // A stranger's self-signed token for the same pool: valid signature, wrong owner.
    const squat = connect(first.url, pool, await token(stranger, pool, stranger, true))
    expect(await squat.closed).toEqual({ code: 4403, reason: "wrong-owner: the token is not issued by this pool's owner" })
    a.provider.destroy()
    await first.relay.close()

    const second = await startRelay({ dir })
    const again = connect(second.url, pool, await token(stranger, pool, stranger, true))
    expect((await again.closed).code).toBe(4403)
    const b = connect(second.url, pool, await token(owner, pool, owner, false))
    await b.synced()
  })

  test('a configured owner is the only issuer, even for the first connection', async () => {
    const owner = await identity('owner')
    const stranger = await identity('stranger')
    const { pool } = poolOf(owner)
    const { url } = await startRelay({ owners: { [pool]: owner.did } })
    const squat = connect(url, pool, await token(stranger, pool, stranger, true))
    expect((await squat.closed).reason).toMatch(/^wrong-owner:/)
    await connect(url, pool, await token(owner, pool, owner, true)).synced()
  })

  test('ownership proof re-pins a pool a squatter took on first use, and closes the squatter', async () => {
    const owner = await identity('owner')
    const stranger = await identity('stranger')
    const { pool, nonce } = poolOf(owner)
    const dir = await tempDir()
    const { url } = await startRelay({ dir })
    // The squatter comes first and is admitted on trust.
    const squat = connect(url, pool, await token(stranger, pool, stranger, true))
    await squat.synced()
    squat.doc.getMap('m').set('junk', 1)
    // The owner's plain token is refused...
    expect((await connect(url, pool, await token(owner, pool, owner, true)).closed).code).toBe(4403)
    // ...its proven token wins the pool back.
    const proven = await createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: Date.now() + HOUR, ownerProof: { nonce } })
    const a = connect(url, pool, proven)
    await a.synced()
    expect(await squat.closed).toEqual({ code: 4403, reason: 'owner-changed: a token proved another owner for this pool' })
    expect(JSON.parse(await readFile(join(dir, 'rooms', pool, 'owner.json'), 'utf8'))).toMatchObject({ owner: owner.did, source: 'proof' })
    // From now on plain tokens of the owner pass, the squatter's never.
    await connect(url, pool, await token(owner, pool, owner, false)).synced()
    const proofOfStranger = poolOf(stranger).nonce
    await expect(createPoolToken(stranger, { pool, sub: stranger.did, write: true, expiresAt: Date.now() + HOUR, ownerProof: { nonce: proofOfStranger } })).rejects.toThrow()
    expect((await connect(url, pool, await token(stranger, pool, stranger, true)).closed).code).toBe(4403)
  })

  test('ownerProof "required": an unproven first token is refused, a proven one pins', async () => {
    const owner = await identity('owner')
    const { pool, nonce } = poolOf(owner)
    const { url } = await startRelay({ ownerProof: 'required' })
    expect((await connect(url, pool, await token(owner, pool, owner, true)).closed).reason).toMatch(/^owner-proof-required:/)
    const proven = await createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: Date.now() + HOUR, ownerProof: { nonce } })
    await connect(url, pool, proven).synced()
  })

  test('a token that expires while connected closes the connection with 4401', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const { url } = await startRelay()
    const a = connect(url, pool, await token(owner, pool, owner, true, Date.now() + 400))
    await a.synced()
    expect(await a.closed).toEqual({ code: 4401, reason: 'expired: the token expired; reconnect with a fresh one' })
  })
})

describe('relay: read-only members', () => {
  test('a read-only client’s write is refused with a reason, never applied, forwarded or stored; it keeps reading', async () => {
    const owner = await identity('owner')
    const reader = await identity('reader')
    const { pool } = poolOf(owner)
    const dir = await tempDir()
    const { relay, url } = await startRelay({ dir })
    const w = connect(url, pool, await token(owner, pool, owner, true))
    const r = connect(url, pool, await token(owner, pool, reader, false))
    await Promise.all([w.synced(), r.synced()])
    w.doc.getMap('m').set('from-writer', 1)
    await eventually(() => r.doc.getMap('m').get('from-writer'), 1)
    // Connecting and syncing sent the relay a step 2 with nothing new: no refusal for that.
    expect(r.denied).toEqual([])

    r.doc.getMap('m').set('from-reader', 'READONLY-ATTEMPT')
    await eventually(() => r.denied.length, 1)
    expect(r.denied[0]).toMatch(/^read-only: the token for pool [0-9a-f]{32} grants read access only; the update was not applied$/)
    // The writer and a fresh client never see it.
    w.doc.getMap('m').set('marker', 2)
    await eventually(() => r.doc.getMap('m').get('marker'), 2)
    const fresh = connect(url, pool, await token(owner, pool, owner, false))
    await fresh.synced()
    expect(fresh.doc.getMap('m').toJSON()).toEqual({ 'from-writer': 1, marker: 2 })
    expect(w.doc.getMap('m').has('from-reader')).toBe(false)

    // A reconnect re-sends the reader's unsynced state in its step 2: refused again, quietly kept out.
    r.provider.disconnect()
    r.provider.connect()
    await eventually(() => r.denied.length, 2)
    // A deletion is a change too.
    r.doc.getMap('m').delete('from-writer')
    await eventually(() => r.denied.length, 3)
    await sleep(50)
    expect(w.doc.getMap('m').get('from-writer')).toBe(1)

    for (const c of [w, r, fresh]) c.provider.destroy()
    await relay.close()
    expect((await allBytes(dir)).includes('READONLY-ATTEMPT')).toBe(false)
  })
})
