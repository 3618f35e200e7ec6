import { invalidArgument } from '../core/errors.js'
import { assertStrategy, parseMemoryId, parsePoolId } from './input.js'
import { writeMerge } from './maintenance.js'
import type { PoolParts } from './parts.js'
import { PoolKind } from './records.js'
import { denied, notFound } from './replica.js'
import type { ConflictDecision, MemoryId, MergeStrategy, PoolConflict, PoolMemory } from './types.js'

/**
 * Conflicts among a pool's current memories (current-index.ts finds them, conflicts.ts suggests per LCS-004 §6),
 * flagged and never settled silently: nothing changes until an agent or a person resolves one.
 */
export class ConflictResolution {
  readonly #p: PoolParts

  constructor(parts: PoolParts) {
    this.#p = parts
  }

  async conflicts(poolId: string): Promise<PoolConflict[]> {
    const pool = parsePoolId(poolId)
    await this.#p.r.ready()
    const ctx = this.#p.r.context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    return [...ctx.view.index.conflicts()]
  }

  async resolve(conflictId: string, decision: ConflictDecision = 'suggested'): Promise<PoolMemory> {
    const { r } = this.#p
    if (typeof conflictId !== 'string') throw invalidArgument('conflictId', 'must be a string')
    await r.ready()
    for (const pool of r.state.poolIds()) {
      if (!r.state.structure(pool)) continue
      const ctx = r.context(pool)
      if (!ctx.rights.read) continue
      const conflict = ctx.view.index.conflicts().find((c) => c.id === conflictId)
      if (!conflict) continue
      r.mustWrite(ctx)
      let winner: string | null = null
      let strategy: MergeStrategy | null = null
      if (decision === 'suggested') {
        winner = conflict.suggestion.winner
        strategy = conflict.suggestion.strategy ?? 'average'
      } else if (typeof decision === 'object' && decision !== null && 'winner' in decision) {
        winner = parseMemoryId(decision.winner, 'decision.winner')
        if (!conflict.memories.includes(winner as MemoryId)) throw invalidArgument('decision.winner', 'must be one of the conflicting memories')
      } else if (typeof decision === 'object' && decision !== null && 'strategy' in decision) {
        strategy = assertStrategy(decision.strategy, 'decision.strategy')
      } else throw invalidArgument('decision', 'must be {winner}, {strategy} or "suggested"')
      if (winner !== null) {
        const losers = conflict.memories.filter((m) => m !== winner)
        await r.save([{ record: await r.sign(ctx.s, PoolKind.RESOLVE, { winner, losers }) }])
        // Both sides: a resolution that reverses an earlier one makes that one's loser current again.
        await this.#p.upkeep.afterCommit(pool, conflict.memories)
        return this.#p.show.one(winner, pool)
      }
      const merged = await writeMerge(r, ctx, conflict.memories.map((id) => ctx.view.live.get(id)!), strategy!)
      await this.#p.upkeep.afterCommit(pool, [merged])
      return this.#p.show.one(merged, pool)
    }
    throw notFound('conflict', conflictId)
  }
}
