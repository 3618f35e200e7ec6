import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { FactRef } from '../facts/types.js'
import type { FactView } from './fact-view.js'
import { poolInfo, toPoolMemory } from './present.js'
import type { Ctx, PoolReplica } from './replica.js'
import type { LiveMemory, Structure } from './structure.js'
import type { MemoryId, PoolId, PoolInfo, PoolMemory } from './types.js'

/** A memory's `conflictsWith` names at most this many (`conflictGroups()` lists every member of a conflict). */
export const MAX_CONFLICTS_WITH = 100

/**
 * Turns a pool's view into what the API returns (present.ts holds the pure conversions): the fact
 * refs of its memories, their conflicts, the pool's name (opened once in an encrypted pool).
 */
export class Presenter {
  readonly #r: PoolReplica
  readonly #factView: FactView
  readonly #names = new Map<string, string | null>()

  constructor(r: PoolReplica, factView: FactView) {
    this.#r = r
    this.#factView = factView
  }

  async present(ctx: Ctx, memories: readonly LiveMemory[], readNow: boolean): Promise<PoolMemory[]> {
    // The refs of these memories only: a lookup by memory id costs what it returns, whatever the pool holds.
    const factRefs: Map<string, FactRef> = memories.length ? await this.#factView.refs(ctx.view, memories.map((m) => m.id)) : new Map()
    // Each memory's own slot and predecessors: a reply costs what it shows, whatever conflicts the pool holds.
    const conflicts = new Map(memories.map((m) => [m.id, ctx.view.index.conflictsWith(m, MAX_CONFLICTS_WITH) as MemoryId[]]))
    return memories.map((m) => toPoolMemory(ctx.view, m, { factRefs, conflicts, readNow }))
  }

  /** A memory just written (into `pool`, when the caller knows it), as the API returns it. */
  async one(memoryId: string, into?: PoolId): Promise<PoolMemory> {
    await this.#r.ready()
    const found = this.#r.findLive(memoryId)
    if (!found) {
      // Stored but not valid: the writer's access was revoked while the write was on its way (a
      // revocation that arrived from another replica): every replica ignores the record. The sync
      // layer may already have taken it out of storage (its plan refuses it), and then this state
      // no longer knows its pool: the writer's does.
      const pool = this.#r.state.poolOf(memoryId) ?? into ?? null
      const s = pool ? this.#r.state.structure(pool) : null
      if (s && !s.memories.has(memoryId) && !s.forgotten.has(memoryId)) {
        throw new MemweaveError(ErrorCode.PERMISSION_DENIED, `${this.#r.identity?.did ?? 'this memory'} lost write access to pool ${s.id} while writing; the write was refused`, { pool: s.id })
      }
      // A tombstone from another replica arrived while the operation ran (a resolve's winner that
      // was forgotten there meanwhile): the memory is gone everywhere, as if it had been forgotten first.
      if (s?.forgotten.has(memoryId)) {
        throw new MemweaveError(ErrorCode.NOT_FOUND, `memory ${memoryId} was forgotten (by a tombstone from another replica) while the operation ran`, { id: memoryId })
      }
      throw new MemweaveError(ErrorCode.INTERNAL, `memory ${memoryId} vanished right after it was written`)
    }
    return (await this.present(found.ctx, [found.m], false))[0]!
  }

  /** The name of a pool this handle founded (known before its sealed name could be opened). */
  rememberName(pool: PoolId, name: string): void {
    this.#names.set(pool, name)
  }

  async #name(s: Structure): Promise<string | null> {
    const body = s.create.body
    if (!body.sealedName) return body.name
    if (!this.#names.has(s.id) || this.#names.get(s.id) === null) {
      this.#names.set(s.id, await this.#r.ring.openText(s.create, body.sealedName))
    }
    return this.#names.get(s.id) ?? null
  }

  async info(ctx: Ctx): Promise<PoolInfo> {
    const refused = ctx.rights.read ? this.#factView.refused(ctx.view) : []
    return poolInfo(ctx.view, ctx.rights, ctx.rights.read ? await this.#name(ctx.s) : null, refused)
  }
}
