import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { DAY, fact } from '../helpers/pools-helpers.js'
import { clock, identityFor, seedCrypto, seeded } from '../helpers/sync-helpers.js'

/**
 * After an open, the fact view's first reconcile of a patch looks only at what changed since the
 * last session (fact-view.ts `reconcile`, the start; issue 31), not at the whole pool. Random
 * histories of one device that closes and opens again between operations (write, update, merge,
 * forget, a memory expiring while the store is closed) must leave `mem.facts` asserting exactly the
 * pool's current factual memories, as without the opens. A failure names the seed:
 * POOLS_REOPEN_SEED=<seed> replays it. (No resolve: after `resolve(id, 'suggested')` a pool opened
 * again can list fewer current memories than the handle that resolved, on main c185b11 too, seeds
 * 4 and 7 of an earlier mix; a derivation matter, not the fact view's, left for its own issue.)
 */

const SEEDS = process.env['POOLS_REOPEN_SEED'] ? [Number(process.env['POOLS_REOPEN_SEED'])] : [1, 2, 3, 4, 5, 6, 7, 8]
const STEPS = 40
const SUBJECTS = ['Aria', 'Bruno', 'Cy']
const PREDICATES = ['lives_in', 'likes', 'works_at']
const OBJECTS = ['Rome', 'Oslo', 'tea', 'coffee', 'Acme', 'Lima']
/** Operations whose maintenance reconciles the fact view. */
const CHANGES = new Set(['write', 'update', 'merge', 'forget'])

let mem: Memory | null = null
let restore: () => void = () => undefined
afterEach(async () => {
  await mem?.close()
  mem = null
  restore()
})

/** Texts of the pool's current facts in `mem.facts`, and the texts its current factual memories say (a query: it records a read). */
async function factTexts(m: Memory, pool: PoolId): Promise<{ have: string[]; want: string[] }> {
  const have = [...new Set((await m.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).map((f) => f.content))].sort()
  const types = new Set((await m.pools.info(pool)).policies.factTypes)
  const all = await m.pools.query(pool, { includeSuperseded: true, includeArchived: true })
  const want = [...new Set(
    all
      .filter((x) => x.current && types.has(x.type) && !x.privacy.ephemeral)
      .map((x) => `${x.content.subject} ${x.content.predicate.replace(/_/g, ' ')} ${String(x.content.object)}${x.content.context ? ` (${x.content.context})` : ''}`),
  )].sort()
  return { have, want }
}

for (const seed of SEEDS) {
  test(`seed ${seed}: the fact view after opens equals the pool's current factual memories`, { timeout: 120_000 }, async () => {
    restore = seedCrypto(seed)
    const rand = seeded(seed)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
    const c = clock()
    const storage = memoryStorage()
    const id = await identityFor('alice')
    const open = (): Promise<Memory> => createMemory({ storage, identity: id, now: c.now })
    mem = await open()
    const pool = (await mem.pools.create({ name: 'reopen', policies: { multiValuedPredicates: ['likes'] } })).id
    const log: string[] = []
    let opens = 0
    for (let step = 0; step < STEPS; step++) {
      const m = mem!
      const current = (await m.pools.export(pool)).memories.filter((x, _, all) => !all.some((y) => y.metadata.supersedes.includes(x.memory_id)))
      const r = rand()
      let op: string
      try {
        if (r < 0.35 || current.length === 0 || step === STEPS - 1) {
          op = 'write'
          await m.pools.write(pool, { ...fact(pick(SUBJECTS), pick(PREDICATES), pick(OBJECTS)), ...(rand() < 0.2 ? { ttl: 3600 } : {}) })
        } else if (r < 0.47) {
          op = 'update'
          const x = pick(current)
          await m.pools.update(x.memory_id, { content: { ...x.content, object: pick(OBJECTS) } })
        } else if (r < 0.55) {
          op = 'merge'
          const a = pick(current)
          const b = current.find((x) => x.memory_id !== a.memory_id && x.type === a.type)
          if (b) await m.pools.merge([a.memory_id, b.memory_id])
        } else if (r < 0.63) {
          op = 'forget'
          await m.pools.forget(pick(current).memory_id, { cascade: rand() < 0.5 })
        } else if (r < 0.68) {
          op = 'query'
          await m.pools.query(pool, { subject: pick(SUBJECTS) })
        } else {
          // Closed, time passes (memories with a TTL may expire meanwhile), opened again.
          op = 'reopen'
          await m.close()
          mem = null
          if (rand() < 0.4) c.advance(rand() < 0.5 ? 2 * 3600_000 : DAY)
          mem = await open()
          opens++
        }
      } catch (err) {
        const code = (err as { code?: string }).code
        if (code !== 'CONFLICT' && code !== 'NOT_FOUND' && code !== 'INVALID_ARGUMENT') throw new Error(`seed ${seed} step ${step} after ${log.slice(-5).join(', ')}: ${(err as Error).message}`, { cause: err })
        op = `refused ${code}`
      }
      log.push(`${step} ${op}`)
      // Compared after each change that follows an open (its reconcile is the start), and at the end.
      // (After an open and a query, nothing has run yet: a memory that expired meanwhile keeps its
      // fact until the first maintenance, with or without the start.)
      if ((log.at(-2)?.endsWith('reopen') && CHANGES.has(op)) || step === STEPS - 1) {
        await mem!.pools.flush()
        const { have, want } = await factTexts(mem!, pool)
        expect(have, `seed ${seed} step ${step} (${log.slice(-6).join(', ')}): POOLS_REOPEN_SEED=${seed}`).toEqual(want)
      }
    }
    expect(opens).toBeGreaterThan(3)
  })
}
