import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { parseMemoryId, parsePoolId } from './input.js'
import type { PoolParts } from './parts.js'
import { buildPayload } from './payload-input.js'
import { PoolKind, type MemoryPayload } from './records.js'
import { denied, notFound, type Ctx } from './replica.js'
import { duplicateKey } from './similarity.js'
import type { LiveMemory } from './structure.js'
import type { PoolId, PoolMemory, UpdateMemoryInput, WriteMemoryInput } from './types.js'

/**
 * New memories and new versions of them (LCS-004 §4.1), with the pool's policies applied on the
 * way in: deduplication (also between writes of one batch), maxSize, EPHEMERAL memories that end
 * with this session; and a user's rating of a memory (§8 `user_feedback`).
 */
export class MemoryWrites {
  readonly #p: PoolParts
  /** Duplicate key -> id of memories this handle wrote: same-batch deduplication without re-deriving the pool. */
  readonly #written = new Map<string, string>()
  readonly #sessionEphemeral = new Set<string>()

  constructor(parts: PoolParts) {
    this.#p = parts
  }

  async write(poolId: string, input: WriteMemoryInput): Promise<PoolMemory> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    await r.ready()
    const ctx = r.context(pool)
    r.mustWrite(ctx)
    const payload = buildPayload(input, ctx.s, ctx.now)
    assertEvidence(ctx, payload.evidence)
    const max = ctx.s.policies.maxSize
    if (max !== null && ctx.view.live.size >= max && everyPermanent(ctx)) {
      throw new MemweaveError(ErrorCode.QUOTA_EXCEEDED, `pool ${pool} holds ${max} permanent memories (its maxSize): nothing can be pruned`, { pool })
    }
    const dup = duplicateOf(ctx, payload)
    if (dup) return (await this.#p.show.present(ctx, [dup], false))[0]!
    const put = await r.memoryRecord(ctx.s, payload)
    const key = `${pool}\u001f${duplicateKey(payload)}`
    const id = await r.write([put], async (w) => {
      // Same-tick writes: a twin committed earlier in this batch answers instead.
      const twinId = ctx.s.policies.deduplication && !payload.ephemeral ? this.#written.get(key) : undefined
      if (twinId && r.state.has(twinId) && r.state.structure(pool) && duplicateOf(r.context(pool), payload)?.id === twinId) return twinId
      await w.append([put.record])
      if (this.#written.size > 10_000) this.#written.clear()
      this.#written.set(key, put.record.id)
      return put.record.id
    })
    if (payload.ephemeral && id === put.record.id) this.#sessionEphemeral.add(id)
    const replaced = await this.#p.upkeep.afterCommit(pool, [id])
    return this.#p.show.one(replaced.get(id) ?? id, pool)
  }

  async update(memoryId: string, changes: UpdateMemoryInput): Promise<PoolMemory> {
    const { r } = this.#p
    const id = parseMemoryId(memoryId)
    await r.ready()
    const found = r.findLive(id)
    if (!found) throw notFound('memory', id)
    const { ctx, m } = found
    r.mustWrite(ctx)
    if (ctx.view.supersededBy.has(id)) throw new MemweaveError(ErrorCode.CONFLICT, `memory ${id} is superseded by ${ctx.view.supersededBy.get(id)!.join(', ')}`, { id })
    if (m.payload.ephemeral) throw invalidArgument('memoryId', 'an EPHEMERAL memory cannot be updated')
    const payload = { ...buildPayload(changes ?? {}, ctx.s, ctx.now, m.payload), supersedes: [id] }
    assertEvidence(ctx, payload.evidence)
    const put = await r.memoryRecord(ctx.s, payload)
    await r.save([put])
    await this.#p.upkeep.afterCommit(ctx.s.id, [put.record.id])
    return this.#p.show.one(put.record.id, ctx.s.id)
  }

  async rate(memoryId: string, rating: number): Promise<void> {
    const { r } = this.#p
    const id = parseMemoryId(memoryId)
    if (typeof rating !== 'number' || !Number.isFinite(rating) || rating < -1 || rating > 1) throw invalidArgument('rating', 'must be a number in [-1, 1]')
    await r.ready()
    const found = r.findLive(id)
    if (!found) throw notFound('memory', id)
    if (!found.ctx.rights.read) throw denied(`may not read pool ${found.ctx.s.id}`, { pool: found.ctx.s.id })
    await r.save([{ record: await r.sign(found.ctx.s, PoolKind.RATING, { memory: id, rating }) }])
  }

  /** The session ends: EPHEMERAL memories this handle wrote and nobody consumed are forgotten. */
  async endSession(): Promise<void> {
    const { r } = this.#p
    if (this.#sessionEphemeral.size === 0) return
    await r.ready()
    const byPool = new Map<PoolId, string[]>()
    for (const id of this.#sessionEphemeral) {
      const pool = r.state.poolOf(id)
      if (pool && r.state.structure(pool)?.memories.has(id)) byPool.set(pool, [...(byPool.get(pool) ?? []), id])
    }
    for (const [pool, ids] of byPool) await r.tombstone(r.context(pool).s, ids, 'session-end')
  }
}

/** With deduplication, the current memory that `payload` duplicates. */
function duplicateOf(ctx: Ctx, payload: MemoryPayload): LiveMemory | undefined {
  if (!ctx.s.policies.deduplication || payload.ephemeral) return undefined
  return ctx.view.index.duplicate(duplicateKey(payload))
}

/** Whether every live memory is permanent (stops at the first that is not). */
function everyPermanent(ctx: Ctx): boolean {
  for (const m of ctx.view.live.values()) if (!m.payload.permanent) return false
  return true
}

function assertEvidence(ctx: Ctx, evidence: readonly string[]): void {
  evidence.forEach((id, i) => {
    if (!ctx.view.live.has(id)) throw invalidArgument(`evidence[${i}]`, `${id} is not a live memory of pool ${ctx.s.id}`)
  })
}
