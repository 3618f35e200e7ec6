import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { awarenessFrame, syncStep1Frame, syncStep2Frame, updateFrame } from './frames.js'
import { readOwnerPin, writeOwnerPin, type OwnerPin } from './owner-pin.js'
import type { PoolGrant } from '../sync/pool-token.js'
import { UpdateLog } from './update-log.js'
import { withoutTooDeep } from '../sync/update-depth.js'
import { LostRanges, fillGaps, type LostRange } from './gap-fill.js'
import { readLostRanges, writeLostRanges } from './lost-file.js'

/** One admitted websocket client, as a room sees it. */
export interface Peer {
  readonly grant: PoolGrant
  send(frame: Uint8Array): void
  close(code: number, reason: string): void
}

export interface RoomOptions {
  /** The room's directory (its update log and owner pin), or null for a room kept in memory. */
  readonly dir: string | null
  /** Compact once this many bytes were appended since the last compaction (and more than the document). */
  readonly compactAfterBytes: number
  readonly maxDocumentBytes: number
  readonly maxPendingBytes: number
  readonly onError: (err: unknown) => void
}

const LOG_FILE = 'updates.log'
/** The origin of the relay's own changes: map entries of lost ranges set again (gap-fill.ts), sent to every peer and logged. */
const HEAL = Symbol('memweave-relay:heal')

function warn(message: string): void {
  process.stderr.write(`memweave relay: ${message}\n`)
}

function describe(ranges: readonly LostRange[]): string {
  const shown = ranges.slice(0, 8).map((r) => `client ${r.client} clocks ${r.clock}-${r.clock + r.len - 1}`).join(', ')
  return ranges.length > 8 ? `${shown} and ${ranges.length - 8} more` : shown
}

/**
 * One pool's document on the relay: a Y.Doc with garbage collection on (so deleted content is
 * dropped from the state the relay stores), its awareness, the peers connected to it, and its
 * update log. Every update applied to the document is forwarded to the other peers and appended
 * to the log; nothing else changes the document.
 */
export class Room {
  readonly name: string
  readonly doc: Y.Doc
  readonly awareness: awarenessProtocol.Awareness
  readonly #peers = new Map<Peer, Set<number>>()
  readonly #options: RoomOptions
  readonly #log: UpdateLog | null
  #owner: OwnerPin | null
  /** An upper bound of the encoded document size: exact after a compaction, plus every update since. */
  #sizeBound: number
  /** Bytes stored by the last compaction (or at load), and appended since. */
  #baseBytes: number
  #appendedBytes = 0
  /** The log holds more than one frame: a compaction would shrink it. */
  #dirty: boolean
  #compacting: Promise<void> | null = null
  #closed: Promise<void> | null = null
  /** Clocks filled with GC structs at load because no replica held them, until one brings them back. */
  readonly #lost: LostRanges
  #lostWrite: Promise<void> = Promise.resolve()

