/**
 * The join code an owner hands a member: which pool, which relay, and the pool token the owner
 * signed for that member. It travels as a link (`…/#join=CODE`) or as the bare code; either can be
 * pasted. The token is a bearer capability until it expires (docs/relay.md), so the code is too.
 */

export interface JoinCode {
  readonly v: 1
  readonly pool: string
  /** The relay's websocket URL. */
  readonly relay: string
  /** The pool token, signed by the owner for the member (createPoolToken). */
  readonly token: string
  /** The pool's name, to show before its records arrive. */
  readonly name: string | null
  /** The token's expiry, epoch ms. */
  readonly expiresAt: number
  /** The inviting owner's display name, so the member can label it. */
  readonly from?: string
}

const POOL = /^[0-9a-f]{32}$/

export function encodeJoin(join: JoinCode): string {
  const bytes = new TextEncoder().encode(JSON.stringify(join))
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The link that opens the demo at `base` and joins. */
export function joinLink(base: string, join: JoinCode): string {
  const url = new URL(base)
  url.hash = `join=${encodeJoin(join)}`
  return url.href
}

/**
 * Reads a join code from what a person pasted: a join link or the bare code, spaces around ignored.
 * @throws Error with a message meant for the page when it is not one.
 */
export function parseJoin(text: string): JoinCode {
  const trimmed = text.trim()
  const m = /[#&]join=([A-Za-z0-9_-]+)/.exec(trimmed)
  const code = m ? m[1]! : trimmed
  let value: unknown
  try {
    const bin = atob(code.replace(/-/g, '+').replace(/_/g, '/'))
    value = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))))
  } catch {
    throw new Error('not a join link or code')
  }
  const j = value as Partial<JoinCode> | null
  if (
    typeof j !== 'object' || j === null || j.v !== 1 || typeof j.pool !== 'string' || !POOL.test(j.pool) ||
    typeof j.relay !== 'string' || !/^wss?:\/\//.test(j.relay) || typeof j.token !== 'string' ||
    typeof j.expiresAt !== 'number' || (j.name !== null && typeof j.name !== 'string') || (j.from !== undefined && typeof j.from !== 'string')
  ) {
    throw new Error('the join code is incomplete')
  }
  return { v: 1, pool: j.pool, relay: j.relay, token: j.token, name: j.name ?? null, expiresAt: j.expiresAt, ...(j.from ? { from: j.from.slice(0, 40) } : {}) }
}

/**
 * Whom a pool token was issued to (`sub`) and by whom (`iss`), read without checking the signature:
 * only to tell a person that a link was made for another agent, and to label its owner. The relay
 * checks the token itself.
 */
export function tokenClaims(token: string): { sub: string | null; iss: string | null } {
  try {
    const body = token.split('.')[0]!
    const bin = atob(body.replace(/-/g, '+').replace(/_/g, '/'))
    const payload = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))) as { sub?: unknown; iss?: unknown }
    return { sub: typeof payload.sub === 'string' ? payload.sub : null, iss: typeof payload.iss === 'string' ? payload.iss : null }
  } catch {
    return { sub: null, iss: null }
  }
}
