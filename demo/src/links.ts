import { createPoolToken, type Identity, type PoolInfo, type RemoteMemory } from '../../src/index.js'
import { tokenClaims, type JoinCode } from './join.js'

/**
 * The pools' links to the relay. An owner mints its own pool tokens (and its members'), always with
 * the ownership proof (`PoolInfo.nonce`) so the relay pins the pool to the real owner whoever
 * connects first; a member connects with the token from its join code, remembered in localStorage
 * so that a reload reconnects. The worker is shared by the tabs of a browser profile, so a pool
 * that already has a link (another tab made it) is left alone.
 */

/** How long a minted token lasts: a bearer capability, so hours, not weeks. */
export const TOKEN_TTL_MS = 12 * 3_600_000
const JOINED = 'memweave-demo:joined'
const LEFT = 'memweave-demo:left'

/** A pool joined with a code, and when (to tell "still arriving" from "never will"). */
export type JoinedPool = JoinCode & { readonly joinedAt?: number }

export class Links {
  readonly #mem: RemoteMemory
  readonly #identity: Identity
  readonly relay: string
  readonly #storage: Storage

  constructor(mem: RemoteMemory, identity: Identity, relay: string, storage: Storage = localStorage) {
    this.#mem = mem
    this.#identity = identity
    this.relay = relay
    this.#storage = storage
  }

  /** A token for `sub`, signed by this agent as the owner of `pool`. */
  async mint(pool: PoolInfo, sub: string, write: boolean, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const expiresAt = now + TOKEN_TTL_MS
    const token = await createPoolToken(this.#identity, {
      pool: pool.id, sub, write, expiresAt, ownerProof: { nonce: pool.nonce, tenant: pool.tenantId },
    })
    return { token, expiresAt }
  }

  /** Shares `pool` with `did` and returns the join code that member pastes. */
  async invite(pool: PoolInfo, did: string, write: boolean, from: string | null = null): Promise<JoinCode> {
    await this.#mem.pools.share(pool.id, did, { write })
    const { token, expiresAt } = await this.mint(pool, did, write)
    return { v: 1, pool: pool.id, relay: this.relay, token, name: pool.name, expiresAt, ...(from ? { from } : {}) }
  }

  /** Connects a pool this agent owns, with a fresh token (replacing any link it has). */
  async connectOwned(pool: PoolInfo): Promise<void> {
    const { token } = await this.mint(pool, this.#identity.did, true)
    await this.#mem.sync.disconnect(pool.id)
    await this.#mem.sync.connect(pool.id, { url: this.relay, token })
  }

  /** Joins a pool from a member's join code: remembered, then connected. The pool appears once its records arrive. */
  async join(code: JoinCode, now = Date.now()): Promise<void> {
    const joined = this.joined()
    joined[code.pool] = { ...code, joinedAt: now }
    this.#storage.setItem(JOINED, JSON.stringify(joined))
    this.#setLeft([...this.left()].filter((p) => p !== code.pool))
    await this.#mem.sync.disconnect(code.pool)
    await this.#mem.sync.connect(code.pool, { url: code.relay, token: code.token })
  }

  /** Pools joined with a code, by pool id. */
  joined(): Record<string, JoinedPool> {
    try {
      return JSON.parse(this.#storage.getItem(JOINED) ?? '{}') as Record<string, JoinedPool>
    } catch {
      return {}
    }
  }

  /**
   * Leaves a pool joined with a code: replication stops here (`sync.stop`: links closed, its Yjs
   * updates dropped), the join code is forgotten and the page stops showing the pool. memweave has
   * no call to delete a pool's records from a replica, so they stay in this profile's IndexedDB.
   */
  async leave(poolId: string): Promise<void> {
    await this.#mem.sync.stop(poolId)
    const joined = this.joined()
    delete joined[poolId]
    this.#storage.setItem(JOINED, JSON.stringify(joined))
    this.#setLeft([...this.left(), poolId])
  }

  /** Pools this page left (hidden from it). */
  left(): Set<string> {
    try {
      return new Set(JSON.parse(this.#storage.getItem(LEFT) ?? '[]') as string[])
    } catch {
      return new Set()
    }
  }

  #setLeft(pools: readonly string[]): void {
    this.#storage.setItem(LEFT, JSON.stringify([...new Set(pools)]))
  }

  /** Reconnects one pool: a fresh token where this agent owns it, else the remembered join code. */
  async reconnect(poolId: string): Promise<void> {
    const info = await this.#mem.pools.info(poolId).catch(() => null)
    if (info?.access.owner) return this.connectOwned(info)
    const code = this.joined()[poolId]
    if (!code) throw new Error('no token for this pool: ask its owner for a new join link')
    await this.join(code)
  }

  /** After a load: connects every owned or joined pool that has no link yet. */
  async resume(): Promise<void> {
    const linked = new Set((await this.#mem.sync.status()).pools.filter((p) => p.links > 0).map((p) => p.pool as string))
    const left = this.left()
    const owned = (await this.#mem.pools.list()).filter((p) => p.access.owner && !linked.has(p.id) && !left.has(p.id))
    await Promise.all(owned.map((p) => this.connectOwned(p)))
    // A code for another agent (remembered before the page refused those) would connect and never show a pool.
    const joined = Object.values(this.joined()).filter((c) => !linked.has(c.pool) && !owned.some((p) => p.id === c.pool) && tokenClaims(c.token).sub === this.#identity.did)
    await Promise.all(joined.map((c) => this.#mem.sync.connect(c.pool, { url: c.relay, token: c.token })))
  }
}