  private constructor(name: string, doc: Y.Doc, log: UpdateLog | null, owner: OwnerPin | null, storedBytes: number, dirty: boolean, options: RoomOptions, lost = new LostRanges()) {
    this.name = name
    this.#lost = lost
    this.doc = doc
    this.#log = log
    this.#owner = owner
    this.#options = options
    this.#sizeBound = storedBytes
    this.#baseBytes = storedBytes
    this.#dirty = dirty
    this.awareness = new awarenessProtocol.Awareness(doc)
    this.awareness.setLocalState(null)
    this.awareness.on('update', ({ added, updated, removed }: AwarenessChange, origin: unknown) => {
      const peer = origin as Peer | null
      const controlled = peer ? this.#peers.get(peer) : undefined
      if (controlled) {
        for (const id of added) controlled.add(id)
        for (const id of removed) controlled.delete(id)
      }
      const changed = [...added, ...updated, ...removed]
      const frame = awarenessFrame(awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed))
      for (const p of this.#peers.keys()) p.send(frame)
    })
    doc.on('update', (update: Uint8Array, origin: unknown) => this.#onUpdate(update, origin))
  }

  /** Loads a room from its directory (creating it), or makes an empty one in memory. @throws MemweaveError STORAGE */
  static async open(name: string, options: RoomOptions): Promise<Room> {
    const doc = new Y.Doc({ gc: true })
    if (options.dir === null) return new Room(name, doc, null, null, 0, false, options)
    try {
      await mkdir(options.dir, { recursive: true, mode: 0o700 })
    } catch (err) {
      throw new MemweaveError(ErrorCode.STORAGE, `relay: cannot create ${options.dir}`, {}, { cause: err })
    }
    const owner = await readOwnerPin(options.dir)
    const { log, updates } = await UpdateLog.open(join(options.dir, LOG_FILE))
    let stored = 0
    let deep = 0
    let filled: LostRange[]
    const lost = new LostRanges(await readLostRanges(options.dir))
    try {
      doc.transact(() => {
        for (const update of updates) {
          // A value too deep for clients, stored before the relay refused them (update-depth.ts), is garbage-collected.
          const safe = withoutTooDeep(update)
          deep += safe.dropped
          Y.applyUpdate(doc, safe.update)
          stored += update.length
        }
      }, 'load')
      // What still waits for a missing clock now waits for no one: the replicas connect after this.
      filled = fillGaps(doc, 'load')
    } catch (err) {
      await log.close()
      doc.destroy()
      throw new MemweaveError(ErrorCode.STORAGE, `relay: ${log.path} holds an update Yjs cannot apply`, {}, { cause: err })
    }
    if (deep > 0) warn(`${log.path}: garbage-collected ${deep} value(s) nested more than the clients can decode`)
    const room = new Room(name, doc, log, owner, stored, updates.length > 1 || filled.length > 0 || deep > 0, options, lost)
    if (filled.length > 0) {
      lost.add(filled)
      // Durable before the compaction below writes the filled document (a crash between fills the same gaps again).
      await writeLostRanges(options.dir, lost.list())
      const clocks = filled.reduce((sum, r) => sum + r.len, 0)
      warn(
        `${log.path}: ${clocks} clock(s) of the document are missing (${describe(filled)}): filled as deleted content so that ` +
          `the later updates apply; what they held is lost unless a replica that holds it reconnects (asked for it on every connect, see lost.json)`,
      )
      await room.compact()
    }
    return room
  }

  /** The clock ranges filled at load that no replica has brought back yet (gap-fill.ts). */
  get lost(): LostRange[] {
    return this.#lost.list()
  }

  /** The pool's owner as the relay knows it (persisted pins only; configured owners live in the relay). */
  get owner(): OwnerPin | null {
    return this.#owner
  }

  /** Pins the owner now (synchronously, so two admissions cannot both pin) and persists it. */
  pin(pin: OwnerPin): Promise<void> {
    this.#owner = pin
    return this.#options.dir === null ? Promise.resolve() : writeOwnerPin(this.#options.dir, pin)
  }

  get peerCount(): number {
    return this.#peers.size
  }

  peers(): Peer[] {
    return [...this.#peers.keys()]
  }

  /** Adds a peer and starts the sync: our step 1 (asking for what it has) and the awareness states. */
  join(peer: Peer): void {
    this.#peers.set(peer, new Set())
    // With lost ranges, the state vector announced asks every replica for them (gap-fill.ts).
    peer.send(this.#lost.size === 0 ? syncStep1Frame(this.doc) : syncStep1Frame(this.doc, this.#lost.stateVector(this.doc)))
    const states = this.awareness.getStates()
    if (states.size > 0) peer.send(awarenessFrame(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...states.keys()])))
  }

  /** Removes a peer and the awareness states it controlled. */
  leave(peer: Peer): void {
    const controlled = this.#peers.get(peer)
    if (!controlled) return
    this.#peers.delete(peer)
    awarenessProtocol.removeAwarenessStates(this.awareness, [...controlled], null)
  }

  /** The step 2 answering a peer's step 1: what the document has beyond its state vector. */
  stepTwo(stateVector: Uint8Array): Uint8Array {
    return syncStep2Frame(Y.encodeStateAsUpdate(this.doc, stateVector))
  }

  /** The awareness states of everyone, or null when there are none. */
  awarenessStates(): Uint8Array | null {
    const states = this.awareness.getStates()
    return states.size === 0 ? null : awarenessFrame(awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...states.keys()]))
  }

  /**
   * Applies a validated update from a writer. Refused (not applied) when the document could pass
   * `maxDocumentBytes`: the exact size is computed only when the cheap bound says it might. Content
   * Yjs holds back because its dependencies are missing counts toward that size, and is itself
   * capped by `maxPendingBytes`: past it, what this update left pending is dropped (it was never
   * in the document nor the log, so nothing stored is lost) and the earlier pending content is kept.
   * @throws whatever Y.applyUpdate throws for an update it cannot integrate
   */
  applyUpdate(update: Uint8Array, origin: Peer): 'applied' | 'too-large' | 'too-much-pending' {
    const max = this.#options.maxDocumentBytes
    const store = this.doc.store
    // Yjs merges new pending content into its pending record in place: keep a copy to restore.
    const held = store.pendingStructs
    const before = { structs: held && { missing: new Map(held.missing), update: held.update }, ds: store.pendingDs }
    if (this.#sizeBound + pendingBytes(this.doc) + update.length > max) {
      // The encoded state includes the pending content (Yjs appends it), so this is exact.
      this.#sizeBound = Y.encodeStateAsUpdate(this.doc).length
      if (this.#sizeBound + update.length > max) return 'too-large'
    }
    Y.applyUpdate(this.doc, update, origin)
    if (this.#lost.size > 0) this.#heal(update)
    if (pendingBytes(this.doc) <= this.#options.maxPendingBytes) return 'applied'
    // Yjs re-merges its pending content with every later out-of-order update (one 64 MiB pending
    // update made each 19-byte message cost 0.3 s of the relay's one thread). What the update
    // integrated stays (it was forwarded and logged); the earlier pending content comes back,
    // including any part this update resolved: Yjs skips structs it already has.
    store.pendingStructs = before.structs
    store.pendingDs = before.ds
    return 'too-much-pending'
  }

  /** A writer's update that carries clocks of lost ranges: their map entries come back (gap-fill.ts). */
  #heal(update: Uint8Array): void {
    const before = this.#lost.size
    const healed = this.#lost.heal(this.doc, Y.decodeUpdate(update), HEAL)
    if (this.#lost.size === before && healed.length === 0) return
    if (healed.length > 0) warn(`pool ${this.name}: a replica brought back ${healed.length} entr${healed.length === 1 ? 'y' : 'ies'} of lost updates (${healed.slice(0, 8).join(', ')})`)
    const dir = this.#options.dir
    if (dir !== null) {
      const ranges = this.#lost.list()
      this.#lostWrite = this.#lostWrite.then(() => writeLostRanges(dir, ranges)).catch(this.#options.onError)
    }
  }

  applyAwareness(update: Uint8Array, origin: Peer): void {
    awarenessProtocol.applyAwarenessUpdate(this.awareness, update, origin)
  }

  #onUpdate(update: Uint8Array, origin: unknown): void {
    if (origin === 'load') return
    this.#sizeBound += update.length
    const frame = updateFrame(update)
    for (const peer of this.#peers.keys()) if (peer !== origin) peer.send(frame)
    this.#dirty = true
    this.#appendedBytes += update.length
    this.#log?.append(update).catch(this.#options.onError)
    this.#maybeCompact()
  }

  /** Compacts when enough was appended since the last compaction: past the threshold and past the document's own size, so the cost stays linear. */
  #maybeCompact(): void {
    if (this.#compacting || this.#closed) return
    if (this.#appendedBytes > this.#options.compactAfterBytes && this.#appendedBytes > this.#baseBytes) {
      this.compact().catch(this.#options.onError)
    }
  }

  /**
   * Rewrites the stored state as the document's current state in one update: updates merged,
   * deleted content gone (the document garbage-collects it; merging raw updates would not).
   */
  compact(): Promise<void> {
    this.#compacting ??= (async () => {
      try {
        const state = Y.encodeStateAsUpdate(this.doc)
        this.#sizeBound = state.length
        this.#baseBytes = state.length
        this.#appendedBytes = 0
        this.#dirty = false
        await this.#log?.rewrite(state)
      } finally {
        this.#compacting = null
      }
      // Updates that arrived while this one ran may already call for the next.
      this.#maybeCompact()
    })()
    return this.#compacting
  }

  /** Compacts if anything changed, closes the log and frees the document. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      try {
        await this.#compacting?.catch(() => undefined)
        if (this.#dirty) await this.compact()
        await this.#lostWrite
      } finally {
        await this.#log?.close()
        this.awareness.destroy()
        this.doc.destroy()
      }
    })()
    return this.#closed
  }
}

/** Bytes of out-of-order content Yjs holds outside the document: encoded updates, so their length is what they cost to re-merge. */
export function pendingBytes(doc: Y.Doc): number {
  return (doc.store.pendingStructs?.update.length ?? 0) + (doc.store.pendingDs?.length ?? 0)
}

interface AwarenessChange {
  readonly added: number[]
  readonly updated: number[]
  readonly removed: number[]
}
