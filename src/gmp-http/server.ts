import { mkdir } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join, resolve } from 'node:path'
import { ErrorCode, invalidArgument, isMemweaveError } from '../core/errors.js'
import { createIdentity, type Identity } from '../core/identity.js'
import type { FactStore } from '../facts/types.js'
import type { ConflictJudgeOptions } from '../conflict-judge/types.js'
import { acquireLock, type FileLock } from '../node/file-lock.js'
import type { StoragePort } from '../storage/port.js'
import { HttpLifecycle } from '../node/http-lifecycle.js'
import { assertGuardOptions, type RequestGuard } from '../node/request-guard.js'
import { HttpReply, assertJsonContentType, badRequest, bearerCheck, readJsonObject, sendJson, sendJsonList } from './http-io.js'
import {
  BODY_FIELDS, WIRE_BASE_PATH, assertBodyFields, conflictToWire, memoryToWire, retrieveOptionsFromWire, wireFieldName, writeOptionsFromWire, type WireErrorBody,
} from './protocol.js'
import { loadOrCreateIdentity } from './server-identity.js'
import { StoreRegistry } from './store-registry.js'

export interface GmpServerOptions {
  /** Interface to bind. Default `127.0.0.1` (local only). */
  readonly host?: string
  /** TCP port; 0 picks a free one. Default 7411. */
  readonly port?: number
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string | null
  /** Keep stores and the server identity in this directory (created 0700); in memory when absent. */
  readonly dir?: string | null
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** Signs writes that bring no `signing_key`. Default: kept in `<dir>/identity.json`, or a fresh one per run without `dir`. */
  readonly identity?: Identity | null
  /**
   * The most one store under `dir` may hold, in bytes of its rows' JSON; a write past it answers
   * 413 `quota_exceeded`. Rows of open stores live in memory. Default 256 MiB.
   */
  readonly maxStoreBytes?: number
  /** The most all stores under `dir` may hold together while open; past it, 413 `quota_exceeded`. Default 1 GiB. */
  readonly maxTotalStoreBytes?: number
  /** Storage for each store, replacing the default (memory, or a file storage in `<dir>/stores/<id>/`). For tests and embedding. */
  readonly createStorage?: (storeId: string) => StoragePort
  /** Receives unexpected errors (the 500s). Default: one line on stderr. */
  readonly onError?: (err: unknown) => void
  /**
   * `Host` names the server answers to besides its own address and the loopback names (a reverse
   * proxy's name; `.example.com` for subdomains; `*` for any). Default none: a DNS-rebinding page is refused.
   */
  readonly allowedHosts?: readonly string[]
  /**
   * Origins of web pages that may call the server (answered with CORS headers), or `*`. Default
   * none: a request a page on another origin makes is refused (403 `forbidden_origin`).
   */
  readonly allowedOrigins?: readonly string[]
  /**
   * A second-stage judge for every store's free-text conflicts (createMemory's `conflictJudge`):
   * the conflicts endpoint then carries each pair's `judge` mark. Default none. Verdicts are kept
   * in each store's rows, so a restart with `dir` asks the judge nothing again.
   */
  readonly conflictJudge?: ConflictJudgeOptions
}

export interface GmpServerAddress {
  /** The base URL of the API, e.g. `http://127.0.0.1:7411/v1`. */
  readonly url: string
  readonly host: string
  readonly port: number
}

/** A GMP-over-HTTP server (shared/specs/gmp/WIRE.md) on node:http. */
export interface GmpServer {
  /** Binds and starts serving. @throws MemweaveError CONFLICT when another process serves `dir`; STORAGE when `dir` is unusable; the listen error (e.g. EADDRINUSE) otherwise. */
  listen(): Promise<GmpServerAddress>
  /** The address once listening, else null. */
  readonly address: GmpServerAddress | null
  /** The identity that signs unsigned writes, once listening. */
  readonly identity: Identity | null
  /** Stops accepting connections, lets running requests finish, closes every store. Idempotent. */
  close(): Promise<void>
}

type Op = 'write' | 'supersede' | 'delete' | 'retrieve' | 'audit' | 'flush' | 'capabilities' | 'conflicts'

