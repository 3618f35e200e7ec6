import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import * as syncProtocol from 'y-protocols/sync'
import type * as Y from 'yjs'
import type { PoolId } from '../pools/types.js'
import type { LinkState, SyncLink, SyncProvider } from './types.js'

export interface InProcessNetworkOptions {
  /** Random numbers in [0, 1) for drops, delays and delivery order; seed it for reproducible runs. Default Math.random. */
  readonly random?: () => number
  /** Delivery delay in ms (automatic mode): a number, or a function of `random`. Default 0. */
  readonly delay?: number | ((random: () => number) => number)
  /** Probability that a message is lost. Default 0. */
  readonly drop?: number
  /** Deliver queued messages in random order instead of the order they were sent. Default false. */
  readonly reorder?: boolean
  /** Messages wait until `deliver()` / `flush()`: the caller decides every interleaving. Default false. */
  readonly manual?: boolean
}

interface Endpoint {
  readonly node: string
  readonly pool: PoolId
  readonly doc: Y.Doc
  readonly report: (state: LinkState) => void
  readonly onUpdate: (update: Uint8Array, origin: unknown) => void
  /** Peers whose answer to our state vector arrived since we last (re)connected. */
  readonly syncedFrom: Set<Endpoint>
  closed: boolean
}

interface Message {
  readonly from: Endpoint
  readonly to: Endpoint
  readonly data: Uint8Array
}

/**
 * An in-process connector for tests and demos: the Y.Docs of several replicas in one process
 * exchange updates through a simulated network that can delay, lose and reorder messages. It
 * speaks the y-protocols sync messages (state vector, missing updates, incremental updates) that
 * y-websocket speaks, peer to peer within each pool (a full mesh, no server document).
 *
 * Each replica gets `network.provider(node)` and attaches it (`mem.sync.attach(pool, provider)`).
 * A node can go offline and come back (`setOnline`): on return it exchanges state vectors with its
 * peers, as a websocket provider does on reconnect; `resync()` makes every pair exchange them again
 * (what recovers lost messages).
 */
export class InProcessNetwork {
  readonly #random: () => number
  readonly #delay: InProcessNetworkOptions['delay']
  readonly #drop: number
  readonly #reorder: boolean
  readonly #manual: boolean
  readonly #rooms = new Map<string, Set<Endpoint>>()
  readonly #offline = new Set<string>()
  readonly #queue: Message[] = []
  readonly #timers = new Set<ReturnType<typeof setTimeout>>()
  #sent = 0
  #dropped = 0

  constructor(options: InProcessNetworkOptions = {}) {
    this.#random = options.random ?? Math.random
    this.#delay = options.delay ?? 0
    this.#drop = options.drop ?? 0
    this.#reorder = options.reorder ?? false
    this.#manual = options.manual ?? false
  }

  /** Messages sent and not yet delivered or lost. */
  get inFlight(): number {
    return this.#queue.length
  }

