import type { EvictionReason } from './types.js'

export interface Holding {
  readonly id: string
  readonly agent: string
  readonly weight: number
  /** HLC stamp: larger is more recent. */
  readonly hlc: string
}

export interface Limits {
  readonly maxItemsPerAgent: number
  readonly maxTotalItems: number
}

/** The item an agent loses first: lowest attention, then the least recent (a newcomer wins ties). */
function weakest(items: readonly Holding[]): Holding {
  let w = items[0]!
  for (const it of items) if (it.weight < w.weight || (it.weight === w.weight && it.hlc < w.hlc)) w = it
  return w
}

/**
 * Chooses what capacity evicts (FR-001.2), as a pure function of the live items:
 *
 * 1. Per agent (Miller's 7): while an agent holds more than `maxItemsPerAgent`, it loses its
 *    weakest item. A newcomer below all of its agent's items on a full budget is the one evicted.
 * 2. Globally: while the pool holds more than `maxTotalItems`, the agent holding the most items
 *    loses its weakest, so no single agent dominates the pool. Ties between agents go to the
 *    one whose weakest item is weaker (then older, then the smaller agent id), so the choice is
 *    deterministic on every replica.
 */
export function chooseEvictions(items: readonly Holding[], limits: Limits): Array<{ readonly item: Holding; readonly reason: EvictionReason }> {
  const byAgent = new Map<string, Holding[]>()
  for (const it of items) {
    const list = byAgent.get(it.agent)
    if (list) list.push(it)
    else byAgent.set(it.agent, [it])
  }
  const out: Array<{ item: Holding; reason: EvictionReason }> = []
  const remove = (list: Holding[], victim: Holding, reason: EvictionReason): void => {
    list.splice(list.indexOf(victim), 1)
    out.push({ item: victim, reason })
  }
  for (const list of byAgent.values()) {
    while (list.length > limits.maxItemsPerAgent) remove(list, weakest(list), 'agent-limit')
  }
  let total = items.length - out.length
  while (total > limits.maxTotalItems) {
    let pick: { list: Holding[]; victim: Holding; agent: string } | null = null
    for (const [agent, list] of byAgent) {
      if (list.length === 0) continue
      const victim = weakest(list)
      if (
        !pick ||
        list.length > pick.list.length ||
        (list.length === pick.list.length &&
          (victim.weight < pick.victim.weight ||
            (victim.weight === pick.victim.weight && (victim.hlc < pick.victim.hlc || (victim.hlc === pick.victim.hlc && agent < pick.agent)))))
      ) {
        pick = { list, victim, agent }
      }
    }
    remove(pick!.list, pick!.victim, 'global-limit')
    total--
  }
  return out
}
