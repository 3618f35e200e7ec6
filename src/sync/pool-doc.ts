import * as Y from 'yjs'
import { PoolKind, type PoolRecord } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import { RECORDS_MAP, decodeRecord, encodeRecord, sameContent } from './codec.js'

/**
 * Transaction origins of the sync layer's own changes to a Y.Doc. Anything else (a provider)
 * is a remote change: it is judged by the materializer and, if it removed a key, healed.
 */
export const Origin = {
  /** Replaying the persisted updates on open (not persisted again). */
  LOAD: Symbol('memweave-sync:load'),
  /** Records of the local store entering the document (this replica's writes, and its tombstones' deletions). */
  LOCAL: Symbol('memweave-sync:local'),
  /** A key that vanished (or was overwritten) without a tombstone, put back from the local store. */
  HEAL: Symbol('memweave-sync:heal'),
  /** Keys of records a valid tombstone forgets, removed by the materializer. */
  FORGET: Symbol('memweave-sync:forget'),
} as const

const OWN: ReadonlySet<unknown> = new Set(Object.values(Origin))

/** Whether a transaction origin is one of the sync layer's own (not a provider's). */
export function isOwnOrigin(origin: unknown): boolean {
  return OWN.has(origin)
}

/**
 * One pool's Y.Doc: a Y.Map from record id to record (codec.ts). Values are set once and never
 * edited; this class only adds records, and removes the keys of forgotten memories.
 */
export class PoolDoc {
  readonly pool: PoolId
  readonly doc: Y.Doc
  readonly map: Y.Map<unknown>
  #size = 0

  constructor(pool: PoolId, clientId?: number) {
    this.pool = pool
    // gc: deleted values are dropped from memory and from encoded state (what compaction relies on).
    this.doc = new Y.Doc({ gc: true })
    if (clientId !== undefined) this.doc.clientID = clientId
    this.map = this.doc.getMap(RECORDS_MAP)
    // Y.Map's own `size` walks every entry; the status (computed on each change) reads it often.
    this.map.observe((event) => {
      for (const change of event.changes.keys.values()) {
        if (change.action === 'add') this.#size++
        else if (change.action === 'delete') this.#size--
      }
    })
  }

  /** Values in the map, in O(1). */
  get size(): number {
    return this.#size
  }

  entries(): Array<[string, unknown]> {
    return [...this.map.entries()]
  }

  /** Whether the key holds exactly this record, field for field (another body under its id and signature is not it). */
  holds(record: PoolRecord): boolean {
    const d = decodeRecord(record.id, this.map.get(record.id))
    return d.ok && sameContent(d.record, record)
  }

  /**
   * In one transaction: sets each record not already held, and removes the keys in `forget` that
   * hold a memory record (the materializer's forgotten set: the tombstone that justifies a removal
   * is in the document before it). Returns the ids it set.
   */
  write(records: readonly PoolRecord[], forget: readonly string[], origin: symbol): string[] {
    const set: string[] = []
    this.doc.transact(() => {
      for (const r of records) {
        if (this.holds(r)) continue
        this.map.set(r.id, encodeRecord(r))
        set.push(r.id)
      }
      for (const key of forget) {
        const d = decodeRecord(key, this.map.get(key))
        if (d.ok && d.record.kind === PoolKind.MEMORY) this.map.delete(key)
      }
    }, origin)
    return set
  }

  destroy(): void {
    this.doc.destroy()
  }
}
