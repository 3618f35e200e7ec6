import { randomBytes } from 'node:crypto'
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis'
import { loadPeer } from '../../core/peer.js'
import { ErrorCode, MemweaveError } from '../../core/errors.js'
import { Refusal } from '../admission.js'
import type { OwnerPin } from '../owner-pin.js'
import { RelayCloseCode } from '../../sync/relay-protocol.js'
import type { RoomSource, ServedRoom } from '../room-source.js'
import { RoomHolds } from '../room-holds.js'
import { ClusterRoom, parsePin, type ClusterHost } from './cluster-room.js'
import { DEFAULT_PREFIX, clusterKeys, poolKeys, type ClusterKeys } from './keys.js'
import { PinCopy, copyWins } from './pin-copy.js'
import { PIN } from './scripts.js'
import { describeRedisTarget, parseRedisTarget, type RedisTarget } from './target.js'
import { ROOM_PATTERN } from '../../sync/relay-protocol.js'

export interface ClusterRoomsOptions {
  /** What `--redis` names: one Redis, a Cluster or a Sentinel group (target.ts). */
  readonly url: string
  /** Replicas that must confirm each append (`WAIT`) before it counts as stored; 0: the master's answer. */
  readonly waitReplicas?: number
  /** Names this node in metrics and in its stream entries. */
  readonly nodeId: string
  readonly prefix?: string
  readonly compactAfterBytes: number
  readonly maxDocumentBytes: number
  readonly maxPendingBytes: number
  readonly idleUnloadMs: number
  readonly onError: (err: unknown) => void
  /** Keep this node's copy of the owner pins in this directory (pin-copy.ts); in memory when null. */
  readonly pinsDir?: string | null
  /** Look this often for pools whose log no node compacted, and compact those without an append for as long. Default 60 s. */
  readonly sweepMs?: number
}

/** How long one node may hold a pool's compaction lease before another may take it. */
const LEASE_MS = 30_000
/** The reader blocks this long at most, so a pool loaded while it was blocked is read soon even if CLIENT UNBLOCK raced it. */
const BLOCK_MS = 1000
/** Seconds over which /metrics computes updates/s. */
const RATE_WINDOW = 10
const UNAVAILABLE_REASON = 'unavailable: the relay lost its storage (Redis); reconnect'
/** About how many pin changes the cluster's pins stream keeps (a node reads it as it goes; it scans the pins at start). */
const PINS_STREAM_LENGTH = 100_000
/** Pools compacted per sweep at most. */
const SWEEP_BATCH = 50
/** How long an append waits for its replicas (`WAIT`) before the node gives the pool up (its clients re-send). */
const WAIT_MS = 1000
/** On a Redis Cluster, every loaded pool's stream is also read this often, in case a notification was lost (a failover, a resubscribe). */
const CATCH_UP_MS = 1000

/** A connection to Redis, one server (directly or found through Sentinel) or a Cluster. */
export type RedisClient = Redis | Cluster

/**
 * The pools of one cluster node (RoomSource over Redis). Two connections to Redis: commands
 * (appends, loads, pins, compaction) and a reader that blocks in one XREAD over the streams of every
 * pool loaded here and hands each entry to its room. When Redis goes away, every client of the node
 * is closed with 1013 and every pool dropped (their documents may hold updates Redis never got;
 * the clients hold them too and re-send them when they reconnect); admissions are refused with 1013
 * until both connections are back, which ioredis retries for ever.
 */