interface Route {
  readonly method: 'GET' | 'POST'
  readonly handle: (store: FactStore, body: Record<string, unknown>, query: URLSearchParams) => Promise<unknown>
}

/** The per-store operations of WIRE.md, by last path segment. */
const STORE_ROUTES: Readonly<Record<Op, Route>> = {
  capabilities: { method: 'GET', handle: async (s) => ({ capabilities: await s.capabilities() }) },
  write: {
    method: 'POST',
    handle: async (s, b) => ({ ref: await s.write(b['content'] as string, writeOptionsFromWire(b['options'])) }),
  },
  supersede: {
    method: 'POST',
    handle: async (s, b) => {
      if (!('old_ref' in b)) throw badRequest('old_ref is required')
      // GMP §6.3: an unknown old ref is a fresh write; a ref that is not a string is unknown here.
      const oldRef = typeof b['old_ref'] === 'string' ? b['old_ref'] : ''
      return { ref: await s.supersede(oldRef, b['content'] as string, writeOptionsFromWire(b['options'])) }
    },
  },
  delete: {
    method: 'POST',
    handle: async (s, b) => {
      if (!('ref' in b)) throw badRequest('ref is required')
      // The store answers false for a ref that is not a string (after its capability check).
      return { deleted: await s.delete(b['ref'] as string) }
    },
  },
  retrieve: {
    method: 'POST',
    handle: async (s, b) => ({
      memories: (await s.retrieve(b['query'] as string, retrieveOptionsFromWire(b['options']))).map(memoryToWire),
    }),
  },
  audit: { method: 'GET', handle: async (s) => ({ memories: (await s.audit()).map(memoryToWire) }) },
  // A memweave extension of WIRE.md (docs/gmp-http.md): the store declares conflict_detection, so it
  // must be able to say which contradictions it holds. `?tenant_id=` scopes it like retrieve;
  // `?wait_for_judge=true` is `facts.conflicts({ waitForJudge })`: with a second-stage judge, the
  // list waits for its verdicts (bounded by the judge's timeoutMs and retries).
  conflicts: {
    method: 'GET',
    handle: async (s, _b, query) => {
      for (const key of query.keys()) {
        if (key !== 'tenant_id' && key !== 'wait_for_judge') throw invalidArgument(key, `unknown query parameter "${key}"; conflicts takes "tenant_id" and "wait_for_judge"`)
      }
      const wait = query.get('wait_for_judge')
      if (wait !== null && wait !== 'true' && wait !== 'false') throw invalidArgument('wait_for_judge', `must be "true" or "false", got ${JSON.stringify(wait)}`)
      return { conflicts: (await s.conflicts({ tenantId: query.get('tenant_id'), waitForJudge: wait === 'true' })).map(conflictToWire) }
    },
  },
  flush: {
    method: 'POST',
    handle: async (s) => {
      await s.flush()
      return {}
    },
  },
}

const DEFAULT_PORT = 7411
const MiB = 1024 * 1024
/** How long close() waits for running requests before cutting their connections. */
const CLOSE_GRACE_MS = 5000

class GmpHttpServer implements GmpServer {
  readonly #http: HttpLifecycle
  readonly #dir: string | null
  readonly #maxBody: number
  readonly #authorized: (req: IncomingMessage) => boolean
  readonly #options: GmpServerOptions
  readonly #onError: (err: unknown) => void
  readonly #reportedDamage = new Set<string>()
  #registry: StoreRegistry | undefined
  #lock: FileLock | undefined
  #identity: Identity | null = null

