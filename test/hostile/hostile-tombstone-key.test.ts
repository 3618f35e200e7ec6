import { expect, test } from 'vitest'
import * as Y from 'yjs'
import { PoolKind } from '../../src/pools/records.js'
import { fact } from '../helpers/pools-helpers.js'
import { arena, eventually, objects, pushUpdate } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

type Attack = (records: Y.Map<unknown>, tombstone: string, memory: string, saved: unknown) => void

/**
 * Regression (issue 26, case 8): a writer deleted a tombstone's key (a bare deletion) and put the
 * forgotten memory back while no replica holding the tombstone was online; a device that joined
 * then showed the forgotten memory until the owner reconnected. Now the relay refuses any update
 * that deletes or replaces a tombstone's key, so the joining device sees the tombstone too.
 */
test.each<[string, Attack]>([
  ['a bare deletion and the memory put back, in one update', (r, t, m, saved) => {
    r.delete(t)
    r.set(m, saved)
  }],
  ['the memory put back first, the deletion on its own', (r, t) => r.delete(t)],
  ['the tombstone’s key overwritten with junk', (r, t, m, saved) => {
    r.set(t, { kind: 'pool-memory', junk: true })
    r.set(m, saved)
  }],
  ['the tombstone overwritten with a forged copy that names nothing', (r, t, m, saved) => {
    const forged = structuredClone(r.get(t)) as { body: { targets: unknown[] } }
    forged.body.targets = []
    r.set(t, forged)
    r.set(m, saved)
  }],
])('%s, while no witness is online: refused by the relay, and a device that joins does not show the memory', async (name, attack) => {
  const a = await arena()
  const malloryId = await identityFor('mallory')
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: true })
  // Carol, a member whose device has not joined yet.
  await a.owner.mem.pools.share(a.pool, (await identityFor('carol')).did, { write: false })
  const rome = await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  await a.owner.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
  const watcher = await a.raw((await identityFor('dave')).did, false)
  await eventually(() => watcher.records.has(rome.id), true)
  const saved = watcher.records.get(rome.id)

  await a.owner.mem.pools.forget(rome.id)
  const tombstoneKey = (): string | undefined =>
    [...watcher.records.entries()].find(([, v]) => (v as { kind?: string }).kind === PoolKind.TOMBSTONE)?.[0]
  await eventually(() => watcher.records.has(rome.id) === false && tombstoneKey() !== undefined, true)
  const tombstone = tombstoneKey()!
  // Every replica that holds the tombstone goes offline.
  await a.owner.mem.sync.disconnect(a.pool)

  // Mallory, a writer in good standing, works on a copy of the relay's document.
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(watcher.doc))
  const records = doc.getMap('records')
  const url = `${a.url}/${a.pool}`
  const token = await a.token(malloryId.did, true)
  if (name.startsWith('the memory put back first')) {
    const sv = Y.encodeStateVector(doc)
    records.set(rome.id, saved)
    expect(await pushUpdate(url, token, Y.encodeStateAsUpdate(doc, sv))).toBe('kept')
  }
  const sv = Y.encodeStateVector(doc)
  attack(records, tombstone, rome.id, saved)
  expect(await pushUpdate(url, token, Y.encodeStateAsUpdate(doc, sv))).toMatch(new RegExp(`^1008 tombstone: the update deletes or replaces tombstone ${tombstone}`))

  // A device joins with no witness online: it sees the tombstone, and not the memory it forgot.
  const reader = await a.raw((await identityFor('erin')).did, false)
  expect(reader.records.has(tombstone)).toBe(true)
  const carol = await a.replica('carol')
  await eventually(async () => {
    const s = (await carol.mem.sync.status()).pools[0]
    return s !== undefined && s.state === 'synced' && s.records === reader.records.size
  }, true, 20_000)
  expect(await objects(carol.mem, a.pool)).toEqual(['Oslo'])
  expect(await carol.mem.pools.status(rome.id)).toBe('forgotten')
}, 60_000)
