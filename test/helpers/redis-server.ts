import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
  #child: ChildProcess | null = null
  #exited: Promise<void> = Promise.resolve()

  private constructor(port: number, dir: string, password: string | undefined) {
    this.port = port
    this.dir = dir
    this.password = password
  }

  get url(): string {
    return this.password === undefined ? `redis://127.0.0.1:${this.port}` : `redis://:${this.password}@127.0.0.1:${this.port}`
  }

  static async start(options: { readonly password?: string } = {}): Promise<RedisServer> {
    const dir = await mkdtemp(join(tmpdir(), 'memweave-redis-'))
    for (let attempt = 0; ; attempt++) {
      const server = new RedisServer(await freePort(), dir, options.password)
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
    const child = spawn('redis-server', [
      '--bind', '127.0.0.1', '--port', String(this.port), '--dir', this.dir,
      '--save', '', '--rdbcompression', 'no', '--appendonly', 'yes', '--appendfsync', 'always', '--daemonize', 'no', '--loglevel', 'warning',
      ...(this.password === undefined ? [] : ['--requirepass', this.password]),
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
