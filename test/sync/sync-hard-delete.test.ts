import * as Y from 'yjs'
import { afterEach, describe, expect, test } from 'vitest'
import type { Memory } from '../../src/index.js'
import { RECORDS_MAP } from '../../src/sync/index.js'
import { UpdateLog, type UpdateRow } from '../../src/sync/update-log.js'
import { fact } from '../helpers/pools-helpers.js'
import { bytesText, clock, devices, network, rawRows, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * What replication leaves on disk and on the wire: a hard delete leaves no byte of the forgotten
 * content in any row of any device once the Yjs updates are compacted (only the tombstone, which
 * holds ids), and an encrypted pool puts only ciphertext into its document.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

describe('hard delete through sync', () => {
  test('a forgotten memory leaves no content bytes on either device after compaction, and the tombstone stays', async () => {
    restore = seedCrypto(11)
    const d = await devices(['alice', 'bob'] as const, { clock: clock() })
    open.push(d.alice.mem, d.bob.mem)
    const net = network()
    // A relay-like document that stores whatever passes: it must end up without the content too.
    const relay = new Y.Doc()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    net.provider('relay').connect(pool, relay, () => undefined)
    const secret = await d.alice.mem.pools.write(pool, fact('spare key', 'is_under', 'the blue flowerpot', { source: 'user' }))
    await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
    await settle(net, [d.alice.mem, d.bob.mem])

    // The scan sees content inside Yjs update bytes: before the delete it is there, on both devices.
    for (const x of [d.alice, d.bob]) {
      const raw = rawRows(x.storage)
      expect(raw).toContain('the blue flowerpot')
      expect(JSON.stringify(x.storage.dump()['syncUpdates'] ?? [])).not.toBe('[]')
      expect(x.storage.dump()['syncUpdates']!.some((row) => bytesText((row as { update: Uint8Array }).update).includes('the blue flowerpot'))).toBe(true)
    }

    // Its author forgets it (a writer may not forget another's memory: issue 13); Bob's replica obeys.
    await d.alice.mem.pools.forget(secret.id)
    await settle(net, [d.alice.mem, d.bob.mem])

    for (const x of [d.alice, d.bob]) {
      expect((await x.mem.pools.export(pool)).memories.map((m) => String(m.content.object))).toEqual(['Rome'])
      expect(await x.mem.pools.status(secret.id)).toBe('forgotten')
      const raw = rawRows(x.storage)
      expect(raw).not.toContain('blue flowerpot')
      expect(raw).not.toContain('spare key')
      expect(raw).toContain('Rome')
      // Compacted parts only (no appended row is left), holding the live records and the tombstone (ids only).
      const rows = (x.storage.dump()['syncUpdates'] as UpdateRow[]).filter((r) => r.pool === pool)
      expect(rows.length).toBeGreaterThan(0)
      expect(rows.every((r) => typeof r.part === 'string')).toBe(true)
      const doc = new Y.Doc()
      for (const update of await new UpdateLog(x.storage, pool).load()) Y.applyUpdate(doc, update)
      const kinds = [...doc.getMap(RECORDS_MAP).values()].map((v) => (v as { kind: string }).kind)
      expect(kinds).toContain('pool-tombstone')
      expect(doc.getMap(RECORDS_MAP).has(secret.id)).toBe(false)
    }
    // What the relay keeps (a stock Yjs document, garbage-collected) has dropped the value as well.
    expect(bytesText(Y.encodeStateAsUpdate(relay))).not.toContain('blue flowerpot')
  })
})

describe('encrypted pools', () => {
  test('put only ciphertext into the document: no name, subject or object crosses the wire or the update log', async () => {
    restore = seedCrypto(12)
    const d = await devices(['alice', 'bob'] as const, { clock: clock() })
    open.push(d.alice.mem, d.bob.mem)
    const net = network()
    const wire = new Y.Doc()
    const pool = (await d.alice.mem.pools.create({ name: 'medical notes', privacy: ['ENCRYPTED'] })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    net.provider('wire').connect(pool, wire, () => undefined)
    await d.alice.mem.pools.write(pool, fact('orthodontist_visit', 'scheduled_for', 'thursday at nine'))
    await settle(net, [d.alice.mem, d.bob.mem])

    // Bob, a member holding his seed, reads it: the ciphertext travelled and his key opens it.
    const got = await d.bob.mem.pools.export(pool)
    expect(got.memories.map((m) => m.content.object)).toEqual(['thursday at nine'])
    expect((await d.bob.mem.pools.info(pool)).name).toBe('medical notes')

    const update = bytesText(Y.encodeStateAsUpdate(wire))
    expect(wire.getMap(RECORDS_MAP).size).toBeGreaterThanOrEqual(4)
    for (const plain of ['orthodontist', 'thursday at nine', 'medical notes', 'scheduled_for']) {
      expect(update).not.toContain(plain)
      for (const x of [d.alice, d.bob]) {
        const rows = x.storage.dump()['syncUpdates'] as Array<{ update: Uint8Array }>
        for (const r of rows) expect(bytesText(r.update)).not.toContain(plain)
      }
    }
  })
})