export class ClusterRooms implements RoomSource {
  readonly #options: ClusterRoomsOptions
  readonly #cmd: RedisClient
  readonly #reader: RedisClient
  readonly #sub: RedisClient
  readonly #target: RedisTarget
  /** Redis Cluster: no command may name keys of two slots, so each pool's stream is read on its own (below). */
  readonly #isCluster: boolean
  /** Cluster only: rooms being read now, and whether another read was asked for meanwhile. */
  readonly #pulling = new Map<ClusterRoom, boolean>()
  readonly #catchUp: ReturnType<typeof setInterval> | null
  /** Loaded rooms by awareness channel, for the subscriber. */
  readonly #byChannel = new Map<string, ClusterRoom>()
  readonly #host: ClusterHost
  readonly #prefix: string
  readonly #cluster: ClusterKeys
  readonly #pins: PinCopy
  /** The last id of the cluster's pins stream this node has read. */
  #pinsCursor = '0-0'
  readonly #sweeper: ReturnType<typeof setInterval>
  #sweeping: Promise<void> = Promise.resolve()
  readonly #holds: RoomHolds<ClusterRoom>
  readonly counters = { updatesIn: 0, updatesOut: 0, outages: 0, compactions: 0 }
  /** ms between an entry's id (when Redis took it) and this node reading it, for the last batch read. */
  lagMs = 0
  #readerId: number | null = null
  #wake: (() => void) | null = null
  #readLoop: Promise<void> = Promise.resolve()
  #wasHealthy = false
  #closed = false
  /** Counter samples, one a second for the last RATE_WINDOW seconds: the updates/s of /metrics. */
  readonly #samples: Array<{ at: number; in: number; out: number }> = []
  readonly #sampler: ReturnType<typeof setInterval>

