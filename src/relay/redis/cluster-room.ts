import { randomBytes } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as Y from 'yjs'
import { ErrorCode, MemweaveError } from '../../core/errors.js'
import { parseAgentDid } from '../../core/identity.js'
import { Refusal } from '../admission.js'
import type { OwnerPin } from '../owner-pin.js'
import { formatTooNew, isTooNew } from '../../core/format-version.js'
import { RelayCloseCode } from '../../sync/relay-protocol.js'
import { withoutTooDeep } from '../../sync/update-depth.js'
import { Room, type Peer } from '../room.js'
import type { ServedRoom } from '../room-source.js'
import { idAfter, nextId, type PoolKeys } from './keys.js'
import { COMPACT, PIN, RELEASE } from './scripts.js'

/** The origin of updates that came from Redis (the snapshot, other nodes' log entries): forwarded to this node's peers, never appended again. */
export const REMOTE = Symbol('redis')

/** What a cluster room needs from its node. */
export interface ClusterHost {
  /** One server (directly or through Sentinel) or a Cluster: every command here names keys of this pool's slot only. */
  readonly redis: Redis | Cluster
  /** This process's instance id (`<node id>/<random>`): its own log entries are skipped when read back. */
  readonly instance: string
  readonly compactAfterBytes: number
  readonly maxDocumentBytes: number
  /** Content waiting for missing dependencies a room may hold (relay/limits.ts). */
  readonly maxPendingBytes: number
  readonly leaseMs: number
  /** Replicas that must confirm an append (`WAIT`, within `waitMs`) before it counts as stored; 0: none. */
  readonly waitReplicas: number
  readonly waitMs: number
  /**
   * The pool's log and the compact set live on one server, reached over one connection (one Redis,
   * or a Sentinel group's master; not a Cluster, where they sit in different slots): Redis runs
   * commands in the order one connection sends them, so an append sends its mark at once.
   */
  readonly oneServer: boolean
  /** Cluster only: tells the other nodes this pool's log grew (they cannot block on every pool's stream at once). */
  readonly notifyAppend: ((room: ClusterRoom) => void) | null
  readonly onError: (err: unknown) => void
  /** An append failed: the room now holds an update Redis lacks, so the node drops it (its peers reconnect and re-send). */
  readonly onAppendFailed: (room: ClusterRoom, err: unknown) => void
  /** Sends an awareness update of this node's clients to the other nodes (Redis pub/sub: presence is never stored). */
  readonly publishAwareness: (room: ClusterRoom, update: Uint8Array) => void
  readonly counters: { updatesIn: number; updatesOut: number; compactions: number }
  /** The cluster-wide sorted set of pools with unfolded log entries (keys.ts, `compact`). */
  readonly compactKey: string
  /** This node's copy of the pins (pin-copy.ts): the pin it last saw for a pool, or null. */
  readonly pinCopy: (pool: string) => string | null
  /** Whether the copy must replace the pin found in Redis (pin-copy.ts, copyWins). */
  readonly copyWins: (found: string, copy: string | null) => boolean
  /** A pin this room saw in Redis (loaded, adopted): noted in the node's copy. */
  readonly notePin: (pool: string, pin: string) => void
  /** A pin this room set: noted in the copy (on disk before it resolves) and told to every node. */
  readonly pinned: (pool: string, pin: string) => Promise<void>
  /** A compaction left nothing of the old log: the pool may leave the `compact` set. */
  readonly compactedFully: (room: ClusterRoom) => Promise<void>
}

/**
 * One pool on one cluster node: the single-process `Room` in memory (document, awareness, peers,
 * size cap, forwarding to local peers) with Redis as its storage and fan-out. A local update is
 * forwarded to this node's peers at once (by the inner room) and appended to the pool's stream;
 * entries other nodes append arrive through the node's reader (`receive`) and are applied with
 * origin REMOTE, so they reach local peers and are not appended again. Nothing here outlives the
 * process: the document is rebuilt from the snapshot and the stream whenever the room is loaded.
 */
