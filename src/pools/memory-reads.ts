import { assertQueryOptions, parseMemoryId, parsePoolId } from './input.js'
import { predecessors } from './maintenance.js'
import type { PoolParts } from './parts.js'
import { toPoolMemory } from './present.js'
import { PoolKind } from './records.js'
import { denied, type Ctx, type Put } from './replica.js'
import { norm } from './similarity.js'
import type { LiveMemory } from './structure.js'
import type { Lifecycle, PoolMemory, QueryOptions } from './types.js'

/**
 * Reading memories (LCS-004 §4.3). A member's read is counted: one `pool-access` record lists what
 * it returned, committed before the read returns, and it consumes EPHEMERAL memories of others.
 * PUBLIC memories are readable by anyone; everything else needs read access.
 */
export class MemoryReads {
  readonly #p: PoolParts

  constructor(parts: PoolParts) {
    this.#p = parts
  }

  async get(memoryId: string): Promise<PoolMemory | null> {
    const { r } = this.#p
    const id = parseMemoryId(memoryId)
    await r.ready()
    const found = r.findLive(id)
    if (!found) return null
    const { ctx, m } = found
    if (!ctx.rights.read && m.payload.visibility !== 'PUBLIC') throw denied(`${r.identity?.did ?? 'this memory'} may not read pool ${ctx.s.id}`, { pool: ctx.s.id })
    const [out] = await this.#p.show.present(ctx, [m], ctx.rights.read)
    await this.#noteReads(ctx, [m])
    return out!
  }

  async status(memoryId: string): Promise<Lifecycle | null> {
    const { r } = this.#p
    const id = parseMemoryId(memoryId)
    await r.ready()
    for (const pool of r.state.poolIds()) {
      const s = r.state.structure(pool)
      if (!s || !(s.memories.has(id) || s.forgotten.has(id))) continue
      const ctx = r.context(pool)
      const m = ctx.view.live.get(id)
      if (!ctx.rights.read && m?.payload.visibility !== 'PUBLIC') throw denied(`may not read pool ${pool}`, { pool })
      if (!m) return s.forgotten.has(id) || s.memories.get(id)?.payload ? 'forgotten' : null
      return (await this.#p.show.present(ctx, [m], false))[0]!.lifecycle
    }
    return null
  }

  async query(poolId: string, options: QueryOptions = {}): Promise<PoolMemory[]> {
    const { ctx, chosen, out } = await this.#select(poolId, options, true)
    await this.#noteReads(ctx, chosen)
    return out
  }

  /**
   * What query() returns, not counted as a read: nothing is written and no EPHEMERAL memory is
   * consumed. A live view (PoolStore.subscribe) re-runs on every change of the pool; counted, it
   * would write a read record per change and consume an ephemeral memory the moment it arrived.
   */
  async view(poolId: string, options: QueryOptions = {}): Promise<PoolMemory[]> {
    return (await this.#select(poolId, options, false)).out
  }

  async #select(poolId: string, options: QueryOptions, counted: boolean): Promise<{ ctx: Ctx; chosen: LiveMemory[]; out: PoolMemory[] }> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    const q = assertQueryOptions(options)
    await r.ready()
    const ctx = r.context(pool)
    if (!ctx.rights.read && !q.publicOnly) {
      throw denied(`${r.identity?.did ?? 'this memory'} may not read pool ${pool} (a non-member may query it with publicOnly)`, { pool })
    }
    const source = [...(q.includeSuperseded ? ctx.view.live : ctx.view.current).values()]
    let hits = source.filter((m) => {
      const p = m.payload
      if (q.publicOnly && p.visibility !== 'PUBLIC') return false
      if (q.types && !q.types.has(p.type)) return false
      if (p.confidence < q.minConfidence) return false
      if (q.forTraining && p.noTraining) return false
      if (q.subject !== null && norm(p.subject) !== norm(q.subject)) return false
      if (q.predicate !== null && norm(p.predicate) !== norm(q.predicate)) return false
      return true
    })
    // A first pass without fact refs or conflicts: enough to filter by lifecycle and to sort.
    let presented = hits.map((m) => toPoolMemory(ctx.view, m, { factRefs: new Map(), conflicts: new Map() }))
    if (!q.includeArchived) {
      const keep = new Set<string>(presented.filter((m) => m.lifecycle !== 'archived' || (q.includeSuperseded && !m.current)).map((m) => m.id))
      hits = hits.filter((m) => keep.has(m.id))
      presented = presented.filter((m) => keep.has(m.id))
    }
    const order = presented.map((m, i) => ({ m, i }))
    order.sort(({ m: a }, { m: b }) => {
      const primary = q.orderBy === 'recent' ? b.createdAt - a.createdAt : q.orderBy === 'confidence' ? b.confidence - a.confidence : b.importance - a.importance
      return primary || b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1)
    })
    const chosen = (q.limit === null ? order : order.slice(0, q.limit)).map(({ i }) => hits[i]!)
    const out = await this.#p.show.present(ctx, chosen, counted && ctx.rights.read)
    return { ctx, chosen, out }
  }

  /**
   * Bookkeeping of a read by a member, committed before the read returns: one `pool-access` record,
   * the consumption of EPHEMERAL memories written by others, and (for a writer) expired memories swept.
   */
  async #noteReads(ctx: Ctx, read: readonly LiveMemory[]): Promise<void> {
    if (!ctx.rights.read) return
    const { r } = this.#p
    const me = r.me()
    const puts: Put[] = []
    if (read.length) puts.push({ record: await r.sign(ctx.s, PoolKind.ACCESS, { reads: read.map((m) => m.id).sort(), at: ctx.now }) })
    const consumed = this.#p.upkeep.forgettable(ctx, read.filter((m) => m.payload.ephemeral && m.record.author !== me.did), 'ephemeral')
    const expired = ctx.rights.write ? this.#p.upkeep.forgettable(ctx, ctx.view.expired, 'expired') : []
    if (consumed.length) await r.tombstone(ctx.s, consumed, 'ephemeral', puts.splice(0))
    if (expired.length) await r.tombstone(ctx.s, expired, 'expired', puts.splice(0))
    if (puts.length) await r.save(puts)
    if (consumed.length || expired.length) {
      const dirty = predecessors(ctx.s, [...consumed, ...expired])
      if (ctx.rights.write) await this.#p.upkeep.afterCommit(ctx.s.id, dirty)
    }
  }
}
