import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net'
import { splice } from './cluster-helpers.js'

/**
 * A pool-affine load balancer for the relay tests and the cluster bench (issue 33): what HAProxy's
 * `balance uri` + `hash-type consistent` or nginx's `hash $pool consistent` do, small enough to read.
 *
 * Each TCP connection's HTTP request line is read (nothing else is parsed or changed), its path's
 * last segment taken as the key (the pool id: memweave's client connects to `<relay URL>/<pool id>
 * ?token=...`, and the query, which holds the token, is not hashed), and the connection is piped to
 * the first healthy backend in the key's rendezvous order. Rendezvous (highest random weight)
 * hashing gives every key its own order of the backends: while the first is healthy every client of
 * a pool lands there; when it is down every client of that pool goes to the same second one; keys
 * whose first backend is healthy never move. A backend is down when its `/healthz` has not answered
 * 200 within a second twice running (checked every `checkMs`: HAProxy's `option httpchk GET /healthz`
 * with `fall 2`; one good answer brings it back, `rise 1`), or at once when it refuses a connection
 * (the next one in the order is then tried, as HAProxy's `option redispatch`). A slow answer under
 * load must not count as death: that would move a healthy node's pools.
 */

/** A backend: a stable name (what is hashed, as HAProxy hashes a server's id) and its port on 127.0.0.1. */
export interface Backend {
  readonly name: string
  readonly port: number
}

/** The score of a backend for a key: the first 48 bits of SHA-256(name ‖ 0 ‖ key). */
function score(name: string, key: string): number {
  return createHash('sha256').update(name).update('\0').update(key).digest().readUIntBE(0, 6)
}

/** The backends' names in the key's rendezvous order (best first); ties, which need equal names, keep input order. */
export function rendezvousOrder(key: string, names: readonly string[]): string[] {
  return names.map((name) => ({ name, s: score(name, key) })).sort((a, b) => b.s - a.s).map((x) => x.name)
}

/** The key a request is routed by: the last segment of its path, as the relay reads its room. */
export function routeKey(target: string): string {
  const path = target.split('?')[0]!
  return path.split('/').at(-1) ?? ''
}

/** Longest request line read before a connection is refused (a pool id is 32 characters, a token a few hundred). */
const MAX_HEAD = 16 * 1024

export class AffineProxy {
  /** Connections per backend name, and the backend each key last went to. */
  readonly served = new Map<string, number>()
  readonly routed = new Map<string, string>()
  readonly #backends: readonly Backend[]
  readonly #down = new Set<string>()
  readonly #failed = new Map<string, number>()
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  readonly #checkMs: number
  #timer: NodeJS.Timeout | null = null
  url = ''

  constructor(backends: readonly Backend[], options: { readonly checkMs?: number } = {}) {
    this.#backends = backends
    this.#checkMs = options.checkMs ?? 200
    this.#server = createServer((client) => this.#accept(client))
  }

  async listen(port = 0): Promise<string> {
    await new Promise<void>((ok, fail) => {
      this.#server.once('error', fail)
      this.#server.listen(port, '127.0.0.1', () => ok())
    })
    this.url = `ws://127.0.0.1:${(this.#server.address() as { port: number }).port}`
    // One check at a time: a slow round is not overlapped by the next.
    const loop = (): void => void this.#check().finally(() => {
      if (this.#timer) this.#timer = setTimeout(loop, this.#checkMs)
    })
    this.#timer = setTimeout(loop, this.#checkMs)
    return this.url
  }

  /** Names of the backends the last health check (or a refused connection) found down. */
  get down(): ReadonlySet<string> {
    return this.#down
  }

  async #check(): Promise<void> {
    await Promise.all(this.#backends.map(async (b) => {
      if (await healthy(b.port, 1000)) {
        this.#failed.delete(b.name)
        this.#down.delete(b.name)
      } else {
        const failed = (this.#failed.get(b.name) ?? 0) + 1
        this.#failed.set(b.name, failed)
        if (failed >= 2) this.#down.add(b.name)
      }
    }))
  }

  #accept(client: Socket): void {
    this.#sockets.add(client)
    client.on('close', () => this.#sockets.delete(client))
    client.on('error', () => undefined)
    let head = Buffer.alloc(0)
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk])
      const eol = head.indexOf('\r\n')
      if (eol < 0) {
        if (head.length > MAX_HEAD) client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return
      }
      client.off('data', onData)
      client.pause()
      const target = head.subarray(0, eol).toString('latin1').split(' ')[1] ?? '/'
      const key = routeKey(target)
      const order = rendezvousOrder(key, this.#backends.map((b) => b.name))
      this.#pipe(client, head, key, order.filter((n) => !this.#down.has(n)))
    }
    client.on('data', onData)
  }

  /** Pipes to the first of `candidates` that accepts the connection; one that refuses is marked down. */
  #pipe(client: Socket, head: Buffer, key: string, candidates: readonly string[]): void {
    const name = candidates[0]
    if (name === undefined) return void client.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    const backend = this.#backends.find((b) => b.name === name)!
    const upstream = tcpConnect(backend.port, '127.0.0.1')
    upstream.once('error', () => {
      if (upstream.connecting) {
        this.#down.add(name)
        return this.#pipe(client, head, key, candidates.slice(1))
      }
      client.destroy()
    })
    upstream.once('connect', () => {
      this.served.set(name, (this.served.get(name) ?? 0) + 1)
      this.routed.set(key, name)
      splice(client, upstream, this.#sockets, head)
    })
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    for (const s of this.#sockets) s.destroy()
    await new Promise<void>((ok) => this.#server.close(() => ok()))
  }
}

/** `GET /healthz` answered 200 within `ms`. */
function healthy(port: number, ms: number): Promise<boolean> {
  return new Promise((ok) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', timeout: ms, agent: false }, (res) => {
      res.resume()
      ok(res.statusCode === 200)
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => ok(false))
    req.end()
  })
}
