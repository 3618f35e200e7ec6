import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { invalidArgument } from '../core/errors.js'

/**
 * What a web page may do to a server on this machine. A page on any site can make the browser send
 * requests to `http://127.0.0.1:PORT` (a form post, a `fetch` with a text/plain body: no CORS
 * preflight), and a DNS-rebinding page (its own name re-pointed at 127.0.0.1) can even read the
 * answers, as the browser thinks it talks to the page's own origin. Two headers tell both apart from
 * the requests a local server is for:
 *
 * - `Host`: a rebinding page's requests name the attacker's host. The server answers only to the
 *   address it is bound to, the loopback names (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`) on
 *   its port, any IP literal when bound to every interface (an address cannot be re-pointed), and the
 *   names an operator allows (a reverse proxy's name).
 * - `Origin` (and `Sec-Fetch-Site` where a browser sends no Origin): a request a page on another
 *   origin made. Refused unless that origin is allowed; requests with neither (curl, SDKs, the
 *   server's own pages) pass.
 *
 * Node only. docs/gmp-http.md, "What a web page can do".
 */

export interface RequestGuardOptions {
  /**
   * Extra `Host` names the server answers to, on any port (`relay.example.com`), or on one
   * (`relay.example.com:443`); a leading dot allows every subdomain (`.example.com`); `*` turns the
   * check off.
   */
  readonly allowedHosts?: readonly string[]
  /**
   * Origins of web pages allowed to call the server (`https://app.example.com`); `*` allows every
   * origin. Default none: only requests from the server's own origin or from outside a browser.
   */
  readonly allowedOrigins?: readonly string[]
  /** Let a top-level navigation from another site through (a link to a static page). Default false. */
  readonly navigations?: boolean
}

/** Why a request is refused: an HTTP status, a stable error name and a message. */
export interface GuardRefusal {
  readonly status: 403
  readonly error: 'forbidden_host' | 'forbidden_origin'
  readonly message: string
}

/** The guard of one listening server: refuse(req) is null for a request it may serve. */
export interface RequestGuard {
  /** Null when the request may be served, else why not. */
  refuse(req: IncomingMessage, options?: { readonly checkOrigin?: boolean }): GuardRefusal | null
  /** The request's Origin when it is an allowed foreign one (the server then answers with CORS headers), else null. */
  corsOrigin(req: IncomingMessage): string | null
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1'])
const WILDCARD = new Set(['', '0.0.0.0', '::', '[::]'])

/**
 * Checks an allow-list of hosts and origins at construction, so a bad flag fails at start.
 * @throws MemweaveError INVALID_ARGUMENT for an entry that is not a host name or an origin.
 */
export function assertGuardOptions(options: RequestGuardOptions): void {
  for (const h of options.allowedHosts ?? []) {
    if (typeof h !== 'string' || (h !== '*' && parseHost(h.startsWith('.') ? h.slice(1) : h) === null)) {
      throw invalidArgument('allowedHosts', `"${String(h)}" is not a host name (name, name:port, .domain or *)`)
    }
  }
  for (const o of options.allowedOrigins ?? []) {
    if (typeof o !== 'string' || (o !== '*' && normalOrigin(o) === null)) {
      throw invalidArgument('allowedOrigins', `"${String(o)}" is not an origin (scheme://host[:port], or *)`)
    }
  }
}

/**
 * The guard of a server bound to `host:port` (the port it really got).
 * @example
 * const guard = requestGuard('127.0.0.1', 7411, { allowedOrigins: ['http://localhost:5173'] })
 * const refusal = guard.refuse(req) // null, or { status: 403, error: 'forbidden_origin', ... }
 */
export function requestGuard(boundHost: string, boundPort: number, options: RequestGuardOptions = {}): RequestGuard {
  assertGuardOptions(options)
  const bound = unbracket(boundHost.toLowerCase())
  const wildcard = WILDCARD.has(bound)
  const anyHost = options.allowedHosts?.includes('*') ?? false
  const hostRules = (options.allowedHosts ?? []).filter((h) => h !== '*').map((h) => h.toLowerCase())
  const anyOrigin = options.allowedOrigins?.includes('*') ?? false
  const origins = new Set((options.allowedOrigins ?? []).filter((o) => o !== '*').map((o) => normalOrigin(o)!))

  const hostAllowed = (header: string | undefined): boolean => {
    if (anyHost) return true
    const parsed = header === undefined ? null : parseHost(header)
    if (parsed === null) return false
    const { name, port } = parsed
    for (const rule of hostRules) {
      const r = parseHost(rule.startsWith('.') ? rule.slice(1) : rule)!
      const nameMatches = rule.startsWith('.') ? name === r.name || name.endsWith(`.${r.name}`) : name === r.name
      if (nameMatches && (r.port === null || r.port === (port ?? 80))) return true
    }
    // Our own names: only on our port (a Host without a port means 80).
    if ((port ?? 80) !== boundPort) return false
    if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || name === bound) return true
    return wildcard && isIP(name) !== 0
  }