export class ClusterRoom implements ServedRoom {
  readonly #room: Room
  readonly #keys: PoolKeys
  readonly #host: ClusterHost
  /** The last stream id this room has taken in (read back, applied, or loaded). */
  #cursor: string
  /** The `upto` of the last snapshot merged into the document: compaction's compare-and-set. */
  #snapUpto: string
  #ownerJson: string
  /** Bytes of updates since the last snapshot, and the snapshot's size: when to compact. */
  #appended = 0
  #baseBytes: number
  /** An update (local or remote) arrived since the last snapshot this room wrote or merged. */
  #dirty = false
  #compacting: Promise<unknown> | null = null
  #closed = false

  private constructor(room: Room, keys: PoolKeys, host: ClusterHost, cursor: string, snapUpto: string, ownerJson: string, baseBytes: number) {
    this.#room = room
    this.#keys = keys
    this.#host = host
    this.#cursor = cursor
    this.#snapUpto = snapUpto
    this.#ownerJson = ownerJson
    this.#baseBytes = baseBytes
    room.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) this.#append(update)
    })
    room.awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      if (origin === REMOTE || this.#closed) return
      const changed = [...added, ...updated, ...removed]
      if (changed.length > 0) host.publishAwareness(this, awarenessProtocol.encodeAwarenessUpdate(room.awareness, changed))
    })
  }

  /** An awareness update from another node's clients: applied and forwarded to this node's clients (room.ts does both). */
  receiveAwareness(update: Uint8Array): void {
    if (this.#closed) return
    try {
      awarenessProtocol.applyAwarenessUpdate(this.#room.awareness, update, REMOTE)
    } catch (err) {
      this.#host.onError(err)
    }
  }

  get awarenessChannel(): string {
    return this.#keys.awareness
  }

  /**
   * Loads a pool: its snapshot, its whole stream and its owner pin in one MULTI, so no compaction
   * can trim entries between reading the snapshot and reading the entries after it.
   * @throws whatever Redis throws
   */
  static async load(name: string, keys: PoolKeys, host: ClusterHost): Promise<ClusterRoom> {
    const results = await host.redis.multi().hgetallBuffer(keys.snap).xrangeBuffer(keys.log, '-', '+').get(keys.owner).exec()
    if (!results) throw new Error('the load transaction was aborted')
    for (const [err] of results) if (err) throw err
    const snap = results[0]![1] as Record<string, Buffer>
    const entries = results[1]![1] as Array<[Buffer, Buffer[]]>
    // Issue 28: a snapshot a newer relay wrote names its format in `v` (absent: 1); refused unread.
    const snapVersion = snap['v'] === undefined ? 1 : Number(snap['v'].toString())
    if (isTooNew('redisSnapshot', snapVersion)) throw formatTooNew('redisSnapshot', snapVersion, keys.snap)
    let ownerJson = (results[2]![1] as string | null) ?? ''
    const copied = host.pinCopy(name)
    if (host.copyWins(ownerJson, copied)) {
      // Redis lost this pool's pin (it restarted empty, say), or a token took it on trust since:
      // put this node's copy back rather than let the next token's issuer claim the pool.
      const result = String(await host.redis.eval(PIN, 2, keys.owner, keys.log, ownerJson, copied!))
      ownerJson = result === 'ok' ? copied! : result
    }
    if (ownerJson !== '') host.notePin(name, ownerJson)
    // The inner room never compacts (it has no log): the cluster compaction below replaces it.
    const room = await Room.open(name, { dir: null, compactAfterBytes: Number.MAX_SAFE_INTEGER, maxDocumentBytes: host.maxDocumentBytes, maxPendingBytes: host.maxPendingBytes, onError: host.onError })
    const snapUpto = snap['upto']?.toString() ?? '0-0'
    let cursor = snapUpto
    const base = snap['s']?.length ?? 0
    // A value nested deeper than clients decode, written by a node older than the relay's depth
    // check or put straight into Redis, is garbage-collected (update-depth.ts) as the file backend
    // does on load: applied as it is, it would be served to every client that joins.
    let deep = 0
    const safe = (update: Uint8Array): Uint8Array => {
      const checked = withoutTooDeep(update)
      deep += checked.dropped
      return checked.update
    }
    room.doc.transact(() => {
      if (snap['s']) Y.applyUpdate(room.doc, safe(snap['s']), REMOTE)
      for (const [id, fields] of entries) {
        cursor = id.toString()
        if (!idAfter(cursor, snapUpto)) continue
        const update = field(fields, 'u')
        if (update) Y.applyUpdate(room.doc, safe(update), REMOTE)
      }
    }, REMOTE)
    if (deep > 0) process.stderr.write(`memweave relay: pool ${name}: garbage-collected ${deep} value(s) in Redis nested more than the clients can decode\n`)
    const pin = parsePin(ownerJson)
    if (pin) await room.pin(pin)
    const cr = new ClusterRoom(room, keys, host, cursor, snapUpto, ownerJson, base)
    cr.#appended = entries.reduce((n, [, f]) => n + (field(f, 'u')?.length ?? 0), 0)
    cr.#dirty = cr.#appended > 0
    return cr
  }

  get name(): string {
    return this.#room.name
  }
  get doc(): Y.Doc {
    return this.#room.doc
  }
  get owner(): OwnerPin | null {
    return this.#room.owner
  }
  get peerCount(): number {
    return this.#room.peerCount
  }
  get cursor(): string {
    return this.#cursor
  }
  get streamKey(): string {
    return this.#keys.log
  }
  peers(): Peer[] {
    return this.#room.peers()
  }
  join(peer: Peer): void {
    this.#room.join(peer)
  }
  leave(peer: Peer): void {
    this.#room.leave(peer)
  }
  stepTwo(stateVector: Uint8Array): Uint8Array {
    return this.#room.stepTwo(stateVector)
  }
  awarenessStates(): Uint8Array | null {
    return this.#room.awarenessStates()
  }
  applyUpdate(update: Uint8Array, origin: Peer): 'applied' | 'too-large' | 'too-much-pending' {
    return this.#room.applyUpdate(update, origin)
  }
  applyAwareness(update: Uint8Array, origin: Peer): void {
    this.#room.applyAwareness(update, origin)
  }

  /**
   * Pins the owner in Redis with a compare-and-set against the pin this node last saw, so two nodes
   * admitting first tokens of different issuers cannot both win. When another node changed the pin
   * meanwhile, the decision is taken again against the pin found (admission.ts's rules).
   * @throws Refusal 4403 wrong-owner when the pin found belongs to someone else and this token cannot take it over
   */
  async pin(pin: OwnerPin): Promise<void> {
    const next = JSON.stringify({ v: 1, owner: pin.owner, source: pin.source, at: pin.at })
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = String(await this.#host.redis.eval(PIN, 2, this.#keys.owner, this.#keys.log, this.#ownerJson, next))
      if (result === 'ok') {
        await this.#host.pinned(this.name, next)
        return this.#adopt(next)
      }
      await this.#adopt(result)
      const found = this.owner
      if (!found) continue
      // Same owner already pinned: fine, unless this token upgrades a trusted pin to a proven one.
      if (found.owner === pin.owner && !(found.source === 'tofu' && pin.source === 'proof')) return
      // Another owner: only a proof takes over a pin taken on trust.
      if (found.owner !== pin.owner && !(found.source === 'tofu' && pin.source === 'proof')) break
    }
    throw new Refusal(RelayCloseCode.FORBIDDEN, "wrong-owner: the token is not issued by this pool's owner")
  }

  async #adopt(json: string): Promise<void> {
    this.#ownerJson = json
    const pin = parsePin(json)
    if (!pin) return
    this.#host.notePin(this.name, json)
    const before = this.#room.owner
    await this.#room.pin(pin)
    if (before && before.owner !== pin.owner) {
      // Re-pinned by a proof on some node: everyone admitted here under the old owner goes (as admission.ts does locally).
      for (const peer of this.#room.peers()) if (peer.grant.owner !== pin.owner) peer.close(RelayCloseCode.FORBIDDEN, 'owner-changed: a token proved another owner for this pool')
    }
  }

  /** Takes in one stream entry read by the node's reader (in stream order). */
  receive(id: string, fields: Buffer[]): void {
    if (this.#closed || !idAfter(id, this.#cursor)) return
    this.#cursor = id
    const own = field(fields, 'n')?.toString() === this.#host.instance
    const update = field(fields, 'u')
    if (update) {
      if (own) return
      this.#appended += update.length
      this.#dirty = true
      this.#host.counters.updatesOut++
      try {
        // An older node (before the relay's depth check) may have appended a too-deep value.
        Y.applyUpdate(this.#room.doc, withoutTooDeep(update).update, REMOTE)
      } catch (err) {
        // Another node validated it before appending; a failure here is a bug, not a client's fault.
        this.#host.onError(err)
      }
      this.#maybeCompact()
      return
    }
    const pin = field(fields, 'p')
    if (pin) return void this.#adopt(pin.toString()).catch(this.#host.onError)
    const upto = field(fields, 'c')?.toString()
    if (upto !== undefined && upto !== this.#snapUpto) void this.#mergeSnapshot().catch(this.#host.onError)
  }

  /**
   * Another node compacted: merge its snapshot. This node's reader may have lagged behind entries
   * that compaction trimmed, and the snapshot holds them; merging is idempotent otherwise.
   */
  async #mergeSnapshot(): Promise<void> {
    const snap = await this.#host.redis.hgetallBuffer(this.#keys.snap)
    if (this.#closed || !snap['s'] || !snap['upto']) return
    Y.applyUpdate(this.#room.doc, withoutTooDeep(snap['s']).update, REMOTE)
    this.#snapUpto = snap['upto'].toString()
    this.#baseBytes = snap['s'].length
    this.#appended = 0
  }

  #append(update: Uint8Array): void {
    if (this.#closed) return
    this.#dirty = true
    this.#appended += update.length
    this.#host.counters.updatesIn++
    const bytes = Buffer.from(update.buffer, update.byteOffset, update.byteLength)
    const host = this.#host
    // The pool's mark in the compact set goes after the entry, so that if this node dies before its
    // idle compaction another node folds the update in (a hard delete must not stay in the stream);
    // after it, as a compaction that clears the mark checks the log again.
    const mark = (): void => void host.redis.zadd(host.compactKey, Date.now(), this.name).catch(() => undefined)
    if (host.waitReplicas === 0) {
      // One command, no pipeline object per update. One connection to one server runs commands in
      // the order sent, so there the mark goes at once (one round trip; a mark whose entry failed
      // only has the sweep fold a clean pool); on a Cluster it lives in another slot, on another
      // server, where sent together it could run first: it waits for the entry.
      const entry = host.redis.call('XADD', this.#keys.log, '*', 'n', host.instance, 'u', bytes)
      if (host.oneServer) mark()
      entry.then(() => {
        host.notifyAppend?.(this)
        if (!host.oneServer) mark()
      }, (err: unknown) => host.onAppendFailed(this, err))
      return this.#maybeCompact()
    }
    // The entry, then (same connection, same server: WAIT counts this connection's writes) the
    // replicas' confirmation; only then the mark.
    const append = host.redis.pipeline().call('XADD', this.#keys.log, '*', 'n', host.instance, 'u', bytes).call('WAIT', host.waitReplicas, host.waitMs)
    append.exec()
      .then((results) => {
        const err = results?.find(([e]) => e)?.[0]
        if (err) return host.onAppendFailed(this, err)
        const replicas = Number(results?.[1]?.[1] ?? 0)
        if (replicas < host.waitReplicas) {
          // The master has it, but a failover now could lose it: not stored. Dropping the pool makes
          // its clients reconnect and re-send, whichever server is master by then.
          return host.onAppendFailed(this, new MemweaveError(ErrorCode.STORAGE, `relay: pool ${this.name}: an update reached ${replicas} of the ${host.waitReplicas} Redis replica(s) asked for within ${host.waitMs} ms; the pool's clients will re-send it`))
        }
        host.notifyAppend?.(this)
        mark()
      }, (err: unknown) => host.onAppendFailed(this, err))
    this.#maybeCompact()
  }

  #maybeCompact(): void {
    if (this.#compacting || this.#closed) return
    if (this.#appended > this.#host.compactAfterBytes && this.#appended > this.#baseBytes) {
      // Every node sees every byte, so all of them get here; the lease lets one compact, the others start counting again.
      this.#appended = 0
      this.compact().catch(this.#host.onError)
    }
  }

  /**
   * Folds the document (gc on: deleted content gone) into a new snapshot under the pool's lease
   * and trims the stream (scripts.ts, COMPACT). Returns what happened; only 'ok' changed Redis.
   */
  compact({ force = false }: { readonly force?: boolean } = {}): Promise<'ok' | 'clean' | 'lease' | 'stale'> {
    const run = (async (): Promise<'ok' | 'clean' | 'lease' | 'stale'> => {
      if (force) await this.#compacting?.catch(() => undefined)
      const upto = this.#cursor
      // Forced (the sweep of pools marked in the compact set): even a log with no update since the
      // snapshot is folded, as a partly trimmed stream node may still hold a deleted value's bytes.
      if ((!this.#dirty && !force) || !idAfter(upto, this.#snapUpto)) return 'clean'
      const redis = this.#host.redis
      const token = `${this.#host.instance}:${randomBytes(8).toString('hex')}`
      if ((await redis.set(this.#keys.lease, token, 'PX', this.#host.leaseMs, 'NX')) !== 'OK') return 'lease'
      const state = Y.encodeStateAsUpdate(this.#room.doc)
      const appendedBefore = this.#appended
      const result = String(await redis.eval(COMPACT, 3, this.#keys.snap, this.#keys.log, this.#keys.lease, token, Buffer.from(state), upto, this.#snapUpto, nextId(upto)))
      if (result !== 'ok' && result !== 'full') {
        await redis.eval(RELEASE, 1, this.#keys.lease, token).catch(() => undefined)
        return result === 'stale' ? 'stale' : 'lease'
      }
      if (result === 'full') await this.#host.compactedFully(this)
      this.#host.counters.compactions++
      this.#snapUpto = upto
      this.#baseBytes = state.length
      // Updates that arrived during the script are in the stream after `upto`: still dirty.
      this.#dirty = this.#cursor !== upto || this.#appended !== appendedBefore
      this.#appended = 0
      return 'ok'
    })()
    this.#compacting = run.finally(() => (this.#compacting = null))
    return run
  }

  /** Compacts when the log has anything the snapshot lacks (best effort: a lost lease or a stale view skips it), then frees the document. */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.#compacting?.catch(() => undefined)
    try {
      await this.compact()
    } catch (err) {
      this.#host.onError(err)
    }
    this.#closed = true
    await this.#room.close()
  }

  /** Redis is gone: close every peer with 1013 and free the document without touching Redis. */
  async discard(reason: string): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    for (const peer of this.#room.peers()) peer.close(RelayCloseCode.UNAVAILABLE, reason)
    await this.#room.close()
  }
}

/** A field of a stream entry (`[name, value, name, value, ...]`). */
function field(fields: Buffer[], name: string): Buffer | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]!.toString() === name) return fields[i + 1]
  return undefined
}

function parsePin(json: string): OwnerPin | null {
  if (!json) return null
  const pin = JSON.parse(json) as { v?: unknown; owner?: unknown; source?: unknown; at?: unknown }
  if (isTooNew('ownerPin', pin.v)) throw formatTooNew('ownerPin', pin.v, 'the Redis owner pin')
  if (pin.v !== 1 || (pin.source !== 'proof' && pin.source !== 'tofu') || typeof pin.at !== 'number') throw new Error('not a relay owner pin')
  return { owner: parseAgentDid(pin.owner as string), source: pin.source, at: pin.at }
}

export { parsePin }
