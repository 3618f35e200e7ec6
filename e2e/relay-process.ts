import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The relay as the devices meet it in production: `node bin/memweave.js relay` (the built CLI) in
 * a child process of its own, on loopback, with its pools on disk. A child process is the point:
 * it can be SIGKILLed mid-write and restarted on the same port and directory, which an in-process
 * relay cannot show.
 */

const REPO = new URL('..', import.meta.url).pathname
const CLI = join(REPO, 'bin', 'memweave.js')
const LISTENING = /memweave relay listening on (ws:\/\/\S+)/

export class RelayProcess {
  readonly url: string
  readonly port: number
  readonly dir: string
  readonly #child: ChildProcess
  readonly #exited: Promise<number | null>
  readonly #stderr: string[]

  private constructor(child: ChildProcess, exited: Promise<number | null>, url: string, dir: string, stderr: string[]) {
    this.#child = child
    this.#exited = exited
    this.#stderr = stderr
    this.url = url
    this.port = Number(new URL(url).port)
    this.dir = dir
  }

  /**
   * Starts a relay on `port` (0: the relay picks a free one and prints it, so there is no window in
   * which another process could take a port chosen beforehand) keeping its pools in `dir`.
   */
  static async start(dir: string, port = 0): Promise<RelayProcess> {
    const child = spawn(process.execPath, [CLI, 'relay', '--host', '127.0.0.1', '--port', String(port), '--dir', dir], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(child)
    const stderr: string[] = []
    child.stderr!.setEncoding('utf8').on('data', (text: string) => stderr.push(text))
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => {
      running.delete(child)
      ok(code)
    }))
    const url = await new Promise<string>((ok, fail) => {
      let out = ''
      child.stdout!.setEncoding('utf8').on('data', (text: string) => {
        out += text
        const m = LISTENING.exec(out)
        if (m) ok(m[1]!)
      })
      void exited.then((code) => fail(new Error(`the relay exited (${code}) before listening: ${stderr.join('')}`)))
    })
    return new RelayProcess(child, exited, url, dir, stderr)
  }

  /** What the relay wrote to stderr (its onError reports), for failure messages. */
  get stderr(): string {
    return this.#stderr.join('')
  }

  /** SIGKILL: no close, no compaction, no flush; whatever the last append left on disk stays. Resolves once the process is reaped. */
  async kill(): Promise<void> {
    this.#child.kill('SIGKILL')
    await this.#exited
  }

  /** SIGTERM: the relay closes every connection and compacts every pool (docs/relay.md, "On disk"), then exits. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return
    this.#child.kill('SIGTERM')
    const code = await this.#exited
    if (code !== 0) throw new Error(`the relay exited with ${code} on SIGTERM: ${this.stderr}`)
  }

  /** A new relay process on the same port and directory (this one must have exited). */
  restart(): Promise<RelayProcess> {
    return RelayProcess.start(this.dir, this.port)
  }
}

const running = new Set<ChildProcess>()

/** Kills every relay process still running (a test that failed half-way leaves them behind otherwise). */
export async function killAllRelays(): Promise<void> {
  await Promise.all(
    [...running].map((child) => new Promise<void>((ok) => {
      child.once('exit', () => ok())
      child.kill('SIGKILL')
    })),
  )
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'memweave-e2e-relay-'))
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
}

/** Every byte of every file under `dir`, concatenated: where content that must be gone is looked for. */
export async function allBytes(dir: string): Promise<Buffer> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  return Buffer.concat(await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name)))))
}