  const originOf = (req: IncomingMessage): string | undefined => {
    const o = req.headers['origin']
    return typeof o === 'string' ? o : undefined
  }
  const ownOrigin = (origin: string, req: IncomingMessage): boolean => {
    const host = req.headers['host']
    return typeof host === 'string' && normalOrigin(origin) === normalOrigin(`http://${host}`)
  }
  const foreignAllowed = (origin: string): boolean => anyOrigin || origins.has(normalOrigin(origin) ?? '')

  return {
    refuse(req, { checkOrigin = true } = {}) {
      const host = req.headers['host']
      if (!hostAllowed(host)) {
        return {
          status: 403,
          error: 'forbidden_host',
          message: `this server does not answer to Host "${host ?? ''}" (a page re-pointing its own name at this machine, or a proxy: allow its name with allowedHosts / --allow-host)`,
        }
      }
      if (!checkOrigin) return null
      const origin = originOf(req)
      if (origin !== undefined) {
        if (ownOrigin(origin, req) || foreignAllowed(origin)) return null
        return { status: 403, error: 'forbidden_origin', message: `requests from web pages of ${origin} are refused (allow that origin with allowedOrigins / --allow-origin)` }
      }
      // No Origin: a browser still says where a request comes from in Sec-Fetch-Site (a no-cors GET,
      // an image). `none` is the user typing the address; same-site is another port of the same host.
      const site = req.headers['sec-fetch-site']
      if (site === 'cross-site' || site === 'same-site') {
        const navigation = req.headers['sec-fetch-mode'] === 'navigate' && (req.method === 'GET' || req.method === 'HEAD')
        if (anyOrigin || (options.navigations === true && navigation)) return null
        return { status: 403, error: 'forbidden_origin', message: 'requests from web pages of other origins are refused (allow an origin with allowedOrigins / --allow-origin)' }
      }
      return null
    },
    corsOrigin(req) {
      const origin = originOf(req)
      if (origin === undefined || ownOrigin(origin, req) || !foreignAllowed(origin)) return null
      return origin
    },
  }
}

/** Splits a Host header into a lowercase name (brackets off an IPv6 literal) and a port, or null when malformed. */
function parseHost(header: string): { name: string; port: number | null } | null {
  const text = header.trim().toLowerCase()
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/.exec(text)
  if (!m) return null
  const port = m[2] === undefined ? null : Number(m[2])
  if (port !== null && port > 65535) return null
  // A trailing dot names the same host (`localhost.`): compare without it.
  const name = unbracket(m[1]!).replace(/\.$/, '')
  if (name === '') return null
  return { name, port }
}

function unbracket(name: string): string {
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name
}

/** `scheme://host[:port]` in lowercase without a default port, or null for `null` and other non-origins. */
function normalOrigin(origin: string): string | null {
  try {
    const u = new URL(origin)
    if (u.origin === 'null' || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username) return null
    return u.origin.toLowerCase()
  } catch {
    return null
  }
}
