import { mkdir } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { join, resolve } from 'node:path'
import type { WebSocket, WebSocketServer } from 'ws'
import { loadPeer } from '../core/peer.js'
import { ErrorCode, invalidArgument, isMemweaveError } from '../core/errors.js'
import { parseAgentDid } from '../core/identity.js'
import { acquireLock, type FileLock } from '../node/file-lock.js'
import { HttpLifecycle } from '../node/http-lifecycle.js'
import { assertGuardOptions, type RequestGuard } from '../node/request-guard.js'
import { Refusal, admit, type AdmissionPolicy } from './admission.js'
import { Connection } from './connection.js'
import { ConnectionRateLimiter, resolveLimits, type RelayLimits } from './limits.js'
import { ROOM_PATTERN, RelayCloseCode, TOKEN_PARAM } from '../sync/relay-protocol.js'
import { serveOps, type OpsState } from './ops.js'
import { RoomRegistry } from './rooms.js'
import type { RoomSource } from './room-source.js'
import { parseRedisTarget } from './redis/target.js'
import { hostname } from 'node:os'

export interface RelayOptions {
  /** Interface to bind. Default `127.0.0.1` (this machine only). */
  readonly host?: string
  /** TCP port; 0 picks a free one. Default 7412. */
  readonly port?: number
  /** Keep every pool in this directory (created 0700) so a restart keeps them; in memory when absent. */
  readonly dir?: string | null
  /** Caps per message, per document and per IP; see {@link RelayLimits}. */
  readonly limits?: Partial<RelayLimits>
  /**
   * Pool owners fixed by configuration (pool id to did:key). Other pools learn their owner from
   * the first valid token, or from a token proving ownership (docs/relay.md, "Owners").
   */
  readonly owners?: Readonly<Record<string, string>>
  /** `required`: only a token proving ownership may pin an unconfigured pool's owner. Default `optional`. */
  readonly ownerProof?: 'optional' | 'required'
  /** Compact a pool's log once this many bytes were appended since the last compaction (and more than its size). Default 4 MiB. */
  readonly compactAfterBytes?: number
  /** Unload a pool this long after its last client left (compacting it). Default 30 s. */
  readonly idleUnloadMs?: number
  /** Ping clients this often and cut those that missed the previous ping. Default 30 s. */
  readonly heartbeatMs?: number
  /** The clock, epoch ms (token expiry, rate windows). Default `Date.now`. */
  readonly now?: () => number
  /** Receives unexpected errors (storage failures, bugs). Default: one line on stderr. */
  readonly onError?: (err: unknown) => void
  /**
   * Run as one node of a cluster: pools live in this Redis (`redis://host:port[/db]`), Redis Cluster
   * (`redis-cluster://host:port,host:port`) or Sentinel group
   * (`redis-sentinel://host:port,host:port/master`), shared with every other node given the same;
   * no `dir`. Needs the optional package `ioredis`. docs/relay.md, "Several nodes" and "Redis
   * Cluster and Sentinel".
   * @throws MemweaveError INVALID_ARGUMENT (from the constructor) for a malformed form
   */
  readonly redis?: string | null
  /**
   * With `redis`: an update counts as stored only once this many replicas of its pool's Redis hold it
   * (`WAIT`, 1 s at most); an append they do not confirm in time drops the pool on this node, so its
   * clients reconnect and re-send. 0 (default): stored when the master answered. docs/relay.md,
   * "What an acknowledged update survives".
   */
  readonly redisWaitReplicas?: number
  /** This node's name in metrics and Redis client names. Default: `<hostname>-<pid>`. */
  readonly nodeId?: string
  /**
   * With `redis`: keep this node's copy of every pool's owner pin in this directory (created 0700),
   * so that pins survive Redis losing its data even across a restart of this node. Without it the
   * copy is in memory. docs/relay.md, "When Redis loses its data".
   */
  readonly pinsDir?: string | null
  /**
   * With `redis`: how often this node compacts pools whose log no node compacted, once they have
   * had no update for as long (their node may have died first). Default 60 s.
   */
  readonly compactSweepMs?: number
  /**
   * `Host` names the HTTP endpoints (`/healthz`, `/metrics`) answer to besides the bound address and
   * the loopback names (request-guard.ts); `*` for any. Websocket upgrades are not checked: the
   * pool token is their credential, and a page may open a websocket to any address anyway.
   */
  readonly allowedHosts?: readonly string[]
  /** Origins of web pages that may read `/healthz` and `/metrics`, or `*`. Default none. */
  readonly allowedOrigins?: readonly string[]
}

