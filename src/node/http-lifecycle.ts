import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { requestGuard, type RequestGuard, type RequestGuardOptions } from './request-guard.js'

/**
 * The start and stop of one node:http server, shared by the GMP server (src/gmp-http/server.ts),
 * the relay (src/relay/relay.ts) and the demo's static server (src/cli/static-server.ts), which
 * each wrote it once and had begun to drift (issue 30). What stays with each server is what it
 * opens before binding (a directory lock, stores, rooms) and what it closes after the HTTP side
 * has stopped; the order around the socket is kept here:
 *
 * - listen: once (a second call gets the same promise, a failed bind included), refused with
 *   CLOSED after close(); the bind error is Node's own (`EADDRINUSE` with its `address` and
 *   `port`), which the CLI turns into its port-in-use line (src/cli/listen-error.ts).
 * - requests: the request guard of the bound address (request-guard.ts: the port is only known
 *   after a bind to port 0) is handed to every request; a handler that returns a promise is
 *   a request close() waits for.
 * - close: stop accepting, run the owner's drain, close idle keep-alive connections (a browser or
 *   an agent keeps them open, and server.close() would wait for them), wait for the requests in
 *   flight, cut what is still open `graceMs` after the drain, and wait for the handlers even then,
 *   so that nothing they use is closed under them; then the owner's last step. Idempotent.
 *
 * Node only. docs/gmp-http.md and docs/relay.md, "Start and stop".
 */

export interface HttpLifecycleOptions {
  /** How errors name the server: `the GMP server` gives "the GMP server is closed". */
  readonly name: string
  /** Interface to bind. Default `127.0.0.1`. */
  readonly host?: string
  /** TCP port; 0 picks a free one. */
  readonly port: number
  /** The scheme of the URL reported once listening. */
  readonly scheme: 'http' | 'ws'
  /** What the reported URL ends with after the port (`/v1`, `/`). Default none. */
  readonly path?: string
  /** The allow-lists of the request guard (checked by the caller at construction). */
  readonly guard?: RequestGuardOptions
  /** How long close() lets requests in flight run before it cuts their connections. */
  readonly graceMs: number
  /** Receives the server's errors once it listens (a failed accept). Default: none listened for. */
  readonly onError?: (err: unknown) => void
}

/** Where a server listens: the host it was given, the port it got, and its URL. */
export interface HttpAddress {
  readonly url: string
  readonly host: string
  readonly port: number
}

/** What the server does with what arrives. */
export interface HttpHandlers {
  /** One request. A returned promise is waited for by close(); it must not reject. */
  request(req: IncomingMessage, res: ServerResponse, guard: RequestGuard): void | Promise<void>
  /** A websocket upgrade; without it Node answers an upgrade by closing the socket. */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void
}

/** The steps of a close around the HTTP side. */
export interface HttpCloseSteps {
  /**
   * Runs once the server stopped accepting, before the grace starts: its connections are still
   * served meanwhile (the relay closes its websockets and compacts its pools here).
   */
  readonly drain?: () => Promise<void>
  /** Runs once the HTTP side is down (stores, rooms, the directory lock); its error is close()'s. */
  readonly after?: () => Promise<void>
}

