import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { Redis } from 'ioredis'

/**
 * A cluster of relay nodes as operators run it: `node bin/memweave.js relay --redis URL --node-id ID`
 * (the built CLI; `npm run build` first), each a child process that can be SIGKILLed, and a tiny
 * TCP round-robin proxy standing for the load balancer in front of them.
 */

const REPO = new URL('../..', import.meta.url).pathname
const CLI = join(REPO, 'bin', 'memweave.js')
const LISTENING = /memweave relay listening on (ws:\/\/\S+)/
const running = new Set<ChildProcess>()

/**
 * Joins a paused client socket to its connected upstream both ways (after `head`, bytes the proxy
 * already read from the client), each closing the other; the upstream is in `sockets` while open.
 */
export function splice(client: Socket, upstream: Socket, sockets: Set<Socket>, head?: Buffer): void {
  sockets.add(upstream)
  upstream.on('close', () => {
    sockets.delete(upstream)
    client.destroy()
  })
  client.on('close', () => upstream.destroy())
  if (head) upstream.write(head)
  client.pipe(upstream)
  upstream.pipe(client)
  client.resume()
}

export class NodeProcess {
  readonly url: string
  readonly id: string
  readonly #child: ChildProcess
  readonly #exited: Promise<number | null>
  readonly #stderr: string[]

  private constructor(id: string, child: ChildProcess, exited: Promise<number | null>, url: string, stderr: string[]) {
    this.id = id
    this.#child = child
    this.#exited = exited
    this.url = url
    this.#stderr = stderr
  }

  get port(): number {
    return Number(new URL(this.url).port)
  }

  get http(): string {
    return this.url.replace('ws://', 'http://')
  }

  /** `extra`: more flags (`--pins-dir D`, ...). */
  static async start(redisUrl: string, id: string, port = 0, extra: readonly string[] = []): Promise<NodeProcess> {
    const child = spawn(process.execPath, [CLI, 'relay', '--host', '127.0.0.1', '--port', String(port), '--redis', redisUrl, '--node-id', id, ...extra], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(child)
    const stderr: string[] = []
    child.stderr!.setEncoding('utf8').on('data', (t: string) => stderr.push(t))
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => {
      running.delete(child)
      ok(code)
    }))
    const url = await new Promise<string>((ok, fail) => {
      let out = ''
      child.stdout!.setEncoding('utf8').on('data', (t: string) => {
        out += t
        const m = LISTENING.exec(out)
        if (m) ok(m[1]!)
      })
      void exited.then((code) => fail(new Error(`node ${id} exited (${code}) before listening: ${stderr.join('')}`)))
    })
    return new NodeProcess(id, child, exited, url, stderr)
  }

  get stderr(): string {
    return this.#stderr.join('')
  }

  async kill(): Promise<void> {
    this.#child.kill('SIGKILL')
    await this.#exited
  }

  /** SIGTERM: clients closed with 1001, pools compacted under their leases, exit 0. */
  async stop(): Promise<number | null> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return this.#child.exitCode
    this.#child.kill('SIGTERM')
    return this.#exited
  }
}

export async function killAllNodes(): Promise<void> {
  await Promise.all([...running].map((child) => new Promise<void>((ok) => {
    child.once('exit', () => ok())
    child.kill('SIGKILL')
  })))
}

/**
 * The load balancer: each TCP connection goes to the next backend in turn; a backend that refuses
 * the connection (a dead node) is skipped for the next one. `served` counts connections per backend.
 */
export class RoundRobinProxy {
  readonly served = new Map<number, number>()
  readonly #server: Server
  readonly #sockets = new Set<Socket>()
  #backends: number[]
  #next = 0
  url = ''

  constructor(backends: number[]) {
    this.#backends = backends
    this.#server = createServer((client) => this.#route(client, 0))
  }

  async listen(): Promise<string> {
    await new Promise<void>((ok) => this.#server.listen(0, '127.0.0.1', () => ok()))
    this.url = `ws://127.0.0.1:${(this.#server.address() as { port: number }).port}`
    return this.url
  }

  #route(client: Socket, tries: number): void {
    client.pause()
    this.#sockets.add(client)
    client.on('close', () => this.#sockets.delete(client))
    client.on('error', () => undefined)
    if (tries >= this.#backends.length) return void client.destroy()
    const port = this.#backends[this.#next++ % this.#backends.length]!
    const upstream = tcpConnect(port, '127.0.0.1')
    upstream.once('error', () => {
      if (!upstream.readyState.startsWith('open')) return this.#route(client, tries + 1)
      client.destroy()
    })
    upstream.once('connect', () => {
      this.served.set(port, (this.served.get(port) ?? 0) + 1)
      splice(client, upstream, this.#sockets)
    })
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy()
    await new Promise<void>((ok) => this.#server.close(() => ok()))
  }
}

/**
 * Every byte Redis holds: for each key (`redis-cli --scan` would list the same), its DUMP, and the
 * value itself (XRANGE for streams, HGETALL for hashes, GET for strings), concatenated.
 */
export async function redisBytes(url: string): Promise<{ keys: string[]; bytes: Buffer }> {
  const redis = new Redis(url, { lazyConnect: true })
  await redis.connect()
  try {
    const keys: string[] = []
    let cursor = '0'
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000)
      cursor = next
      keys.push(...batch)
    } while (cursor !== '0')
    const parts: Buffer[] = []
    for (const key of keys.sort()) {
      const dump = await redis.dumpBuffer(key)
      if (dump) parts.push(dump)
      const type = await redis.type(key)
      if (type === 'stream') for (const [id, fields] of await redis.xrangeBuffer(key, '-', '+')) parts.push(id, ...fields)
      else if (type === 'hash') for (const [k, v] of Object.entries(await redis.hgetallBuffer(key))) parts.push(Buffer.from(k), v)
      else if (type === 'string') parts.push((await redis.getBuffer(key))!)
    }
    return { keys, bytes: Buffer.concat(parts) }
  } finally {
    redis.disconnect()
  }
}

export async function until<T>(what: string, probe: () => Promise<T> | T, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  let last: T
  for (;;) {
    last = await probe()
    if (ok(last)) return last
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
