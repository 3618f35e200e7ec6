import { createReadStream } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { HttpLifecycle } from '../node/http-lifecycle.js'
import { assertGuardOptions } from '../node/request-guard.js'

/**
 * A static file server for a built web app (the demo's `demo/dist`), Node built-ins only. It is
 * meant for this machine (loopback by default) and stays small: GET and HEAD, one directory,
 * `index.html` for a directory, a few generated files (the demo's `memweave.json`), nothing else.
 *
 * Every path is resolved inside the root twice: lexically (after percent-decoding, so `%2e%2e` and
 * `%2f` cannot climb out) and through `realpath` (so a symlink inside the root cannot point out of it).
 */

export interface StaticServerOptions {
  /** The directory served. */
  readonly root: string
  /** Default 127.0.0.1. */
  readonly host?: string
  /** 0 picks a free port. Default 7413. */
  readonly port?: number
  /** Generated files by URL path (e.g. `/memweave.json`); they win over files on disk. */
  readonly files?: Readonly<Record<string, { readonly type: string; readonly body: string }>>
  /** `Host` names served besides the bound address and the loopback names (request-guard.ts); `*` for any. */
  readonly allowedHosts?: readonly string[]
  /** Origins whose pages may load these files as subresources (`*` for any). Links from any site still open the app. */
  readonly allowedOrigins?: readonly string[]
}

export interface StaticServerAddress {
  /** `http://HOST:PORT/` */
  readonly url: string
  readonly host: string
  readonly port: number
}

export interface StaticServer {
  /** Binds and starts serving. @throws MemweaveError NOT_FOUND when the root is not a directory; the listen error (e.g. EADDRINUSE) otherwise. */
  listen(): Promise<StaticServerAddress>
  /** Stops serving; idempotent. */
  close(): Promise<void>
}

/** Content types by extension. `.js`/`.mjs` must be text/javascript: browsers refuse a module script or module worker served as anything else. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
}
const FALLBACK_TYPE = 'application/octet-stream'

/**
 * Serves `root` over HTTP.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a bad port or root.
 * @example
 * const demo = createStaticServer({ root: 'demo/dist', port: 0, files: { '/memweave.json': { type: 'application/json', body: '{}' } } })
 * const { url } = await demo.listen() // 'http://127.0.0.1:54321/'
 * await demo.close()
 */
export function createStaticServer(options: StaticServerOptions): StaticServer {
  if (typeof options?.root !== 'string' || options.root === '') throw invalidArgument('root', 'must be a directory path')
  // A DNS-rebinding page must not read the app's generated files (they name the local servers),
  // and pages of other origins must not embed them; a link from another site still opens the app.
  // Browsers keep connections alive, and a static file is never worth waiting for: no grace.
  const http = new HttpLifecycle({
    name: 'the static server', host: options.host, port: options.port ?? 7413, scheme: 'http', path: '/',
    guard: { ...options, navigations: true }, graceMs: 0,
  })
  const files = new Map(Object.entries(options.files ?? {}))
  assertGuardOptions(options)

  return {
    listen: () => http.listen(async (bind) => {
      const root = await realpath(resolve(options.root)).catch(() => null)
      if (root === null || !(await stat(root)).isDirectory()) {
        throw new MemweaveError(ErrorCode.NOT_FOUND, `no directory to serve at ${options.root}`, { path: options.root })
      }
      return bind({
        request: (req, res, guard) => {
          const refusal = guard.refuse(req)
          if (refusal) return send(res, refusal.status, `${refusal.message}\n`)
          handle(root, files, req, res).catch(() => {
            if (!res.headersSent) send(res, 500, 'internal error\n')
            else res.destroy()
          })
        },
      })
    }),
    close: () => http.close(),
  }
}

async function handle(root: string, files: ReadonlyMap<string, { type: string; body: string }>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD')
    return send(res, 405, 'method not allowed\n')
  }
  const pathname = urlPath(req.url ?? '/')
  if (pathname === null) return send(res, 400, 'bad path\n')
  const generated = files.get(pathname)
  if (generated) return reply(req, res, generated.type, Buffer.from(generated.body))
  const file = await locate(root, pathname)
  if (file === null) return send(res, 404, 'not found\n')
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file.path).toLowerCase()] ?? FALLBACK_TYPE,
    'content-length': file.size,
    ...HEADERS,
    // Vite names built assets by content hash, so only the HTML (which names them) must be revalidated.
    'cache-control': file.path.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
  })
  if (req.method === 'HEAD') return void res.end()
  await new Promise<void>((ok, fail) => {
    createReadStream(file.path).on('error', fail).pipe(res).on('finish', ok).on('error', fail)
  })
}

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

/** The decoded path of a request target, or null when it is not a clean absolute path (bad escapes, NUL, backslashes). */
export function urlPath(target: string): string | null {
  if (!target.startsWith('/')) return null
  const raw = target.split(/[?#]/, 1)[0]!
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return null
  }
  // A backslash is a separator on Windows and never part of a file name the demo ships.
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  return decoded
}

/** The file under `root` that `pathname` names (a directory's index.html), or null: missing, not a file, or outside the root. */
async function locate(root: string, pathname: string): Promise<{ path: string; size: number } | null> {
  const lexical = resolve(root, `.${pathname}`)
  if (lexical !== root && !lexical.startsWith(root + sep)) return null
  let real: string
  try {
    real = await realpath(lexical)
    if (real !== root && !real.startsWith(root + sep)) return null
    let info = await stat(real)
    if (info.isDirectory()) {
      real = await realpath(resolve(real, 'index.html'))
      if (!real.startsWith(root + sep)) return null
      info = await stat(real)
    }
    return info.isFile() ? { path: real, size: info.size } : null
  } catch {
    return null
  }
}

function reply(req: IncomingMessage, res: ServerResponse, type: string, body: Buffer): void {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-cache', ...HEADERS })
  res.end(req.method === 'HEAD' ? undefined : body)
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...HEADERS })
  res.end(text)
}