  constructor(options: GmpServerOptions) {
    this.#options = options
    this.#onError = options.onError ?? ((err) => process.stderr.write(`memweave GMP server: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`))
    this.#http = new HttpLifecycle({
      name: 'the GMP server', host: options.host, port: options.port ?? DEFAULT_PORT, scheme: 'http', path: WIRE_BASE_PATH,
      guard: options, graceMs: CLOSE_GRACE_MS, onError: (err) => this.#onError(err),
    })
    const token = options.token ?? null
    if (token !== null && (typeof token !== 'string' || token.trim() === '')) throw invalidArgument('token', 'must be a non-empty string')
    this.#authorized = bearerCheck(token)
    this.#dir = options.dir ? resolve(options.dir) : null
    this.#maxBody = options.maxBodyBytes ?? MiB
    if (!Number.isInteger(this.#maxBody) || this.#maxBody < 1) throw invalidArgument('maxBodyBytes', 'must be a positive integer')
    assertGuardOptions(options)
  }

  get address(): GmpServerAddress | null {
    return this.#http.address
  }

  get identity(): Identity | null {
    return this.#identity
  }

  listen(): Promise<GmpServerAddress> {
    return this.#http.listen(async (bind) => {
      try {
        if (this.#dir !== null) {
          await mkdir(this.#dir, { recursive: true, mode: 0o700 })
          this.#lock = await acquireLock(join(this.#dir, 'LOCK'), `GMP server directory ${this.#dir}`)
        }
        this.#identity = this.#options.identity ?? (this.#dir !== null ? await loadOrCreateIdentity(this.#dir) : await createIdentity())
        this.#registry = new StoreRegistry({
          dir: this.#dir, identity: this.#identity, createStorage: this.#options.createStorage,
          maxStoreBytes: this.#options.maxStoreBytes, maxTotalStoreBytes: this.#options.maxTotalStoreBytes,
          conflictJudge: this.#options.conflictJudge,
        })
        return await bind({
          // #handle answers every error itself; this catch is the last line that keeps the process up.
          request: (req, res, guard) => this.#handle(req, res, guard).catch((err: unknown) => {
            this.#onError(err)
            res.destroy()
          }),
        })
      } catch (err) {
        await this.#lock?.release()
        this.#lock = undefined
        throw err
      }
    })
  }

  /** Running requests finish (their connections cut after CLOSE_GRACE_MS), then every store closes. */
  close(): Promise<void> {
    return this.#http.close({
      after: async () => {
        await this.#registry?.close()
        await this.#lock?.release()
      },
    })
  }

  // ---- requests --------------------------------------------------------------------------------

  async #handle(req: IncomingMessage, res: ServerResponse, guard: RequestGuard): Promise<void> {
    req.on('error', () => undefined)
    res.on('error', () => undefined)
    let op: Op | 'create' | undefined
    try {
      // Before the token: a page on another origin or a re-pointed name learns nothing, even whether a token is set.
      const refusal = guard.refuse(req)
      if (refusal) throw new HttpReply(refusal.status, { error: refusal.error, message: refusal.message })
      const cors = guard.corsOrigin(req)
      if (cors !== null) {
        res.setHeader('access-control-allow-origin', cors)
        res.setHeader('vary', 'Origin')
      }
      if (req.method === 'OPTIONS') {
        // A preflight from an allowed origin (the only foreign one the guard lets through).
        if (cors !== null) {
          res.setHeader('access-control-allow-methods', 'GET, POST')
          res.setHeader('access-control-allow-headers', 'authorization, content-type')
          res.setHeader('access-control-max-age', '600')
        }
        res.writeHead(204, { allow: 'GET, POST, OPTIONS', 'content-length': '0' })
        return void res.end()
      }
      if (!this.#authorized(req)) {
        throw new HttpReply(401, { error: 'unauthorized', message: 'a valid "Authorization: Bearer <token>" header is required' }, { 'www-authenticate': 'Bearer' })
      }
      const path = pathOf(req.url)
      const method = req.method ?? 'GET'
      if (path === `${WIRE_BASE_PATH}/stores`) {
        // GET lists the stores (a memweave extension: whoever holds the token may see them all).
        if (method === 'GET') return sendJson(res, 200, { stores: await this.#registry!.list() })
        op = 'create'
        if (method !== 'POST') throw methodNotAllowed('GET, POST')
        assertJsonContentType(req)
        const body = await readJsonObject(req, this.#maxBody)
        assertBodyFields(body, 'create')
        const storeId = await this.#registry!.create(body['capabilities'])
        return sendJson(res, 200, { store_id: storeId })
      }
      const match = /^\/v1\/stores\/([^/]+)\/([a-z_]+)$/.exec(path ?? '')
      const route = match && Object.hasOwn(STORE_ROUTES, match[2]!) ? STORE_ROUTES[match[2] as Op] : undefined
      if (!match || !route) throw new HttpReply(404, { error: 'not_found', message: `no such endpoint: ${method} ${path ?? req.url}` })
      op = match[2] as Op
      if (method !== route.method) throw methodNotAllowed(route.method)
      // The body is read in full before the store is looked at: a rejected request changes nothing.
      if (route.method === 'POST') assertJsonContentType(req)
      const body = route.method === 'POST' ? await readJsonObject(req, this.#maxBody) : {}
      if (route.method === 'POST') assertBodyFields(body, op as keyof typeof BODY_FIELDS)
      const store = await this.#registry!.get(match[1]!)
      if (!store) throw new HttpReply(404, { error: 'unknown_store', message: `no store "${match[1]}"` })
      const result = (await route.handle(store, body, queryOf(req.url))) as { memories?: Array<{ content?: unknown }> }
      if (Array.isArray(result.memories)) {
        const size = result.memories.reduce((sum, m) => sum + (typeof m.content === 'string' ? m.content.length : 0), 0)
        return await sendJsonList(res, 'memories', result.memories, size)
      }
      return sendJson(res, 200, result)
    } catch (err) {
      const reply = this.#toReply(err, op)
      sendJson(res, reply.status, reply.body, reply.headers)
    }
  }

  #toReply(err: unknown, op: Op | 'create' | undefined): HttpReply {
    if (err instanceof HttpReply) return err
    if (isMemweaveError(err) && err.code === ErrorCode.CAPABILITY_NOT_SUPPORTED) {
      const body: WireErrorBody = {
        error: 'capability_not_supported',
        capability: String(err.details.capability),
        operation: op ?? String(err.details.operation),
        message: err.message,
      }
      return new HttpReply(422, body)
    }
    if (isMemweaveError(err) && err.code === ErrorCode.INVALID_ARGUMENT) {
      const field = typeof err.details.field === 'string' ? err.details.field : undefined
      const message = field && err.message.startsWith(`${field}:`) ? `${wireFieldName(field)}${err.message.slice(field.length)}` : err.message
      return badRequest(message)
    }
    if (isMemweaveError(err) && err.code === ErrorCode.QUOTA_EXCEEDED) return new HttpReply(413, { error: 'quota_exceeded', message: err.message })
    if (isMemweaveError(err) && err.code === ErrorCode.DATA_DAMAGED) {
      // Unavailable until repaired, not a bug: the caller reads why in the reply, the operator
      // once per store on stderr.
      const store = String(err.details.store ?? err.message)
      if (!this.#reportedDamage.has(store)) {
        this.#reportedDamage.add(store)
        this.#onError(err)
      }
      return new HttpReply(503, { error: 'store_damaged', message: err.message })
    }
    // A store a newer memweave wrote: unavailable here, untouched, until served by that version.
    if (isMemweaveError(err) && err.code === ErrorCode.FORMAT_TOO_NEW) return new HttpReply(503, { error: 'store_format_too_new', message: err.message })
    this.#onError(err)
    return new HttpReply(500, { error: 'internal_error', message: 'the server failed to complete the request' })
  }
}

function methodNotAllowed(allow: string): HttpReply {
  return new HttpReply(405, { error: 'method_not_allowed', message: `use ${allow}` }, { allow })
}

/** The query parameters of a request target. */
function queryOf(target: string | undefined): URLSearchParams {
  try {
    return new URL(target ?? '/', 'http://localhost').searchParams
  } catch {
    return new URLSearchParams()
  }
}

/** The path of a request target, or undefined when it is not a valid URL path. */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/'
  } catch {
    return undefined
  }
}

/**
 * Creates a GMP-over-HTTP server: `POST /v1/stores`, then per store `capabilities`, `write`,
 * `supersede`, `delete`, `retrieve`, `audit` and `flush`, exactly as WIRE.md has them. Stores use
 * every capability memweave claims unless `POST /v1/stores` names a subset (`{"capabilities": [...]}`,
 * a memweave extension). Node only.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a bad port, token or body limit.
 * @example
 * import { createGmpServer } from 'memweave/node'
 * const server = createGmpServer({ port: 0, dir: './gmp-data', token: process.env.GMP_TOKEN })
 * const { url } = await server.listen() // 'http://127.0.0.1:54321/v1'
 * // ... later
 * await server.close()
 */
export function createGmpServer(options: GmpServerOptions = {}): GmpServer {
  return new GmpHttpServer(options)
}
