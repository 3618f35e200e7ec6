import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Redis } from 'ioredis'

/**
 * A real `redis-server` (Debian's package; .ci/run installs it) for the cluster tests: on 127.0.0.1,
 * a free port, a temporary directory, no RDB snapshots, AOF with `appendfsync always` (so a SIGKILL
 * loses nothing Redis acknowledged, and a restart on the same directory brings every key back).
 */
export class RedisServer {
  readonly port: number
  readonly dir: string
  /** Set when started with one: `--requirepass`, and in {@link url}. */
  readonly password: string | undefined
  /** More arguments after the usual ones (cluster mode, a replica's `--replicaof`); a sentinel's whole command line instead. */
  readonly #extra: readonly string[]
  readonly #sentinel: boolean
  #child: ChildProcess | null = null
  #exited: Promise<void> = Promise.resolve()

  private constructor(port: number, dir: string, password: string | undefined, extra: readonly string[] = [], sentinel = false) {
    this.port = port
    this.dir = dir
    this.password = password
    this.#extra = extra
    this.#sentinel = sentinel
  }

  get url(): string {
    return this.password === undefined ? `redis://127.0.0.1:${this.port}` : `redis://:${this.password}@127.0.0.1:${this.port}`
  }

  /**
   * `args`: more redis-server arguments (given the port picked). `sentinel`: a Sentinel (`redis-server
   * sentinel.conf --sentinel`) with these config lines, which Sentinel rewrites as it learns.
   */
  static async start(options: { readonly password?: string; readonly args?: (port: number) => Promise<readonly string[]>; readonly sentinel?: readonly string[] } = {}): Promise<RedisServer> {
    const dir = await mkdtemp(join(tmpdir(), 'memweave-redis-'))
    for (let attempt = 0; ; attempt++) {
      const port = await freePort()
      if (options.sentinel) await writeFile(join(dir, 'sentinel.conf'), [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, ...options.sentinel, ''].join('\n'))
      const server = new RedisServer(port, dir, options.password, (await options.args?.(port)) ?? [], options.sentinel !== undefined)
      try {
        await server.#spawn()
        return server
      } catch (err) {
        // Another process took the port between freePort() and redis binding it: try another.
        if (attempt >= 4) throw err
      }
    }
  }

  #spawn(): Promise<void> {
    const child = spawn('redis-server', this.#sentinel ? [join(this.dir, 'sentinel.conf'), '--sentinel', '--loglevel', 'warning'] : [
      '--bind', '127.0.0.1', '--port', String(this.port), '--dir', this.dir,
      '--save', '', '--rdbcompression', 'no', '--appendonly', 'yes', '--appendfsync', 'always', '--daemonize', 'no', '--loglevel', 'warning',
      ...(this.password === undefined ? [] : ['--requirepass', this.password]),
      ...this.#extra,
    ], { stdio: ['ignore', 'pipe', 'pipe'] })
    this.#child = child
    this.#exited = new Promise((ok) => child.once('exit', () => ok()))
    let out = ''
    child.stdout!.setEncoding('utf8').on('data', (t: string) => (out += t))
    child.stderr!.setEncoding('utf8').on('data', (t: string) => (out += t))
    const died = new Promise<never>((_ok, fail) => {
      child.once('exit', (code) => fail(new Error(`redis-server exited (${code}): ${out}`)))
      child.once('error', fail)
    })
    died.catch(() => undefined)
    // Ready when it answers PING (its log line is not a contract).
    return Promise.race([died, waitPong(this.port, this.password)])
  }

  /** SIGKILL: Redis dies without a clean shutdown (the AOF, fsync'd per write, keeps every key). */
  async kill(): Promise<void> {
    this.#child?.kill('SIGKILL')
    await this.#exited
    this.#child = null
  }

  /** SIGSTOP: the server stays connected but does nothing (a replica cut off, or far behind). */
  pause(): void {
    this.#child?.kill('SIGSTOP')
  }

  /** SIGCONT after {@link pause}. */
  resume(): void {
    this.#child?.kill('SIGCONT')
  }

  /** A new redis-server on the same port and directory (after kill or stop). */
  async restart(): Promise<void> {
    await this.#spawn()
  }

  /** SIGKILL, every file Redis kept deleted, and a new redis-server on the same port: Redis lost its data. */
  async restartEmpty(): Promise<void> {
    await this.kill()
    await rm(this.dir, { recursive: true, force: true })
    await mkdir(this.dir, { recursive: true })
    await this.#spawn()
  }

  /** Whether the process runs (not killed or stopped). */
  get running(): boolean {
    return this.#child !== null
  }

  async stop(): Promise<void> {
    this.#child?.kill('SIGTERM')
    await this.#exited
    this.#child = null
    await rm(this.dir, { recursive: true, force: true })
  }
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => ok(port))
    })
  })
}

async function waitPong(port: number, password: string | undefined): Promise<void> {
  for (;;) {
    const pong = await new Promise<boolean>((ok) => {
      const sock = connect(port, '127.0.0.1')
      sock.setEncoding('utf8')
      sock.once('error', () => ok(false))
      sock.once('connect', () => sock.write(password === undefined ? 'PING\r\n' : `AUTH ${password}\r\nPING\r\n`))
      // With AUTH, +OK may arrive in its own packet before +PONG.
      let got = ''
      sock.on('data', (d: string) => {
        got += d
        if (got.includes('+PONG') || got.includes('-')) {
          sock.destroy()
          ok(got.includes('+PONG'))
        }
      })
      sock.once('close', () => ok(false))
    })
    if (pong) return
    await new Promise((ok) => setTimeout(ok, 20))
  }
}

