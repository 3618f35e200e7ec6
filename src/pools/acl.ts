import type { AgentDid } from '../core/identity.js'
import { compareRecords, type AclBody, type PoolRecord } from './records.js'
import type { PoolMember, Rights } from './types.js'

interface Grant {
  readonly hlc: string
  readonly id: string
  readonly read: boolean
  readonly write: boolean
  readonly expiresAt: number | null
  /** The member's records this grant leaves their earlier rights (AclBody `cutoff`); null: no cutoff. */
  readonly cutoff: ReadonlySet<string> | null
}

const NONE: Rights = { read: false, write: false, owner: false }
const OWNER: Rights = { read: true, write: true, owner: true }

/**
 * A pool's access control list, derived from its owner-signed `pool-acl` records. For each member
 * the grant in force at a moment is the latest record (by hybrid logical clock, then id) at or
 * before it, so the answer does not depend on the order records arrived in. A record is judged by
 * the rights its author had *at its own timestamp*: a revoked writer's earlier memories stay valid,
 * later ones are ignored. Write implies read. The owner always has every right and cannot be revoked.
 */
export class Acl {
  readonly owner: string
  readonly #grants = new Map<string, Grant[]>()

  constructor(owner: string) {
    this.owner = owner
  }

  /** Adds an owner-signed acl record; records by anyone else must not reach here. */
  add(record: PoolRecord<AclBody>): void {
    const b = record.body
    if (b.member === this.owner) return
    let list = this.#grants.get(b.member)
    if (!list) this.#grants.set(b.member, (list = []))
    if (list.some((g) => g.id === record.id)) return
    list.push({ hlc: record.hlc, id: record.id, read: b.read || b.write, write: b.write, expiresAt: b.expiresAt, cutoff: b.cutoff ? new Set(b.cutoff) : null })
    list.sort(compareRecords)
  }

  /**
   * The rights of `did` at a timestamp: `hlc` (the acting record's clock; null for "now, after
   * every known change") and `wallMs` (for grant expiry). With `id` (the acting record's), every
   * later record with a cutoff that does not list `id` caps the rights to what it grants: the clock
   * is the author's word, the cutoff the owner's, so a record signed after a revocation and dated
   * before it is refused all the same. Still a function of the record set alone.
   */
  at(did: string, hlc: string | null, wallMs: number, id?: string): Rights {
    if (did === this.owner) return OWNER
    const list = this.#grants.get(did)
    if (!list) return NONE
    let grant: Grant | undefined
    if (hlc === null) grant = list.at(-1)
    else for (const g of list) if (g.hlc <= hlc) grant = g
    if (!grant || (grant.expiresAt !== null && wallMs >= grant.expiresAt)) return NONE
    let read = grant.read
    let write = grant.write
    if (hlc !== null && id !== undefined) {
      for (const g of list) {
        if (g.hlc > hlc && g.cutoff !== null && !g.cutoff.has(id)) {
          read &&= g.read
          write &&= g.write
        }
      }
    }
    return read ? { read, write, owner: false } : NONE
  }

  /** Members with a live grant at `now`, the owner first. */
  members(now: number): PoolMember[] {
    const out: PoolMember[] = [{ did: this.owner as AgentDid, read: true, write: true, owner: true, expiresAt: null }]
    for (const [did, list] of [...this.#grants].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const g = list.at(-1)!
      const r = this.at(did, null, now)
      if (r.read) out.push({ did: did as AgentDid, read: r.read, write: r.write, owner: false, expiresAt: g.expiresAt })
    }
    return out
  }
}