  private constructor(options: ClusterRoomsOptions, target: RedisTarget, cmd: RedisClient, reader: RedisClient, sub: RedisClient, pins: PinCopy) {
    this.#options = options
    this.#target = target
    this.#isCluster = target.kind === 'cluster'
    this.#cmd = cmd
    this.#reader = reader
    this.#sub = sub
    this.#pins = pins
    this.#prefix = options.prefix ?? DEFAULT_PREFIX
    this.#cluster = clusterKeys(this.#prefix)
    this.#holds = new RoomHolds<ClusterRoom>({
      idleUnloadMs: options.idleUnloadMs,
      load: (name) => ClusterRoom.load(name, poolKeys(this.#prefix, name), this.#host).catch((err: unknown) => this.#storageFailure(err)),
      onLoaded: (r) => {
        this.#byChannel.set(r.awarenessChannel, r)
        // On a Cluster the channel also says "the log grew": read what came between the load and the subscription.
        void this.#sub.subscribe(r.awarenessChannel).catch(() => undefined).then(() => this.#isCluster && this.#pull(r))
        this.#wakeReader()
      },
      onStale: (r) => void r.discard(UNAVAILABLE_REASON),
      unload: (room) => {
        this.#unsubscribe(room)
        return room.close()
      },
      assertUsable: () => this.#assertUsable(),
      onError: options.onError,
    })
    this.#host = {
      redis: cmd,
      instance: `${options.nodeId}/${randomBytes(6).toString('hex')}`,
      compactAfterBytes: options.compactAfterBytes,
      maxDocumentBytes: options.maxDocumentBytes,
      maxPendingBytes: options.maxPendingBytes,
      leaseMs: LEASE_MS,
      waitReplicas: options.waitReplicas ?? 0,
      waitMs: WAIT_MS,
      oneServer: !this.#isCluster,
      notifyAppend: this.#isCluster ? (room) => void this.#cmd.publish(room.awarenessChannel, Buffer.concat([Buffer.of(Buffer.byteLength(this.#host.instance)), Buffer.from(this.#host.instance)])).catch(() => undefined) : null,
      onError: options.onError,
      onAppendFailed: (room, err) => this.#appendFailed(room, err),
      publishAwareness: (room, update) => {
        const instance = Buffer.from(this.#host.instance)
        const message = Buffer.concat([Buffer.of(instance.length), instance, update])
        void this.#cmd.publish(room.awarenessChannel, message).catch(() => undefined)
      },
      counters: this.counters,
      compactKey: this.#cluster.compact,
      pinCopy: (pool) => this.#pins.get(pool),
      copyWins,
      notePin: (pool, pin) => void this.#pins.remember(pool, pin, options.onError),
      pinned: async (pool, pin) => {
        await this.#pins.remember(pool, pin, options.onError)
        await this.#cmd.xadd(this.#cluster.pins, 'MAXLEN', '~', PINS_STREAM_LENGTH, '*', 'pool', pool, 'pin', pin).catch(options.onError)
      },
      compactedFully: (room) => this.#compactedFully(room),
    }
    const sweepMs = options.sweepMs ?? 60_000
    this.#sweeper = setInterval(() => {
      this.#sweeping = this.#sweeping.then(() => this.#sweep(sweepMs)).catch(options.onError)
    }, sweepMs)
    this.#sweeper.unref()
    this.#sampler = setInterval(() => {
      this.#samples.push({ at: Date.now(), in: this.counters.updatesIn, out: this.counters.updatesOut })
      if (this.#samples.length > RATE_WINDOW + 1) this.#samples.shift()
    }, 1000)
    this.#sampler.unref()
    this.#catchUp = this.#isCluster ? setInterval(() => {
      for (const room of this.#holds.loaded()) this.#pull(room)
    }, CATCH_UP_MS) : null
    this.#catchUp?.unref()
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      const room = this.#byChannel.get(channel.toString())
      const length = message[0] ?? 0
      if (!room || message.subarray(1, 1 + length).toString() === this.#host.instance) return
      // Nothing after the instance: another node appended to the pool's log (Cluster only).
      if (message.length === 1 + length) this.#pull(room)
      else room.receiveAwareness(message.subarray(1 + length))
    })
    for (const conn of [cmd, reader, sub]) {
      conn.on('error', () => undefined) // reported once per outage below, not once per retry
      conn.on('close', () => this.#onStatus())
      conn.on('ready', () => this.#onStatus())
    }
  }

  /**
   * Connects both Redis connections (ioredis, an optional peer dependency) and starts the reader.
   * @throws MemweaveError STORAGE when Redis cannot be reached; CAPABILITY_NOT_SUPPORTED without ioredis
   */
  static async connect(options: ClusterRoomsOptions): Promise<ClusterRooms> {
    const target = parseRedisTarget(options.url)
    const ioredis = await loadPeer('the relay with --redis', ['ioredis'], () => import('ioredis'))
    const settings: RedisOptions = {
      lazyConnect: true,
      // Fail commands at once while disconnected instead of queueing them: the node closes its
      // clients with 1013 and they re-send everything on reconnect, so nothing is lost by failing.
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(100 * times, 1000),
      connectionName: `memweave-relay:${options.nodeId}`,
    }
    const started = { value: false }
    const cmd = openRedis(ioredis, target, settings, started)
    const reader = openRedis(ioredis, target, { ...settings, connectionName: `memweave-relay:${options.nodeId}:reader` }, started)
    // Subscribed channels are re-subscribed by ioredis after a reconnect (autoResubscribe).
    const sub = openRedis(ioredis, target, { ...settings, connectionName: `memweave-relay:${options.nodeId}:awareness` }, started)
    // Until the node is up, failures are the connect() rejection below; ioredis would print each retry otherwise.
    for (const conn of [cmd, reader, sub]) conn.on('error', () => undefined)
    try {
      await Promise.all([cmd.connect(), reader.connect(), sub.connect()])
    } catch (err) {
      cmd.disconnect()
      reader.disconnect()
      sub.disconnect()
      throw new MemweaveError(ErrorCode.STORAGE, `relay: cannot reach Redis at ${describeRedisTarget(target)}`, {}, { cause: err })
    }
    started.value = true
    let pins: PinCopy
    try {
      pins = await PinCopy.open(options.pinsDir ?? null, options.onError)
    } catch (err) {
      cmd.disconnect()
      reader.disconnect()
      sub.disconnect()
      throw err
    }
    const rooms = new ClusterRooms(options, target, cmd, reader, sub, pins)
    try {
      await rooms.#learnPins()
      await rooms.#restorePins()
    } catch (err) {
      await rooms.close().catch(() => undefined)
      throw new MemweaveError(ErrorCode.STORAGE, `relay: cannot read the owner pins from Redis at ${describeRedisTarget(target)}`, {}, { cause: err })
    }
    rooms.#wasHealthy = true
    rooms.#readLoop = rooms.#read()
    return rooms
  }

  get nodeId(): string {
    return this.#options.nodeId
  }

  /** Every connection to Redis is up. */
  get healthy(): boolean {
    return this.#cmd.status === 'ready' && this.#reader.status === 'ready' && this.#sub.status === 'ready'
  }

  get size(): number {
    return this.#holds.size
  }

  async pinOf(name: string): Promise<OwnerPin | null> {
    this.#assertUsable()
    const loaded = this.#holds.peek(name)
    if (loaded) return (await loaded).owner
    // Redis without a pin this node has a copy of lost it: the copy decides (loading puts it back).
    const found = (await this.#cmd.get(poolKeys(this.#prefix, name).owner).catch((err: unknown) => this.#storageFailure(err))) ?? ''
    const copy = this.#pins.get(name)
    return parsePin(copyWins(found, copy) ? copy! : found)
  }

  /**
   * Reads every pin Redis holds into this node's copy (at start: pins set while this node was
   * down), from where the cluster's pins stream then goes on. O(pools), once.
   */
  async #learnPins(): Promise<void> {
    const last = await this.#cmd.xrevrange(this.#cluster.pins, '+', '-', 'COUNT', 1)
    this.#pinsCursor = last[0]?.[0] ?? '0-0'
    const suffix = '}:owner'
    // SCAN walks one server: on a Cluster, each master's keys (its slots) are scanned in turn.
    const servers: Redis[] = isCluster(this.#cmd) ? this.#cmd.nodes('master') : [this.#cmd]
    for (const server of servers) {
      await whenReady(server)
      let cursor = '0'
      do {
        const [next, keys] = await server.scan(cursor, 'MATCH', `${this.#prefix}{*${suffix}`, 'COUNT', 1000)
        cursor = next
        if (keys.length === 0) continue
        const values = await this.#getMany(keys)
        for (const [i, key] of keys.entries()) {
          const pool = key.slice(this.#prefix.length + 1, -suffix.length)
          const pin = values[i]
          if (pin && ROOM_PATTERN.test(pool) && validPin(pin)) await this.#pins.remember(pool, pin, this.#options.onError)
        }
      } while (cursor !== '0')
    }
  }

  /** GET of many keys: one MGET on one server; on a Cluster, where their slots differ, one GET each (sent together). */
  #getMany(keys: readonly string[]): Promise<Array<string | null>> {
    if (isCluster(this.#cmd)) return Promise.all(keys.map((key) => this.#cmd.get(key)))
    return this.#cmd.mget(...keys)
  }

  /**
   * Puts back every pin of this node's copy that Redis lacks or holds on trust for someone else
   * (compare-and-set against the pin found, so a pin set meanwhile wins): at start and whenever Redis comes back, so that a node without a copy
   * (new, or without --pins-dir) finds them too. O(pools of the copy), in batches.
   */
  async #restorePins(): Promise<void> {
    const pools = this.#pins.pools()
    for (let i = 0; i < pools.length && !this.#closed; i += 500) {
      const batch = pools.slice(i, i + 500)
      const found = await this.#getMany(batch.map((p) => poolKeys(this.#prefix, p).owner))
      for (const [j, pool] of batch.entries()) {
        const pin = this.#pins.get(pool)
        if (!copyWins(found[j] ?? '', pin)) continue
        const keys = poolKeys(this.#prefix, pool)
        await this.#cmd.eval(PIN, 2, keys.owner, keys.log, found[j] ?? '', pin!)
      }
    }
  }

  /** A compaction left only its marker in the log: the pool leaves the compact set, unless an append came meanwhile (it marks after its entry). */
  async #compactedFully(room: ClusterRoom): Promise<void> {
    await this.#cmd.zrem(this.#cluster.compact, room.name)
    if ((await this.#cmd.xlen(room.streamKey)) > 1) await this.#cmd.zadd(this.#cluster.compact, Date.now(), room.name)
  }

  /**
   * Compacts pools marked in the compact set whose last append is older than `quietMs`: the node
   * that appended may have died before its idle compaction, and a hard delete's bytes would stay
   * in the stream until some node loaded and unloaded the pool again. Under each pool's lease, as
   * any compaction; a pool a live node holds is compacted by whichever node comes first.
   */
  async #sweep(quietMs: number): Promise<void> {
    if (this.#closed || !this.healthy) return
    const due = await this.#cmd.zrangebyscore(this.#cluster.compact, '-inf', Date.now() - quietMs, 'LIMIT', 0, SWEEP_BATCH)
    for (const name of due) {
      if (this.#closed || !this.healthy) return
      if (!ROOM_PATTERN.test(name)) {
        await this.#cmd.zrem(this.#cluster.compact, name)
        continue
      }
      // One node per pool and period loads it; the others skip it (the lease would refuse them anyway, after a load).
      const claimed = await this.#cmd.set(poolKeys(this.#prefix, name).sweep, this.#host.instance, 'PX', Math.max(quietMs, 5000), 'NX')
      if (claimed !== 'OK') continue
      const room = (await this.acquire(name)) as ClusterRoom
      try {
        await room.compact({ force: true })
      } finally {
        this.release(name, room)
      }
    }
  }

  acquire(name: string): Promise<ServedRoom> {
    return this.#holds.acquire(name)
  }

  release(name: string, room?: ServedRoom): void {
    this.#holds.release(name, room as ClusterRoom | undefined)
  }

  /** Metrics of this node, for `/metrics`. */
  stats(): Record<string, number> {
    const first = this.#samples[0]
    const seconds = first ? (Date.now() - first.at) / 1000 : 0
    const rate = (now: number, then: number | undefined): number => (seconds > 0 && then !== undefined ? Math.round(((now - then) / seconds) * 10) / 10 : 0)
    return {
      updates_in_per_second: rate(this.counters.updatesIn, first?.in),
      updates_out_per_second: rate(this.counters.updatesOut, first?.out),
      redis_up: this.healthy ? 1 : 0,
      redis_outages_total: this.counters.outages,
      updates_in_total: this.counters.updatesIn,
      updates_out_total: this.counters.updatesOut,
      stream_lag_ms: this.lagMs,
      compactions_total: this.counters.compactions,
    }
  }

  /** Compacts (under each pool's lease) and unloads every pool, then disconnects. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    clearInterval(this.#sampler)
    clearInterval(this.#sweeper)
    if (this.#catchUp) clearInterval(this.#catchUp)
    await this.#sweeping.catch(() => undefined)
    const closed = await this.#holds.close((room) => room.close()).then(() => null, (err: unknown) => ({ err }))
    this.#wakeReader()
    this.#reader.disconnect()
    this.#sub.disconnect()
    await this.#readLoop
    await this.#cmd.quit().catch(() => this.#cmd.disconnect())
    await this.#pins.close().catch(this.#options.onError)
    if (closed) throw closed.err
  }

  #assertUsable(): void {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'the relay is closing')
    if (!this.healthy) throw new Refusal(RelayCloseCode.UNAVAILABLE, UNAVAILABLE_REASON)
  }

  /** A Redis failure while admitting: 1013 when Redis is down (the client retries), else the error as is (1011). */
  #storageFailure(err: unknown): never {
    if (!this.healthy) throw new Refusal(RelayCloseCode.UNAVAILABLE, UNAVAILABLE_REASON)
    throw err
  }

  #onStatus(): void {
    const healthy = this.healthy
    if (healthy === this.#wasHealthy || this.#closed) return
    this.#wasHealthy = healthy
    if (healthy) {
      this.#readerId = null
      this.#wakeReader()
      // Redis may be back empty (restarted without its files): put back the pins it lost.
      void this.#restorePins().catch(this.#options.onError)
      return
    }
    this.counters.outages++
    this.#options.onError(new MemweaveError(ErrorCode.STORAGE, `relay: lost Redis at ${describeRedisTarget(this.#target)}; closing every connection (1013) until it is back`))
    for (const loading of this.#holds.dropAll()) {
      void loading.then((room) => {
        this.#unsubscribe(room)
        return room.discard(UNAVAILABLE_REASON)
      }, () => undefined)
    }
  }

  #appendFailed(room: ClusterRoom, err: unknown): void {
    if (!this.healthy) return // the outage handler drops every room
    // Redis refused this one append (out of memory, say): the room holds an update no other node
    // will see, so drop it; its clients reconnect and re-send.
    this.#options.onError(err)
    this.#holds.drop(room.name, room)
    this.#unsubscribe(room)
    void room.discard('internal: the relay could not store an update; reconnect')
  }

  /** Stops receiving a dropped room's awareness (unless a newer load of the pool took the channel). */
  #unsubscribe(room: ClusterRoom): void {
    if (this.#byChannel.get(room.awarenessChannel) !== room) return
    this.#byChannel.delete(room.awarenessChannel)
    if (this.#sub.status === 'ready') void this.#sub.unsubscribe(room.awarenessChannel).catch(() => undefined)
  }

  /** Entries of the cluster's pins stream: each node's pin changes, into this node's copy. */
  #takePins(items: StreamItems): void {
    for (const [id, fields] of items) {
      this.#pinsCursor = id.toString()
      let pool: string | undefined
      let pin: string | undefined
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const name = fields[i]!.toString()
        if (name === 'pool') pool = fields[i + 1]!.toString()
        if (name === 'pin') pin = fields[i + 1]!.toString()
      }
      if (pool !== undefined && pin !== undefined && ROOM_PATTERN.test(pool) && validPin(pin)) void this.#pins.remember(pool, pin, this.#options.onError)
    }
  }

  #wakeReader(): void {
    this.#wake?.()
    if (this.#readerId !== null && this.#cmd.status === 'ready') void this.#cmd.call('CLIENT', 'UNBLOCK', this.#readerId).catch(() => undefined)
  }

  /**
   * Cluster only: reads one pool's stream from the room's cursor (no BLOCK), again while more is
   * there or another read was asked for meanwhile. A command may not name keys of two slots, and a
   * blocking read per pool would hold a connection per pool, so on a Cluster a node reads a pool's
   * log when told it grew (the `:aw` channel, see `notifyAppend`) and every CATCH_UP_MS.
   */
  #pull(room: ClusterRoom): void {
    if (this.#pulling.has(room)) {
      this.#pulling.set(room, true)
      return
    }
    this.#pulling.set(room, false)
    void (async () => {
      try {
        for (;;) {
          if (this.#closed || !this.healthy || this.#holds.peek(room.name) === undefined) return
          this.#pulling.set(room, false)
          const reply = await this.#cmd.callBuffer('XREAD', 'COUNT', 1000, 'STREAMS', room.streamKey, room.cursor)
          let got = 0
          if (Array.isArray(reply)) {
            for (const [, items] of streamsOf(reply)) {
              got += items.length
              for (const [id, fields] of items) room.receive(id.toString(), fields)
              const last = items.at(-1)?.[0].toString()
              if (last) this.lagMs = Math.max(0, Date.now() - Number(last.split('-')[0]))
            }
          }
          if (got < 1000 && this.#pulling.get(room) !== true) return
        }
      } catch {
        // The pool's shard failed over or is unreachable: the next notification or catch-up reads again.
      } finally {
        this.#pulling.delete(room)
      }
    })()
  }

  /** The reader: one blocking XREAD over the streams of every loaded pool (the pins stream alone on a Cluster), entries handed to their rooms in order. */
  async #read(): Promise<void> {
    while (!this.#closed) {
      const rooms = this.#isCluster ? [] : this.#holds.loaded()
      if (!this.healthy) {
        await new Promise<void>((ok) => {
          const timer = setTimeout(ok, BLOCK_MS)
          this.#wake = () => {
            clearTimeout(timer)
            ok()
          }
        })
        this.#wake = null
        continue
      }
      let reply: unknown
      try {
        if (!this.#isCluster) this.#readerId ??= Number(await this.#reader.call('CLIENT', 'ID'))
        // The cluster's pins stream too, always: this node's copy of the pins follows every node's.
        reply = await this.#reader.callBuffer('XREAD', 'COUNT', 1000, 'BLOCK', BLOCK_MS, 'STREAMS', ...rooms.map((r) => r.streamKey), this.#cluster.pins, ...rooms.map((r) => r.cursor), this.#pinsCursor)
      } catch (err) {
        // Disconnected (the outage handler has dropped the rooms) or closing; the loop waits for ready.
        await new Promise((ok) => setTimeout(ok, 50))
        continue
      }
      if (!Array.isArray(reply)) continue
      const byKey = new Map(rooms.map((r) => [r.streamKey, r]))
      for (const [key, items] of streamsOf(reply)) {
        if (key.toString() === this.#cluster.pins) {
          this.#takePins(items)
          continue
        }
        const room = byKey.get(key.toString())
        if (!room) continue
        for (const [id, fields] of items) room.receive(id.toString(), fields)
        const last = items.at(-1)?.[0].toString()
        if (last) this.lagMs = Math.max(0, Date.now() - Number(last.split('-')[0]))
      }
    }
  }
}

type StreamItems = Array<[Buffer, Buffer[]]>

function validPin(json: string): boolean {
  try {
    return parsePin(json) !== null
  } catch {
    return false
  }
}

/** XREAD's reply as [key, entries] pairs: RESP2 sends a list of pairs, RESP3 a map (which ioredis flattens to key, value, key, value). */
function streamsOf(reply: unknown[]): Array<[Buffer, StreamItems]> {
  if (!Buffer.isBuffer(reply[0])) return reply as Array<[Buffer, StreamItems]>
  const pairs: Array<[Buffer, StreamItems]> = []
  for (let i = 0; i + 1 < reply.length; i += 2) pairs.push([reply[i] as Buffer, reply[i + 1] as StreamItems])
  return pairs
}

/**
 * Until `server` (one connection of a Cluster client, which has no offline queue) is ready; rejects
 * on its first error or end. The Cluster client is ready once it read the slots, before each
 * server's own connection is.
 */
function whenReady(server: Redis): Promise<void> {
  if (server.status === 'ready') return Promise.resolve()
  return new Promise((ok, fail) => {
    const done = (err?: unknown): void => {
      server.off('ready', done)
      server.off('error', done)
      server.off('end', ended)
      if (err === undefined) ok()
      else fail(err)
    }
    const ended = (): void => done(new Error('the connection ended'))
    server.once('ready', done)
    server.once('error', done)
    server.once('end', ended)
  })
}

function isCluster(client: RedisClient): client is Cluster {
  return (client as Cluster).isCluster === true
}

/**
 * One connection (a Cluster client holds one per server) to what `target` names, with the node's
 * settings: fail at once while disconnected (the node closes its clients, which re-send), retry
 * connecting for ever once `started`. Sentinel: ioredis asks the sentinels for the master, again after every loss.
 */
function openRedis(ioredis: Pick<typeof import('ioredis'), 'Redis' | 'Cluster'>, target: RedisTarget, settings: RedisOptions, started: { readonly value: boolean }): RedisClient {
  if (target.kind === 'single') return new ioredis.Redis(target.url, settings)
  const { username, password, tls } = target.auth
  const auth = { ...(username === undefined ? {} : { username }), ...(password === undefined ? {} : { password }), ...(tls ? { tls: {} } : {}) }
  if (target.kind === 'sentinel') {
    return new ioredis.Redis({
      ...settings, ...auth, sentinels: target.sentinels.map((s) => ({ host: s.host, port: s.port })), name: target.master, db: target.db,
      // Asked again for ever once the node has started; at start, sentinels that cannot be reached
      // fail the start (ioredis would otherwise retry inside connect() and never settle it).
      sentinelRetryStrategy: (times) => (started.value ? Math.min(100 * times, 1000) : null),
      // Not `failoverDetector`: in ioredis 6 its +switch-master handler disconnects a connection that
      // is reconnecting at that moment, which ends it for good (status `end`, no more retries).
      // Without it the node learns of a switch when the old master's connection drops, as here.
      ...(tls ? { enableTLSForSentinelMode: true } : {}),
    })
  }
  const options: ClusterOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    // As for sentinels: a Cluster that cannot be reached (or whose slots cannot be read) fails the start.
    clusterRetryStrategy: (times) => (started.value ? Math.min(100 * times, 1000) : null),
    // No ready check (CLUSTER INFO once the slots are read): ioredis sends it before the node's own
    // connection is ready, which without an offline queue fails it ("Connection is closed."), and
    // a failed ready check at start leaves connect() pending for ever (ioredis 6 drops the listener
    // that would reject it). That hung the node's start in about one start in five on a loaded
    // machine. A shard that is down answers CLUSTERDOWN, which is retried (retryDelayOnClusterDown).
    enableReadyCheck: false,
    // A command to a shard whose master just died fails (the node drops that pool; its clients re-send)
    // rather than waiting out the failover in a queue.
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 16,
    slotsRefreshTimeout: 2000,
    redisOptions: { ...settings, ...auth, lazyConnect: false },
  }
  return new ioredis.Cluster(target.nodes.map((n) => ({ host: n.host, port: n.port })), options)
}
