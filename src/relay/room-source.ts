import type * as Y from 'yjs'
import type { OwnerPin } from './owner-pin.js'
import type { Peer } from './room.js'

/**
 * The seam between the relay's connections and where pools live. Two backends implement it:
 * the single-process one (rooms.ts + room.ts: a Y.Doc per pool, an fsync'd file log, owner pins
 * in files) and the cluster one (redis/: the same in-memory room per node, its log, snapshot and
 * owner pin in Redis, fan-out between nodes through a Redis Stream). Connections and admission see
 * only these two interfaces, so what a client meets (frames, refusals, close codes) cannot depend
 * on the backend.
 */

/** One pool's document as the connections use it. `Room` (room.ts) implements it as is. */
export interface ServedRoom {
  readonly name: string
  readonly doc: Y.Doc
  /** The pinned owner (persisted or learned pins; configured owners live in the relay). */
  readonly owner: OwnerPin | null
  /** Pins (or re-pins) the owner. May throw a `Refusal` when another node pinned someone else first. */
  pin(pin: OwnerPin): Promise<void>
  peers(): Peer[]
  join(peer: Peer): void
  leave(peer: Peer): void
  stepTwo(stateVector: Uint8Array): Uint8Array
  awarenessStates(): Uint8Array | null
  applyUpdate(update: Uint8Array, origin: Peer): 'applied' | 'too-large' | 'too-much-pending'
  applyAwareness(update: Uint8Array, origin: Peer): void
}

/** The pools a relay serves. `RoomRegistry` (rooms.ts) implements it as is. */
export interface RoomSource {
  /** The owner pin without loading the document. */
  pinOf(name: string): Promise<OwnerPin | null>
  /** Loads (or finds) a room and holds it until `release`. */
  acquire(name: string): Promise<ServedRoom>
  /** Drops one hold; `room`, when given, is the room that hold was on (a backend that reloads rooms ignores stale releases). */
  release(name: string, room?: ServedRoom): void
  /** Rooms loaded now. */
  readonly size: number
  close(): Promise<void>
}