/**
 * A Redis Cluster on 127.0.0.1 for the failover tests: `masters` masters with one replica each
 * (`redis-cli --cluster create --cluster-replicas 1`), AOF fsync'd per write, a 1 s node timeout so
 * a replica takes over a killed master within about two seconds, and a replica allowed to take over
 * however long it was cut off (`cluster-replica-validity-factor 0`).
 */
export class RedisClusterGroup {
  readonly servers: readonly RedisServer[]

  private constructor(servers: readonly RedisServer[]) {
    this.servers = servers
  }

  /** What `--redis` takes: `redis-cluster://127.0.0.1:P,...` (every server a seed). */
  get url(): string {
    return `redis-cluster://${this.servers.map((s) => `127.0.0.1:${s.port}`).join(',')}`
  }

  /**
   * Starts the servers and creates the cluster; a creation that does not settle in 20 s (redis-cli
   * waiting for the nodes to join for ever, seen on a loaded machine) is tried once more on new servers.
   */
  static async start(masters = 3): Promise<RedisClusterGroup> {
    try {
      return await RedisClusterGroup.#startOnce(masters)
    } catch {
      return RedisClusterGroup.#startOnce(masters)
    }
  }

  static async #startOnce(masters: number): Promise<RedisClusterGroup> {
    const servers = await Promise.all(Array.from({ length: masters * 2 }, () => RedisServer.start({
      args: async () => ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '1000',
        '--cluster-port', String(await freePort()), '--cluster-replica-validity-factor', '0'],
    })))
    const group = new RedisClusterGroup(servers)
    try {
      await promisify(execFile)('redis-cli', ['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 20_000 })
      await group.settled(20_000)
    } catch (err) {
      await group.stop()
      throw err
    }
    return group
  }

  /** Until every running server says `cluster_state:ok` and every slot has a running master. */
  async settled(timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const states = await Promise.all(this.servers.filter((s) => s.running).map((s) => ask(s.port, ['CLUSTER', 'INFO']).then(String, () => '')))
      if (states.every((t) => t.includes('cluster_state:ok'))) return
      if (Date.now() > end) throw new Error(`the Redis Cluster did not settle: ${states.join(' | ')}`)
      await new Promise((ok) => setTimeout(ok, 100))
    }
  }

  /** The running server that is master of `key`'s slot, asked of a running server (CLUSTER SLOTS). */
  async masterOf(key: string): Promise<RedisServer> {
    const from = this.servers.find((s) => s.running)!
    const slot = Number(await ask(from.port, ['CLUSTER', 'KEYSLOT', key]))
    const ranges = (await ask(from.port, ['CLUSTER', 'SLOTS'])) as Array<[number, number, [string, number]]>
    const range = ranges.find(([lo, hi]) => slot >= lo && slot <= hi)!
    return this.servers.find((s) => s.port === Number(range[2][1]))!
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()))
  }
}

/**
 * One master, one replica and three sentinels (quorum 2, down after 1 s) on 127.0.0.1: what
 * `redis-sentinel://H:P,H:P,H:P/mymaster` names. AOF fsync'd per write on both data servers.
 */
export class RedisSentinelGroup {
  static readonly MASTER = 'mymaster'
  readonly data: readonly RedisServer[]
  readonly sentinels: readonly RedisServer[]

  private constructor(data: readonly RedisServer[], sentinels: readonly RedisServer[]) {
    this.data = data
    this.sentinels = sentinels
  }

  get url(): string {
    return `redis-sentinel://${this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${RedisSentinelGroup.MASTER}`
  }

  static async start(): Promise<RedisSentinelGroup> {
    const master = await RedisServer.start()
    const servers: RedisServer[] = [master]
    try {
      servers.push(await RedisServer.start({ args: async () => ['--replicaof', '127.0.0.1', String(master.port)] }))
      const sentinels = await Promise.all([0, 1, 2].map(() => RedisServer.start({
        sentinel: [`sentinel monitor ${RedisSentinelGroup.MASTER} 127.0.0.1 ${master.port} 2`, `sentinel down-after-milliseconds ${RedisSentinelGroup.MASTER} 1000`,
          `sentinel failover-timeout ${RedisSentinelGroup.MASTER} 3000`, `sentinel parallel-syncs ${RedisSentinelGroup.MASTER} 1`],
      })))
      servers.push(...sentinels)
      const group = new RedisSentinelGroup(servers.slice(0, 2), sentinels)
      // Ready when the master sees its replica online and every sentinel knows the replica.
      const end = Date.now() + 20_000
      for (;;) {
        const info = String(await ask(master.port, ['INFO', 'replication']))
        const known = await Promise.all(sentinels.map((s) => ask(s.port, ['SENTINEL', 'REPLICAS', RedisSentinelGroup.MASTER]).then((r) => (r as unknown[]).length, () => 0)))
        if (info.includes('connected_slaves:1') && info.includes('state=online') && known.every((n) => n >= 1)) return group
        if (Date.now() > end) throw new Error(`the Sentinel group did not settle: ${info}`)
        await new Promise((ok) => setTimeout(ok, 100))
      }
    } catch (err) {
      await Promise.all(servers.map((s) => s.stop()))
      throw err
    }
  }

  /** The data server the sentinels name as master now. */
  async master(): Promise<RedisServer> {
    const [, port] = (await ask(this.sentinels[0]!.port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', RedisSentinelGroup.MASTER])) as [string, string]
    return this.data.find((s) => s.port === Number(port))!
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, ...this.data].map((s) => s.stop()))
  }
}

/** One command to one server, on a connection of its own. */
async function ask(port: number, command: readonly string[]): Promise<unknown> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => undefined)
  try {
    await redis.connect()
    return await redis.call(command[0]!, ...command.slice(1))
  } finally {
    redis.disconnect()
  }
}
