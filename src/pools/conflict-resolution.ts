import { invalidArgument } from '../core/errors.js'
import { assertStrategy, parseMemoryId, parsePoolId } from './input.js'
import { writeMerge } from './maintenance.js'
import type { PoolParts } from './parts.js'
import { PoolKind } from './records.js'
import { denied, notFound } from './replica.js'
import type {
  ConflictDecision, ConflictGroupPage, ConflictListOptions, MemoryId, MergeStrategy, PoolConflict, PoolConflictGroup, PoolMemory,
} from './types.js'

/** The largest page of a conflict listing, and the default. */
const MAX_LIMIT = 10_000
const DEFAULT_LIMIT = 1_000
/** A resolution's losers go into records of at most this many (a group of 20,000 is 20 records, not one of 700 kB). */
const LOSERS_PER_RECORD = 1_000
/** A merge takes at most this many memories: a larger group is settled by picking a winner. */
const MAX_MERGED = 1_000

function listOptions(options: ConflictListOptions | undefined): { limit: number; offset: number } {
  if (options === undefined) return { limit: DEFAULT_LIMIT, offset: 0 }
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
  const { limit = DEFAULT_LIMIT, offset = 0 } = options
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalidArgument('options.limit', `must be an integer in 1..${MAX_LIMIT}`)
  if (!Number.isInteger(offset) || offset < 0) throw invalidArgument('options.offset', 'must be a non-negative integer')
  return { limit, offset }
}

/**
 * Conflicts among a pool's current memories (current-index.ts finds them, conflicts.ts suggests per LCS-004 §6),
 * flagged and never settled silently: nothing changes until an agent or a person resolves one.
 */
export class ConflictResolution {
  readonly #p: PoolParts

  constructor(parts: PoolParts) {
    this.#p = parts
  }

  async conflicts(poolId: string, options?: ConflictListOptions): Promise<PoolConflict[]> {
    const { limit } = listOptions(options)
    return [...(await this.#readable(poolId)).conflicts(limit)]
  }

  async conflictGroups(poolId: string, options?: ConflictListOptions): Promise<ConflictGroupPage> {
    const { limit, offset } = listOptions(options)
    const groups = (await this.#readable(poolId)).groups()
    return { total: groups.length, groups: groups.slice(offset, offset + limit) }
  }

  async #readable(poolId: string) {
    const pool = parsePoolId(poolId)
    await this.#p.r.ready()
    const ctx = this.#p.r.context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    return ctx.view.index
  }

  /** Settles a conflict group or pair (a group of two has its pair's id). */
  async resolve(conflictId: string, decision: ConflictDecision = 'suggested'): Promise<PoolMemory> {
    const { r } = this.#p
    if (typeof conflictId !== 'string') throw invalidArgument('conflictId', 'must be a string')
    await r.ready()
    for (const pool of r.state.poolIds()) {
      if (!r.state.structure(pool)) continue
      const ctx = r.context(pool)
      if (!ctx.rights.read) continue
      // A group by id, else a pair of a larger group within the longest listing anyone was given.
      const conflict: PoolConflict | PoolConflictGroup | undefined =
        ctx.view.index.group(conflictId) ?? ctx.view.index.conflicts(MAX_LIMIT).find((c) => c.id === conflictId)
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
        const puts = []
        for (let i = 0; i < losers.length; i += LOSERS_PER_RECORD) {
          puts.push({ record: await r.sign(ctx.s, PoolKind.RESOLVE, { winner, losers: losers.slice(i, i + LOSERS_PER_RECORD) }) })
        }
        await r.save(puts)
        // Both sides: a resolution that reverses an earlier one makes that one's loser current again.
        await this.#p.upkeep.afterCommit(pool, conflict.memories)
        return this.#p.show.one(winner, pool)
      }
      if (conflict.memories.length > MAX_MERGED) {
        throw invalidArgument('decision', `${conflict.memories.length} memories are too many to merge (at most ${MAX_MERGED}): pick a winner`)
      }
      const merged = await writeMerge(r, ctx, conflict.memories.map((id) => ctx.view.live.get(id)!), strategy!)
      await this.#p.upkeep.afterCommit(pool, [merged])
      return this.#p.show.one(merged, pool)
    }
    throw notFound('conflict', conflictId)
  }
}
