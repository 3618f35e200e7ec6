import * as Y from 'yjs'
import { signedRecordId } from '../core/signed-record.js'
import { PoolKind } from '../pools/records.js'
import { RECORDS_MAP } from '../sync/codec.js'

/**
 * Tombstones stay in force while no witness is online (issue 26, case 8).
 *
 * A hard delete is a `pool-tombstone` record in the pool document's records map (key = record id,
 * src/sync/codec.ts) plus the removal of the forgotten memory's key. Replicas refuse a bare
 * deletion of a record they hold and put it back (docs/sync.md, "heal"), but only while one of them
 * is online: a writer that deleted a tombstone's key and set the memory back while every replica
 * holding the tombstone was offline made a device that joined then show the forgotten memory.
 *
 * No honest replica ever removes or replaces a tombstone's key (PoolDoc.write removes memory keys
 * only), so the relay refuses any update that would: a deletion of the struct holding a tombstone,
 * or a new struct under a tombstone's key (Yjs deletes a key's previous value when a new one wins,
 * whatever the update's delete set says). A value counts as a tombstone when it is one under its
 * own id, its id being its content's hash: a forged "tombstone" copied over another record's key
 * cannot protect that key from the replicas that heal it. The relay checks no signature (it holds
 * no pool state); a validly hashed tombstone nobody signed protects only its own key, which no
 * replica needs. Cost: per update, one look at each deleted range and each new struct.
 *
 * Limit: a struct whose key can only be known once a missing dependency arrives (its origin not in
 * the document nor the update) is not judged; it waits in Yjs' pending content.
 */

/** Whether `value` under `key` is a pool tombstone record under its own content id. */
export function isTombstoneValue(key: string, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const v = value as Record<string, unknown>
  if (v['kind'] !== PoolKind.TOMBSTONE || v['id'] !== key) return false
  try {
    return signedRecordId({
      kind: v['kind'], pool: v['pool'] as string, tenant: v['tenant'] as string | null, body: v['body'], author: v['author'] as string, hlc: v['hlc'] as string,
    }) === key
  } catch {
    return false
  }
}

/**
 * The value a records-map item holds when it is its key's current value, else undefined. The map
 * is read through `_map`: on the relay, which never calls `getMap`, the root is a bare AbstractType.
 */
function currentValue(map: Y.AbstractType<any>, item: Y.Item): unknown {
  if (item.deleted || item.parent !== map || item.parentSub === null) return undefined
  if (map._map.get(item.parentSub) !== item) return undefined
  const content = item.content.getContent()
  return content[content.length - 1]
}

/** The current value of `key` in the records map. */
function valueAt(map: Y.AbstractType<any>, key: string): unknown {
  const item = map._map.get(key)
  return item === undefined ? undefined : currentValue(map, item)
}

/**
 * The key of a tombstone that applying `decoded` to `doc` would delete or replace, or null.
 * `decoded` must come from update-check.ts `decodeUpdate` (depth checked).
 */
export function touchedTombstone(decoded: ReturnType<typeof Y.decodeUpdate>, doc: Y.Doc): string | null {
  const map = doc.share.get(RECORDS_MAP)
  if (map === undefined || map._map.size === 0) return null
  const store = doc.store
  const protectedKey = (key: string | null): boolean => key !== null && isTombstoneValue(key, valueAt(map, key))

  // Deletions: a struct the document holds, current value of a tombstone's key.
  for (const [client, ranges] of decoded.ds.clients) {
    const structs = store.clients.get(client)
    if (!structs) continue
    const known = Y.getState(store, client)
    for (const { clock, len } of ranges) {
      let at = clock
      const end = Math.min(clock + len, known)
      while (at < end) {
        const s = structs[Y.findIndexSS(structs, at)]!
        if (s instanceof Y.Item) {
          const value = currentValue(map, s)
          if (value !== undefined && isTombstoneValue(s.parentSub!, value)) return s.parentSub
        }
        at = s.id.clock + s.length
      }
    }
  }

  // New structs: the records-map key each one sets, from its own fields or from a neighbour's
  // (an item with an origin copies its parent and key from it), in the document or in this update.
  const byClient = new Map<number, Y.Item[]>()
  for (const s of decoded.structs) {
    if (!(s instanceof Y.Item)) continue
    let list = byClient.get(s.id.client)
    if (!list) byClient.set(s.id.client, (list = []))
    list.push(s) // an update lists a client's structs in clock order
  }
  const inUpdate = (id: Y.ID): Y.Item | null => {
    const list = byClient.get(id.client)
    if (!list) return null
    let lo = 0
    let hi = list.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const s = list[mid]!
      if (id.clock < s.id.clock) hi = mid - 1
      else if (id.clock >= s.id.clock + s.length) lo = mid + 1
      else return s
    }
    return null
  }
  type Step = { readonly key: string | null | undefined } | { readonly item: Y.Item }
  const step = (item: Y.Item): Step => {
    if (item.parent !== null) return { key: (item.parent as unknown) === RECORDS_MAP ? item.parentSub : null }
    for (const id of [item.origin, item.rightOrigin]) {
      if (id === null) continue
      if (id.clock < Y.getState(store, id.client)) {
        const n = Y.getItem(store, id)
        return { key: n instanceof Y.Item && n.parent === map ? n.parentSub : null }
      }
      const n = inUpdate(id)
      if (n) return { item: n }
    }
    return { key: undefined } // waits on a struct neither here nor in the document (see the limit)
  }
  // Followed without recursion; each item is settled once, so the cost is linear in the update.
  const settled = new Map<Y.Item, string | null | undefined>()
  const verdicts = new Map<string, boolean>()
  for (const list of byClient.values()) {
    for (const item of list) {
      if (settled.has(item) || item.id.clock + item.length <= Y.getState(store, item.id.client)) continue
      const chain = [item]
      const onChain = new Set(chain)
      let key: string | null | undefined
      for (;;) {
        const next = step(chain[chain.length - 1]!)
        if ('key' in next) {
          key = next.key
          break
        }
        if (settled.has(next.item)) {
          key = settled.get(next.item)
          break
        }
        if (onChain.has(next.item)) break // a cycle: no key
        chain.push(next.item)
        onChain.add(next.item)
      }
      for (const c of chain) settled.set(c, key)
      if (typeof key !== 'string') continue
      let verdict = verdicts.get(key)
      if (verdict === undefined) verdicts.set(key, (verdict = protectedKey(key)))
      if (verdict) return key
    }
  }
  return null
}
