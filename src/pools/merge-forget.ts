import { decodeHlc } from '../core/clock.js'
import type { AgentDid } from '../core/identity.js'
import { invalidArgument } from '../core/errors.js'
import { assertStrategy, parseMemoryId, parsePoolId } from './input.js'
import { predecessors, writeMerge } from './maintenance.js'
import type { PoolParts } from './parts.js'
import { denied, notFound } from './replica.js'
import { forgetLog } from './state.js'
import type { ForgetOptions, ForgottenMemory, MemoryId, MergeStrategy, PoolMemory } from './types.js'

/**
 * Memories leaving the current view: merged into one (LCS-004 §4.4, the sources stay as
 * provenance), or forgotten (§4.5: hard-deleted, a tombstone keeps only ids and chain links), by
 * hand, by cascade, or swept when expired or past the pool's maxSize.
 */
export class MergeForget {
  readonly #p: PoolParts

  constructor(parts: PoolParts) {
    this.#p = parts
  }

  async merge(memoryIds: readonly string[], strategy: MergeStrategy = 'average'): Promise<PoolMemory> {
    const { r } = this.#p
    if (!Array.isArray(memoryIds)) throw invalidArgument('memoryIds', 'must be an array')
    const ids = [...new Set(memoryIds.map((id, i) => parseMemoryId(id, `memoryIds[${i}]`)))]
    if (ids.length < 2) throw invalidArgument('memoryIds', 'needs at least two distinct memories')
    const strat = assertStrategy(strategy)
    await r.ready()
    const found = ids.map((id) => {
      const f = r.findLive(id)
      if (!f) throw notFound('memory', id)
      return f
    })
    const ctx = found[0]!.ctx
    if (found.some((f) => f.ctx.s.id !== ctx.s.id)) throw invalidArgument('memoryIds', 'must all belong to one pool')
    r.mustWrite(ctx)
    const merged = await writeMerge(r, ctx, found.map((f) => f.m), strat)
    await this.#p.upkeep.afterCommit(ctx.s.id, [merged])
    return this.#p.show.one(merged, ctx.s.id)
  }

  async forget(memoryId: string, options: ForgetOptions = {}): Promise<MemoryId[]> {
    const { r } = this.#p
    const id = parseMemoryId(memoryId)
    if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
    await r.ready()
    const pool = r.state.poolOf(id)
    if (!pool || !r.state.structure(pool)) return []
    const ctx = r.context(pool)
    r.mustWrite(ctx)
    if (!ctx.s.memories.has(id)) return []
    const targets: string[] = [id]
    if (options.cascade === true) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[i]!
        for (const m of ctx.s.memories.values()) {
          const p = m.payload
          if (p && !targets.includes(m.id) && (p.evidence.includes(t) || p.merged?.from.includes(t))) targets.push(m.id)
        }
      }
    }
    const reason = options.cascade === true ? 'cascade' : 'forget'
    // Refused whole, before anything is written: a tombstone of another's memory would be ignored by every replica.
    const allowed = new Set(this.#p.upkeep.forgettable(ctx, targets.map((t) => ctx.s.memories.get(t)!), reason))
    const refused = targets.filter((t) => !allowed.has(t))
    if (refused.length) {
      throw denied(`only a memory's author or the pool's owner may forget it (pool policy forgetBy: ${ctx.s.policies.forgetBy})`, { pool, ids: refused })
    }
    const dirty = predecessors(ctx.s, targets)
    await r.tombstone(ctx.s, targets, reason)
    await this.#p.upkeep.afterCommit(pool, dirty)
    return targets as MemoryId[]
  }

  async forgotten(poolId: string): Promise<ForgottenMemory[]> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    await r.ready()
    const ctx = r.context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    return forgetLog(ctx.s, (id) => r.state.record(id)).map(({ id, by }) => ({
      memory: id as MemoryId, by: by.author as AgentDid, reason: by.body.reason, at: decodeHlc(by.hlc).wall,
    }))
  }

  async sweep(poolId: string): Promise<MemoryId[]> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    await r.ready()
    const ctx = r.context(pool)
    r.mustWrite(ctx)
    const before = new Set(ctx.s.memories.keys())
    await this.#p.upkeep.afterCommit(pool, [])
    await r.ready()
    const after = r.context(pool).s.memories
    return [...before].filter((id) => !after.has(id)).sort() as MemoryId[]
  }
}
