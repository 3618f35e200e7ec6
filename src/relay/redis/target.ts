import { invalidArgument, type MemweaveError } from '../../core/errors.js'

/**
 * What `--redis` (`createRelay({redis})`) names: one Redis, a Redis Cluster, or a Sentinel group
 * (docs/relay.md, "Redis Cluster and Sentinel"). Parsed here, once, so the relay refuses a malformed
 * form before it binds a port, and every message shows the same redacted form.
 *
 *   redis://[user:password@]host:port[/db]                      one Redis (rediss:// for TLS)
 *   redis-cluster://[user:password@]host:port[,host:port...]     a Cluster, from these seed nodes
 *   redis://host:port,redis://host:port[,...]                    the same, as a list of URLs
 *   redis-sentinel://[user:password@]host:port[,host:port...]/master[/db]
 *                                                               a Sentinel group watching `master`
 *
 * `rediss-cluster://` and `rediss-sentinel://` use TLS. Credentials are the data nodes' (the masters
 * and replicas); sentinels are asked without them.
 */
export type RedisTarget =
  | { readonly kind: 'single'; readonly url: string }
  | { readonly kind: 'cluster'; readonly nodes: readonly HostPort[]; readonly auth: RedisAuth }
  | { readonly kind: 'sentinel'; readonly sentinels: readonly HostPort[]; readonly master: string; readonly db: number; readonly auth: RedisAuth }

export interface HostPort {
  readonly host: string
  readonly port: number
}

export interface RedisAuth {
  readonly username?: string
  readonly password?: string
  readonly tls: boolean
}

const FORMS = 'redis://host:port, redis-cluster://host:port,host:port, or redis-sentinel://host:port,host:port/master'

/**
 * Parses `--redis`.
 * @throws MemweaveError INVALID_ARGUMENT (`field: 'redis'`) naming what is wrong; the message never
 *   repeats a password.
 */
export function parseRedisTarget(text: string): RedisTarget {
  const scheme = /^([a-z][a-z-]*):\/\//.exec(text)?.[1]
  if (scheme === undefined) throw bad(`must be one of ${FORMS}`)
  if (scheme === 'redis' || scheme === 'rediss') {
    if (!text.includes(',')) {
      single(text)
      return { kind: 'single', url: text }
    }
    // Several seed URLs: a Cluster. They must agree on scheme and credentials (one cluster).
    const parts = text.split(',')
    const urls = parts.map((part) => single(part))
    const first = urls[0]!
    for (const u of urls) {
      if (u.protocol !== first.protocol || u.username !== first.username || u.password !== first.password) throw bad('the seed URLs of a cluster must share their scheme and credentials')
      if (u.pathname !== '' && u.pathname !== '/' && u.pathname !== '/0') throw bad('a Redis Cluster has only database 0')
    }
    return { kind: 'cluster', nodes: urls.map((u) => ({ host: hostOf(u.hostname), port: portOf(u.port, 6379) })), auth: authOf(decode(first.username), decode(first.password), first.protocol === 'rediss:') }
  }
  const tls = scheme.startsWith('rediss-')
  const kind = scheme.replace(/^rediss?-/, '')
  if (!['redis-cluster', 'rediss-cluster', 'redis-sentinel', 'rediss-sentinel'].includes(scheme)) throw bad(`unknown scheme ${scheme}://: must be one of ${FORMS}`)
  const rest = text.slice(scheme.length + 3)
  const slash = rest.indexOf('/')
  const authority = slash === -1 ? rest : rest.slice(0, slash)
  const path = slash === -1 ? '' : rest.slice(slash + 1)
  const at = authority.lastIndexOf('@')
  const userinfo = at === -1 ? null : authority.slice(0, at)
  const hosts = (at === -1 ? authority : authority.slice(at + 1)).split(',').map((h) => hostPort(h, kind === 'sentinel' ? 26379 : 6379))
  let auth: RedisAuth = { tls }
  if (userinfo !== null) {
    const colon = userinfo.indexOf(':')
    auth = authOf(decode(colon === -1 ? userinfo : userinfo.slice(0, colon)), colon === -1 ? '' : decode(userinfo.slice(colon + 1)), tls)
  }
  if (kind === 'cluster') {
    if (path !== '') throw bad('a redis-cluster:// URL has no path (a Redis Cluster has only database 0)')
    return { kind: 'cluster', nodes: hosts, auth }
  }
  const [master, db, ...extra] = path.split('/')
  if (!master || !/^[A-Za-z0-9._-]{1,64}$/.test(master)) throw bad('a redis-sentinel:// URL names its master after the hosts: redis-sentinel://host:port,host:port/mymaster')
  if (extra.length > 0 || (db !== undefined && !/^(0|[1-9][0-9]?)$/.test(db))) throw bad('after the master name only a database number may follow: /mymaster/0')
  return { kind: 'sentinel', sentinels: hosts, master, db: db === undefined ? 0 : Number(db), auth }
}

/** The target as an operator should see it: every form, the password shown as `***`. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.kind === 'single') {
    const u = new URL(target.url)
    if (u.password !== '') u.password = '***'
    return u.toString()
  }
  const { auth } = target
  const user = auth.username === undefined && auth.password === undefined ? '' : `${auth.username ?? ''}${auth.password === undefined ? '' : ':***'}@`
  const hosts = (target.kind === 'cluster' ? target.nodes : target.sentinels).map((h) => `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`).join(',')
  const scheme = `${auth.tls ? 'rediss' : 'redis'}-${target.kind}`
  return target.kind === 'cluster' ? `${scheme}://${user}${hosts}` : `${scheme}://${user}${hosts}/${target.master}${target.db === 0 ? '' : `/${target.db}`}`
}

/** One `redis://` URL, as ioredis reads it (host and port checked here rather than at connect). */
function single(text: string): URL {
  let u: URL
  try {
    u = new URL(text)
  } catch {
    throw bad(`"${text.includes('@') ? '<a URL with credentials>' : text}" is not a URL: must be one of ${FORMS}`)
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw bad(`must be one of ${FORMS}`)
  if (u.hostname === '') throw bad('the URL names no host')
  portOf(u.port, 6379)
  if (u.pathname !== '' && u.pathname !== '/' && !/^\/(0|[1-9][0-9]?)$/.test(u.pathname)) throw bad('the path of a redis:// URL is a database number')
  return u
}

function hostPort(text: string, defaultPort: number): HostPort {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]*))?$/.exec(text)
  if (!m) throw bad(`"${text}" is not host:port${text === '' ? ' (an empty entry in the host list)' : ''}`)
  return { host: hostOf(m[1]!), port: portOf(m[2] ?? '', defaultPort) }
}

function hostOf(host: string): string {
  return host.startsWith('[') ? host.slice(1, -1) : host
}

function portOf(text: string, fallback: number): number {
  if (text === '') return fallback
  const port = Number(text)
  if (!/^[0-9]{1,5}$/.test(text) || port < 1 || port > 65535) throw bad(`port ${text} is not 1-65535`)
  return port
}

function authOf(username: string, password: string, tls: boolean): RedisAuth {
  return { ...(username === '' ? {} : { username }), ...(password === '' ? {} : { password }), tls }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    throw bad('the credentials are not valid percent-encoding')
  }
}

function bad(message: string): MemweaveError {
  return invalidArgument('redis', message)
}