  get stats(): { readonly sent: number; readonly dropped: number } {
    return { sent: this.#sent, dropped: this.#dropped }
  }

  /** The provider of one node (a replica); attach it to each pool the node replicates. */
  provider(node: string): SyncProvider {
    // The document is the pool's Y.Doc (PoolDocument is its structural public type).
    return { kind: 'in-process', connect: (pool, doc, report) => this.#join(node, pool, doc as unknown as Y.Doc, report) }
  }

  isOnline(node: string): boolean {
    return !this.#offline.has(node)
  }

  /** Takes a node off the network (its links report offline; messages to and from it are lost) or brings it back. */
  setOnline(node: string, online: boolean): void {
    if (online === this.isOnline(node)) return
    if (online) this.#offline.delete(node)
    else this.#offline.add(node)
    for (const room of this.#rooms.values()) {
      const mine = [...room].filter((e) => e.node === node)
      if (mine.length === 0) continue
      for (const e of room) {
        if (e.node === node) e.syncedFrom.clear()
        else for (const m of mine) e.syncedFrom.delete(m)
      }
      if (online) for (const e of mine) this.#handshake(e, room)
      for (const e of room) this.#report(e)
    }
  }

  /** Every pair of online peers exchanges state vectors again. */
  resync(): void {
    for (const room of this.#rooms.values()) {
      for (const a of room) for (const b of room) if (a !== b && this.#up(a) && this.#up(b)) this.#send(a, b, this.#step1(a.doc))
    }
  }

  /** Delivers one queued message: `index` in the queue, else the oldest (or a random one with `reorder`). False when none is queued. */
  deliver(index?: number): boolean {
    if (this.#queue.length === 0) return false
    const i = index ?? (this.#reorder ? Math.floor(this.#random() * this.#queue.length) : 0)
    const [msg] = this.#queue.splice(Math.min(Math.max(0, i), this.#queue.length - 1), 1)
    this.#receive(msg!)
    return true
  }

  /** Loses one queued message. */
  lose(index = 0): boolean {
    if (this.#queue.length === 0) return false
    this.#queue.splice(Math.min(Math.max(0, index), this.#queue.length - 1), 1)
    this.#dropped++
    return true
  }

  /** Delivers until nothing is queued (answers included); in automatic mode, waits for the timers. */
  async flush(): Promise<void> {
    if (this.#manual) {
      while (this.deliver()) {
        // each delivery may queue answers
      }
      return
    }
    while (this.#queue.length > 0) await new Promise((r) => setTimeout(r, 1))
  }

  /** Closes every link and forgets queued messages. */
  close(): void {
    for (const t of this.#timers) clearTimeout(t)
    this.#timers.clear()
    this.#queue.length = 0
    for (const room of this.#rooms.values()) for (const e of [...room]) this.#leave(e)
  }

  // ---- internals ------------------------------------------------------------------------------------

  #join(node: string, pool: PoolId, doc: Y.Doc, report: (state: LinkState) => void): SyncLink {
    let room = this.#rooms.get(pool)
    if (!room) this.#rooms.set(pool, (room = new Set()))
    const endpoint: Endpoint = {
      node, pool, doc, report, syncedFrom: new Set(), closed: false,
      onUpdate: (update, origin) => {
        // Updates this network applied came from a peer that sends to everyone itself (full mesh).
        if (origin === endpoint || !this.#up(endpoint)) return
        for (const peer of room!) if (peer !== endpoint && this.#up(peer)) this.#send(endpoint, peer, this.#update(update))
      },
    }
    room.add(endpoint)
    doc.on('update', endpoint.onUpdate)
    if (this.#up(endpoint)) this.#handshake(endpoint, room)
    for (const e of room) this.#report(e)
    return { close: () => this.#leave(endpoint) }
  }

  #leave(e: Endpoint): void {
    if (e.closed) return
    e.closed = true
    e.doc.off('update', e.onUpdate)
    const room = this.#rooms.get(e.pool)
    room?.delete(e)
    for (const other of room ?? []) {
      other.syncedFrom.delete(e)
      this.#report(other)
    }
    e.report({ connected: false, synced: false, error: null })
  }

  #up(e: Endpoint): boolean {
    return !e.closed && !this.#offline.has(e.node)
  }

  #handshake(e: Endpoint, room: ReadonlySet<Endpoint>): void {
    for (const peer of room) {
      if (peer === e || !this.#up(peer)) continue
      this.#send(e, peer, this.#step1(e.doc))
      this.#send(peer, e, this.#step1(peer.doc))
    }
  }

  #report(e: Endpoint): void {
    if (e.closed) return
    const up = this.#up(e)
    const peers = [...(this.#rooms.get(e.pool) ?? [])].filter((p) => p !== e && this.#up(p))
    // Alone in a room, nobody has what we hold: connected, not in step.
    e.report({ connected: up, synced: up && peers.length > 0 && peers.every((p) => e.syncedFrom.has(p)), error: null })
  }

  #step1(doc: Y.Doc): Uint8Array {
    const enc = encoding.createEncoder()
    syncProtocol.writeSyncStep1(enc, doc)
    return encoding.toUint8Array(enc)
  }

  #update(update: Uint8Array): Uint8Array {
    const enc = encoding.createEncoder()
    syncProtocol.writeUpdate(enc, update)
    return encoding.toUint8Array(enc)
  }

  #send(from: Endpoint, to: Endpoint, data: Uint8Array): void {
    this.#sent++
    if (this.#drop > 0 && this.#random() < this.#drop) {
      this.#dropped++
      return
    }
    const msg: Message = { from, to, data }
    this.#queue.push(msg)
    if (this.#manual) return
    const delay = (typeof this.#delay === 'function' ? this.#delay(this.#random) : this.#delay) ?? 0
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      const i = this.#queue.indexOf(msg)
      if (i >= 0) this.deliver(i)
    }, Math.max(0, delay))
    this.#timers.add(timer)
  }

  #receive(msg: Message): void {
    const { from, to } = msg
    // A message to or from a node that left or went offline meanwhile is lost, as on a real network.
    if (!this.#up(to) || !this.#up(from)) {
      this.#dropped++
      return
    }
    const decoder = decoding.createDecoder(msg.data)
    const reply = encoding.createEncoder()
    const type = syncProtocol.readSyncMessage(decoder, reply, to.doc, to)
    if (encoding.length(reply) > 0) this.#send(to, from, encoding.toUint8Array(reply))
    if (type === syncProtocol.messageYjsSyncStep2 && !to.syncedFrom.has(from)) {
      to.syncedFrom.add(from)
      this.#report(to)
    }
  }
}
