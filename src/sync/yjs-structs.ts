import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'
import { withoutTooDeep } from './update-depth.js'

/**
 * Writing Yjs updates from a document's structs with Yjs's own encoders (`UpdateEncoderV1`, each
 * struct's `write`), in the V1 layout Yjs reads: clients (highest first) with their structs from a
 * clock on, then a delete set. What `Y.encodeStateAsUpdate` and the `update` event do for the whole
 * document or one transaction, for the parts memweave needs alone: a chunk of structs (the update
 * log's compaction) and a transaction's own update, written only when a listener asks for it.
 */

/** The index of the struct holding `clock` (structs sorted by clock, covering every clock up to the client's state). */
export function structAt(structs: ReadonlyArray<Y.Item | Y.GC>, clock: number): number {
  let lo = 0
  let hi = structs.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (structs[mid]!.id.clock <= clock) lo = mid
    else hi = mid - 1
  }
  return lo
}

/**
 * One client's structs `structs[from..to)` as Yjs writes a client's run, from `clock` on (the first
 * struct sliced at `clock` when it starts before it): count, client, first clock, structs.
 */
export function writeStructRun(encoder: Y.UpdateEncoderV1, client: number, structs: ReadonlyArray<Y.Item | Y.GC>, from: number, to: number, clock: number): void {
  encoding.writeVarUint(encoder.restEncoder, to - from)
  encoder.writeClient(client)
  encoding.writeVarUint(encoder.restEncoder, clock)
  structs[from]!.write(encoder, clock - structs[from]!.id.clock)
  for (let k = from + 1; k < to; k++) structs[k]!.write(encoder, 0)
}

/** A delete set as Yjs writes one (clients in descending order). */
export function writeDeleteSet(encoder: Y.UpdateEncoderV1, ds: { clients: Map<number, Array<{ clock: number; len: number }>> }): void {
  encoding.writeVarUint(encoder.restEncoder, ds.clients.size)
  for (const [client, items] of [...ds.clients.entries()].sort((a, b) => b[0] - a[0])) {
    encoder.resetDsCurVal()
    encoding.writeVarUint(encoder.restEncoder, client)
    encoding.writeVarUint(encoder.restEncoder, items.length)
    for (const item of items) {
      encoder.writeDsClock(item.clock)
      encoder.writeDsLen(item.len)
    }
  }
}

const UPDATE = Symbol('memweave.update')

/**
 * The V1 update a transaction made, as Yjs's `update` event would carry it (the structs every client
 * added since the transaction began, and its delete set), or null when it changed nothing. Kept in
 * the transaction's meta, so the listeners that ask (persistence, a link sending local changes)
 * encode it once. Call it from `afterTransactionCleanup`, when Yjs has merged what it merges.
 *
 * Why not the `update` event: Yjs encodes it for every transaction as soon as anyone listens, and
 * a device joining a pool of 100k records then encoded the 73 MB it had just received (0.9 s)
 * only to persist bytes it had in hand (`applyRemoteUpdate` keeps the received ones).
 */
export function transactionUpdate(tr: Y.Transaction): Uint8Array | null {
  if (tr.meta.has(UPDATE)) return tr.meta.get(UPDATE) as Uint8Array | null
  const store = tr.doc.store
  const from: Array<[number, number]> = []
  for (const [client, structs] of store.clients) {
    if (structs.length === 0) continue
    const last = structs[structs.length - 1]!
    const before = tr.beforeState.get(client) ?? 0
    if (last.id.clock + last.length > before) from.push([client, Math.max(before, structs[0]!.id.clock)])
  }
  let update: Uint8Array | null = null
  if (from.length > 0 || tr.deleteSet.clients.size > 0) {
    const encoder = new Y.UpdateEncoderV1()
    encoding.writeVarUint(encoder.restEncoder, from.length)
    for (const [client, clock] of from.sort((a, b) => b[0] - a[0])) {
      const structs = store.clients.get(client)!
      writeStructRun(encoder, client, structs, structAt(structs, clock), structs.length, clock)
    }
    writeDeleteSet(encoder, tr.deleteSet as unknown as { clients: Map<number, Array<{ clock: number; len: number }>> })
    update = encoder.toUint8Array()
  }
  tr.meta.set(UPDATE, update)
  return update
}

/**
 * Applies an update that arrived from a peer, remembering its bytes as the transaction's update
 * (nothing to encode again). A value nested deeper than every client can decode (a relay that
 * should have refused it, or one from before that check) is garbage-collected first
 * (update-depth.ts): Yjs' recursive decoder would otherwise throw on every sync attempt, and the
 * replica would never join (issue 26, case 11). The bytes remembered are the ones applied.
 */
export function applyRemoteUpdate(doc: Y.Doc, received: Uint8Array, origin: unknown): void {
  const { update } = withoutTooDeep(received)
  Y.transact(doc, (tr) => {
    tr.meta.set(UPDATE, update)
    Y.applyUpdate(doc, update, origin)
  }, origin, false)
}