export interface RelayAddress {
  /** The websocket URL clients connect to (plus `/<pool>?token=...`), e.g. `ws://127.0.0.1:7412`. */
  readonly url: string
  readonly host: string
  readonly port: number
}

/** A y-websocket relay for memweave pools. */
export interface Relay {
  /** Binds and starts serving. @throws MemweaveError CONFLICT when another process serves `dir`; STORAGE; the listen error (EADDRINUSE). */
  listen(): Promise<RelayAddress>
  /** The address once listening, else null. */
  readonly address: RelayAddress | null
  /** Closes every connection (1001), stops listening, compacts and closes every pool. Idempotent. */
  close(): Promise<void>
}

const DEFAULT_PORT = 7412
const MiB = 1024 * 1024
/** How long close() waits for clients to answer the close handshake before cutting them. */
const CLOSE_GRACE_MS = 1000

class YRelay implements Relay {
  readonly #http: HttpLifecycle
  readonly #dir: string | null
  readonly #limits: RelayLimits
  readonly #policy: AdmissionPolicy
  readonly #now: () => number
  readonly #onError: (err: unknown) => void
  readonly #rateLimiter: ConnectionRateLimiter
  readonly #options: RelayOptions
  readonly #connections = new Set<Connection>()
  #wss: WebSocketServer | undefined
  #rooms: RoomSource | undefined
  #lock: FileLock | undefined
  #heartbeat: ReturnType<typeof setInterval> | undefined