/** `scheme://host:port/path`, an IPv6 host in brackets. */
export function serverUrl(scheme: string, host: string, port: number, path = ''): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${path}`
}

/**
 * The listen and close of one HTTP server. The owner keeps one per server object and routes its
 * `listen()` and `close()` through it.
 *
 * @throws MemweaveError INVALID_ARGUMENT when the port is not an integer in 0..65535.
 */
export class HttpLifecycle {
  readonly #options: HttpLifecycleOptions
  readonly #host: string
  readonly #inflight = new Set<Promise<void>>()
  #server: Server | undefined
  #guard: RequestGuard | undefined
  #address: HttpAddress | null = null
  #listening: Promise<HttpAddress> | undefined
  #closing: Promise<void> | undefined

  constructor(options: HttpLifecycleOptions) {
    const { port } = options
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalidArgument('port', 'must be an integer in 0..65535')
    this.#options = options
    this.#host = options.host ?? '127.0.0.1'
  }

  /** The address once listening, null before and after close(). */
  get address(): HttpAddress | null {
    return this.#address
  }

  /** True from the first close() on. */
  get closing(): boolean {
    return this.#closing !== undefined
  }

  /**
   * Runs `start` once: it opens what the server needs, then calls `bind` with its handlers, which
   * listens and resolves to the address. Later calls get the same promise.
   *
   * @throws MemweaveError CLOSED after close(); whatever `start` throws, the bind error (EADDRINUSE, EACCES) included.
   */
  listen(start: (bind: (handlers: HttpHandlers) => Promise<HttpAddress>) => Promise<HttpAddress>): Promise<HttpAddress> {
    if (this.#closing) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, `${this.#options.name} is closed`))
    this.#listening ??= start((handlers) => this.#bind(handlers))
    return this.#listening
  }

  async #bind(handlers: HttpHandlers): Promise<HttpAddress> {
    const { port, guard: guardOptions = {}, onError } = this.#options
    const host = this.#host
    const server = createServer((req, res) => {
      // Set once listening; a request cannot arrive before (the listen callback runs first).
      const guard = this.#guard ??= requestGuard(host, (server.address() as AddressInfo).port, guardOptions)
      const running = handlers.request(req, res, guard)
      if (running) this.#track(running)
    })
    if (handlers.upgrade) server.on('upgrade', handlers.upgrade)
    this.#server = server
    try {
      await new Promise<void>((ok, fail) => {
        server.once('error', fail)
        server.listen(port, host, () => {
          server.off('error', fail)
          ok()
        })
      })
    } catch (err) {
      this.#server = undefined
      throw err
    }
    if (onError) server.on('error', onError)
    const bound = (server.address() as AddressInfo).port
    this.#guard = requestGuard(host, bound, guardOptions)
    this.#address = { url: serverUrl(this.#options.scheme, host, bound, this.#options.path), host, port: bound }
    return this.#address
  }

  #track(p: Promise<void>): void {
    this.#inflight.add(p)
    void p.finally(() => this.#inflight.delete(p))
  }

  /**
   * Stops the server once (later calls get the same promise), after a listen() still under way
   * has settled: stops accepting, runs `drain`, closes idle connections and waits for the requests
   * in flight (their connections cut `graceMs` after the drain), then runs `after`. The steps run even when
   * the bind failed, so that what `start` opened is closed.
   */
  close(steps: HttpCloseSteps = {}): Promise<void> {
    this.#closing ??= (async () => {
      await this.#listening?.catch(() => undefined)
      try {
        await this.#stop(steps.drain)
        await steps.after?.()
      } finally {
        this.#address = null
      }
    })()
    return this.#closing
  }

  async #stop(drain: (() => Promise<void>) | undefined): Promise<void> {
    const server = this.#server?.listening ? this.#server : undefined
    // server.close() stops accepting and, since Node 19, closes the idle keep-alive connections.
    const closed = server ? new Promise<void>((ok) => server.close(() => ok())) : undefined
    let force: ReturnType<typeof setTimeout> | undefined
    try {
      // Connections still serve meanwhile: the relay's /healthz answers 503 while it drains.
      await drain?.()
    } finally {
      if (server) {
        server.closeIdleConnections()
        // A grace of 0 cuts at once (a static file, the relay's synchronous answers).
        if (this.#options.graceMs === 0) server.closeAllConnections()
        else force = setTimeout(() => server.closeAllConnections(), this.#options.graceMs)
      }
      await Promise.allSettled([...this.#inflight])
      if (server) {
        // The requests just finished left their keep-alive connections idle.
        server.closeIdleConnections()
        await closed
        clearTimeout(force)
      }
    }
  }
}
