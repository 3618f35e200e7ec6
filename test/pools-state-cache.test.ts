import fc from 'fast-check'
import { beforeAll, expect, test } from 'vitest'
import { isPayload } from '../src/pools/payload.js'
import { PoolKind, type MemoryBody, type PoolRecord } from '../src/pools/records.js'
import { PoolState } from '../src/pools/state.js'
import type { Structure } from '../src/pools/structure.js'
import { T0 } from './pools-helpers.js'
import { recordUniverse, type Universe } from './record-universe.js'

/**
 * PoolState keeps, between derivations, each record's well-formedness, its kind bucket in record
 * order and its verdict against the pool's authority (state.ts `PoolRecords`). Whatever order
 * records arrive and leave in, the structure it derives must be the one a fresh PoolState derives
 * from the same record set. A failure prints the seed and the command that replays it.
 */

const SEED = Number(process.env.POOLS_SEED ?? 20_261_123)
const RUNS = Number(process.env.POOLS_RUNS ?? 200)

let u: Universe
beforeAll(async () => {
  u = await recordUniverse()
})

const payloadOf = (r: PoolRecord): Parameters<PoolState['apply']>[1] => {
  const body = r.body as MemoryBody
  return r.kind === PoolKind.MEMORY && 'payload' in body && isPayload(body.payload) ? body.payload : null
}

/** What a structure says, in plain data (the ACL asked at a few instants for every author). */
function shape(s: Structure | null, authors: readonly string[]): unknown {
  if (!s) return null
  const at = (hlc: string | null, wall: number) => authors.map((a) => s.acl.at(a, hlc, wall))
  return {
    owner: s.owner, tenant: s.tenant, createdAt: s.createdAt, create: s.create.id, policies: s.policies, epoch: s.epoch,
    keys: s.keys.map((k) => k.id),
    memories: [...s.memories.values()].map((m) => [m.id, m.record.id, m.payload !== null]).sort(),
    dead: [...s.dead].sort(), forgotten: [...s.forgotten].sort(), resolutions: [...s.resolutions].sort(),
    access: [...s.access].sort(), ratings: [...s.ratings].sort(),
    acl: [at(null, T0), at(null, T0 + 100), ...u.records.map((r) => at(r.hlc, T0 + 20))],
    members: s.acl.members(T0 + 10),
  }
}

type Op = { readonly t: 'apply' | 'remove'; readonly i: number } | { readonly t: 'derive' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 999 }).map((i): Op => ({ t: 'apply', i })) },
  { weight: 2, arbitrary: fc.nat({ max: 999 }).map((i): Op => ({ t: 'remove', i })) },
  { weight: 2, arbitrary: fc.constant<Op>({ t: 'derive' }) },
)

test('the structure of a PoolState fed records in any order, with removals, equals a fresh derivation of the same set', () => {
  const authors = [...new Set(u.records.map((r) => r.author))]
  const check = (state: PoolState, present: ReadonlySet<PoolRecord>): void => {
    const fresh = new PoolState()
    for (const r of [...present].sort((a, b) => (a.id < b.id ? -1 : 1))) fresh.apply(r, payloadOf(r))
    expect(shape(state.structure(u.pool), authors)).toEqual(shape(fresh.structure(u.pool), authors))
  }
  try {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 80, size: 'max' }), (ops) => {
        const state = new PoolState()
        const present = new Set<PoolRecord>()
        for (const o of ops) {
          if (o.t === 'derive') check(state, present)
          else {
            const r = u.records[o.i % u.records.length]!
            if (o.t === 'apply') {
              state.apply(r, payloadOf(r))
              present.add(r)
            } else {
              state.remove(r.id)
              present.delete(r)
            }
          }
        }
        check(state, present)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: process.env.POOLS_SHRINK === undefined },
    )
  } catch (err) {
    console.error(`PoolState cache property failed with seed ${SEED}.\nRepro: POOLS_SEED=${SEED} POOLS_RUNS=${RUNS} npx vitest run --project node test/pools-state-cache.test.ts`)
    throw err
  }
})