  constructor(options: RelayOptions) {
    this.#options = options
    this.#http = new HttpLifecycle({
      name: 'the relay', host: options.host, port: options.port ?? DEFAULT_PORT, scheme: 'ws',
      // The HTTP answers are synchronous: once the websockets are closed, nothing is worth waiting for.
      guard: options, graceMs: 0, onError: (err) => this.#onError(err),
    })
    this.#dir = options.dir ? resolve(options.dir) : null
    if (options.redis && this.#dir !== null) throw invalidArgument('dir', 'a relay keeps its pools in Redis or in a directory, not both')
    if (options.redis !== undefined && options.redis !== null) parseRedisTarget(options.redis)
    const wait = options.redisWaitReplicas
    if (wait !== undefined && (!Number.isSafeInteger(wait) || wait < 0 || wait > 16)) throw invalidArgument('redisWaitReplicas', 'must be an integer 0-16')
    if (wait && !options.redis) throw invalidArgument('redisWaitReplicas', 'is for a cluster node (redis)')
    if (options.pinsDir && !options.redis) throw invalidArgument('pinsDir', 'is for a cluster node (redis); a single relay keeps pins in dir')
    if (options.nodeId !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(options.nodeId)) throw invalidArgument('nodeId', 'must be 1-64 of [A-Za-z0-9._-]')
    this.#limits = resolveLimits(options.limits)
    this.#now = options.now ?? Date.now
    const owners = new Map<string, string>()
    for (const [pool, did] of Object.entries(options.owners ?? {})) {
      if (!ROOM_PATTERN.test(pool)) throw invalidArgument('owners', `"${pool}" is not a pool id`)
      try {
        owners.set(pool, parseAgentDid(did))
      } catch {
        throw invalidArgument('owners', `the owner of ${pool} is not an Ed25519 did:key`)
      }
    }
    const ownerProof = options.ownerProof ?? 'optional'
    if (ownerProof !== 'optional' && ownerProof !== 'required') throw invalidArgument('ownerProof', 'must be "optional" or "required"')
    this.#policy = { owners, ownerProof, now: this.#now }
    for (const name of ['compactAfterBytes', 'idleUnloadMs', 'heartbeatMs', 'compactSweepMs'] as const) {
      const v = options[name]
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) throw invalidArgument(name, 'must be a positive integer')
    }
    assertGuardOptions(options)
    this.#rateLimiter = new ConnectionRateLimiter(this.#limits.connectionsPerWindow, this.#limits.connectionWindowMs, this.#now)
    this.#onError = options.onError ?? ((err) => process.stderr.write(`memweave relay: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`))
  }

  get address(): RelayAddress | null {
    return this.#http.address
  }

  listen(): Promise<RelayAddress> {
    return this.#http.listen(async (bind) => {
      try {
        if (this.#dir !== null) {
          await mkdir(join(this.#dir, 'rooms'), { recursive: true, mode: 0o700 })
          this.#lock = await acquireLock(join(this.#dir, 'LOCK'), `relay directory ${this.#dir}`)
        }
        const roomOptions = {
          compactAfterBytes: this.#options.compactAfterBytes ?? 4 * MiB,
          maxDocumentBytes: this.#limits.maxDocumentBytes,
          maxPendingBytes: this.#limits.maxPendingBytes,
          idleUnloadMs: this.#options.idleUnloadMs ?? 30_000,
          onError: this.#onError,
        }
        if (this.#options.redis) {
          // Loaded only here, so a single-process relay never imports the cluster code or ioredis.
          const { ClusterRooms } = await import('./redis/cluster-rooms.js')
          this.#rooms = await ClusterRooms.connect({
            ...roomOptions, url: this.#options.redis, nodeId: this.#options.nodeId ?? `${hostname()}-${process.pid}`,
            pinsDir: this.#options.pinsDir ? resolve(this.#options.pinsDir) : null,
            waitReplicas: this.#options.redisWaitReplicas ?? 0,
            ...(this.#options.compactSweepMs === undefined ? {} : { sweepMs: this.#options.compactSweepMs }),
          })
        } else {
          this.#rooms = new RoomRegistry({ ...roomOptions, dir: this.#dir === null ? null : join(this.#dir, 'rooms') })
        }
        // `ws` is an optional peer dependency: a browser app that installs memweave never gets it.
        const { WebSocketServer } = await loadPeer('the relay', ['ws'], () => import('ws'))
        this.#wss = new WebSocketServer({ noServer: true, maxPayload: this.#limits.maxMessageBytes, perMessageDeflate: false })
        const address = await bind({
          request: (req, res, guard) => this.#onRequest(req, res, guard),
          upgrade: (req, socket, head) => this.#onUpgrade(req, socket, head),
        })
        const heartbeatMs = this.#options.heartbeatMs ?? 30_000
        this.#heartbeat = setInterval(() => {
          for (const conn of this.#connections) conn.heartbeat()
        }, heartbeatMs)
        this.#heartbeat.unref()
        return address
      } catch (err) {
        await this.#lock?.release()
        this.#lock = undefined
        throw err
      }
    })
  }

  /** `/healthz` and `/metrics`; any other request is told to upgrade. */
  #onRequest(req: IncomingMessage, res: ServerResponse, guard: RequestGuard): void {
    const refusal = guard.refuse(req)
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
      return void res.end(`${refusal.message}\n`)
    }
    const cors = guard.corsOrigin(req)
    if (cors !== null) res.setHeader('access-control-allow-origin', cors).setHeader('vary', 'Origin')
    if (serveOps(req, res, () => this.#ops())) return
    res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket', connection: 'Upgrade' })
    res.end('memweave relay: connect with a y-websocket client to ws://HOST:PORT/<pool id>?token=<pool token>\n')
  }

  #onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined)
    if (this.#http.closing) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    const ip = req.socket.remoteAddress ?? 'unknown'
    const wait = this.#rateLimiter.take(ip)
    if (wait > 0) {
      // Refused before the upgrade: a flood costs no websocket, no token check, no room.
      socket.end(`HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${Math.ceil(wait / 1000)}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      return
    }
    this.#wss!.handleUpgrade(req, socket, head, (ws) => {
      void this.#accept(ws, req, ip).catch((err: unknown) => this.#onError(err))
    })
  }

  async #accept(ws: WebSocket, req: IncomingMessage, ip: string): Promise<void> {
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://relay')
    } catch {
      ws.close(RelayCloseCode.BAD_ROOM, 'bad-room: the request target is not a URL')
      return
    }
    // y-websocket connects to `${serverUrl}/${room}`: the room is the last path segment.
    const roomName = url.pathname.split('/').at(-1) ?? ''
    const conn = new Connection(ws, ip, roomName, {
      now: this.#now,
      maxEarlyBytes: this.#limits.maxMessageBytes,
      onError: this.#onError,
      onClosed: (c) => {
        this.#connections.delete(c)
        if (c.room) this.#rooms?.release(c.roomName, c.room)
      },
    })
    this.#connections.add(conn)
    if (!ROOM_PATTERN.test(roomName)) return conn.close(RelayCloseCode.BAD_ROOM, 'bad-room: the room must be a pool id ([a-z0-9_-]{1,128})')
    let admitted
    try {
      admitted = await admit(url.searchParams.get(TOKEN_PARAM), roomName, this.#rooms!, this.#policy)
    } catch (err) {
      if (err instanceof Refusal) return conn.close(err.code, err.message)
      if (isMemweaveError(err) && err.code === ErrorCode.CLOSED) return conn.close(RelayCloseCode.GOING_AWAY, 'going-away: the relay is shutting down')
      this.#onError(err)
      return conn.close(RelayCloseCode.INTERNAL, 'internal: the relay cannot open this pool')
    }
    const { room, grant } = admitted
    const pin = room.owner
    if (conn.closed || (pin && !this.#policy.owners.has(roomName) && pin.owner !== grant.owner)) {
      // Closed during admission, or the room changed hands meanwhile.
      this.#rooms!.release(roomName)
      return conn.close(RelayCloseCode.FORBIDDEN, "wrong-owner: the token is not issued by this pool's owner")
    }
    conn.admit(room, grant)
  }

  /** What `/healthz` and `/metrics` report. */
  #ops(): OpsState {
    const rooms = this.#rooms as (RoomSource & { healthy?: boolean; nodeId?: string; stats?: () => Record<string, number> }) | undefined
    return {
      ready: !this.#http.closing && rooms !== undefined && rooms.healthy !== false,
      closing: this.#http.closing,
      node: rooms?.nodeId ?? null,
      metrics: {
        connections: this.#connections.size,
        pools_loaded: rooms?.size ?? 0,
        ...rooms?.stats?.(),
        process_resident_memory_bytes: process.memoryUsage.rss(),
        process_heap_used_bytes: process.memoryUsage().heapUsed,
      },
    }
  }

  close(): Promise<void> {
    let failure: unknown
    return this.#http.close({
      drain: async () => {
        clearInterval(this.#heartbeat)
        for (const conn of this.#connections) conn.close(RelayCloseCode.GOING_AWAY, 'going-away: the relay is shutting down')
        const sockets = [...this.#connections].map((c) => c.ws)
        try {
          await this.#rooms?.close()
        } catch (err) {
          failure = err
        }
        await waitClosed(sockets, CLOSE_GRACE_MS)
        this.#wss?.close()
      },
      after: async () => {
        await this.#lock?.release()
        if (failure !== undefined) throw failure
      },
    })
  }
}

/** Waits for sockets to finish their close handshake, cutting those still open after `graceMs`. */
async function waitClosed(sockets: readonly WebSocket[], graceMs: number): Promise<void> {
  const open = sockets.filter((ws) => ws.readyState !== ws.CLOSED)
  if (open.length === 0) return
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([
    Promise.all(open.map((ws) => new Promise<void>((ok) => ws.once('close', () => ok())))),
    new Promise<void>((ok) => (timer = setTimeout(ok, graceMs))),
  ])
  clearTimeout(timer)
  for (const ws of open) if (ws.readyState !== ws.CLOSED) ws.terminate()
}

/**
 * Creates a memweave relay: the y-websocket protocol (any y-websocket client works), one room per
 * pool id, each pool's updates in an fsync'd append log under `dir`, compacted past a threshold,
 * when a pool goes idle and on close. Clients connect to `ws://HOST:PORT/<pool id>?token=<token>`
 * with a pool token signed by the pool owner (`createPoolToken`); a read-only member's document
 * changes are refused and never stored; frames, documents and connection rates are capped;
 * a malformed frame closes its own connection only. Node only. Protocol and decisions: docs/relay.md.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a bad port, limit or owner.
 * @example
 * import { createRelay } from 'memweave/node'
 * const relay = createRelay({ port: 0, dir: './relay-data' })
 * const { url } = await relay.listen() // 'ws://127.0.0.1:54321'
 * // ... later
 * await relay.close()
 */
export function createRelay(options: RelayOptions = {}): Relay {
  return new YRelay(options)
}
