import fc from 'fast-check'
import { beforeAll, expect, test } from 'vitest'
import { isPayload } from '../../src/pools/payload.js'
import { PoolKind, type MemoryBody, type PoolRecord } from '../../src/pools/records.js'
import { PoolState } from '../../src/pools/state.js'
import type { Structure } from '../../src/pools/structure.js'
import { contradicts, duplicateKey, norm, slotKey } from '../../src/pools/similarity.js'
import { viewAt, type View } from '../../src/pools/view.js'
import { T0 } from '../helpers/pools-helpers.js'
import { recordUniverse, type Universe } from '../helpers/record-universe.js'

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
    access: [...s.access].sort(), ratings: [...s.ratings].sort(), sealed: s.sealed,
    acl: [at(null, T0), at(null, T0 + 100), ...u.records.map((r) => at(r.hlc, T0 + 20))],
    members: s.acl.members(T0 + 10),
  }
}

/**
 * What a view says, with its conflicts found the plain way (every pair of current memories), as the
 * reference for the index that keeps them as memories come and go (current-index.ts).
 */
function viewShape(v: View | null): unknown {
  if (!v) return null
  const current = [...v.current.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  const multi = new Set(v.s.policies.multiValuedPredicates.map(norm))
  const pairs: string[] = []
  for (let i = 0; i < current.length; i++) {
    for (let j = i + 1; j < current.length; j++) {
      const a = current[i]!, b = current[j]!
      const kind = slotKey(a.payload) === slotKey(b.payload) && contradicts(a.payload, b.payload, v.s.policies.similarity, multi)
        ? 'contradiction'
        : a.payload.supersedes.some((x) => b.payload.supersedes.includes(x)) ? 'competing-update' : null
      if (kind) pairs.push(`${kind} ${a.id} ${b.id}`)
    }
  }
  // Each memory's own conflicts, as a reply shows them, against the partners the plain pairs give.
  const partners = new Map<string, string[]>()
  for (const p of pairs) {
    const [, a, b] = p.split(' ') as [string, string, string]
    partners.set(a, [...(partners.get(a) ?? []), b])
    partners.set(b, [...(partners.get(b) ?? []), a])
  }
  return {
    conflictsWith: current.map((m) => v.index.conflictsWith(m, Infinity).join(',')),
    plainConflictsWith: current.map((m) => (partners.get(m.id) ?? []).sort().join(',')),
    live: [...v.live.keys()].sort(), expired: v.expired.map((m) => m.id).sort(), current: current.map((m) => m.id),
    supersededBy: [...v.supersededBy].sort(), stableUntil: v.stableUntil,
    conflicts: pairs.sort(),
    indexed: v.index.conflicts().map((c) => `${c.kind} ${c.memories[0]} ${c.memories[1]}`).sort(),
    duplicates: current.map((m) => v.index.duplicate(duplicateKey(m.payload))?.id ?? null),
  }
}

type Op = { readonly t: 'apply' | 'remove'; readonly i: number } | { readonly t: 'derive' } | { readonly t: 'view' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 999 }).map((i): Op => ({ t: 'apply', i })) },
  { weight: 2, arbitrary: fc.nat({ max: 999 }).map((i): Op => ({ t: 'remove', i })) },
  { weight: 2, arbitrary: fc.constant<Op>({ t: 'derive' }) },
  // Building the view early makes later memory records patch it in place.
  { weight: 2, arbitrary: fc.constant<Op>({ t: 'view' }) },
)

test('the structure and view of a PoolState fed records in any order, with removals, equal a fresh derivation of the same set', () => {
  const authors = [...new Set(u.records.map((r) => r.author))]
  const check = (state: PoolState, present: ReadonlySet<PoolRecord>): void => {
    const fresh = new PoolState()
    for (const r of [...present].sort((a, b) => (a.id < b.id ? -1 : 1))) fresh.apply(r, payloadOf(r))
    expect(shape(state.structure(u.pool), authors)).toEqual(shape(fresh.structure(u.pool), authors))
    // The view the state keeps (patched as memories arrive) equals one built from the fresh structure, at two instants.
    for (const now of [T0 + 50, T0 + 10 * 86_400_000]) {
      const s = fresh.structure(u.pool)
      const got = viewShape(state.view(u.pool, now)) as { conflicts: string[]; indexed: string[]; conflictsWith: string[]; plainConflictsWith: string[] } | null
      expect(got).toEqual(viewShape(s ? viewAt(s, now) : null))
      if (got) expect(got.indexed).toEqual(got.conflicts)
      if (got) expect(got.conflictsWith).toEqual(got.plainConflictsWith)
    }
  }
  try {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 80, size: 'max' }), (ops) => {
        const state = new PoolState()
        const present = new Set<PoolRecord>()
        for (const o of ops) {
          if (o.t === 'derive') check(state, present)
          else if (o.t === 'view') state.view(u.pool, T0 + 50)
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
    console.error(`PoolState cache property failed with seed ${SEED}.\nRepro: POOLS_SEED=${SEED} POOLS_RUNS=${RUNS} npx vitest run --project node test/pools/pools-state-cache.test.ts`)
    throw err
  }
})

/** The same records derived afresh, in id order. */
function freshState(present: ReadonlyMap<string, PoolRecord>): PoolState {
  const fresh = new PoolState()
  for (const r of [...present.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) fresh.apply(r, payloadOf(r))
  return fresh
}

/** The view `state` keeps at `now` equals the one built from `fresh`, and its index lists exactly its conflicts. */
function expectViewAsFresh(state: PoolState, fresh: PoolState, now: number): void {
  const got = viewShape(state.view(u.pool, now)) as { conflicts: string[]; indexed: string[] }
  expect(got).toEqual(viewShape(viewAt(fresh.structure(u.pool)!, now)))
  expect(got.indexed).toEqual(got.conflicts)
}

/**
 * Records signed (in shape) by the pool's owner: `record` any kind at a stamp `n` after T0 + 100,
 * `memoryAt` memory `ids[i]` placing Aria or Bruno in Rome, Oslo or Lima, superseding `ids[k]`.
 */
function ownerRecords(create: PoolRecord, ids: readonly string[]) {
  const hlc = (n: number): string => `${String(T0 + 100 + n).padStart(15, '0')}:0000:n`
  const record = (id: string, kind: PoolKind, body: unknown, n: number): PoolRecord =>
    ({ id, kind, pool: u.pool, tenant: create.tenant, body, author: create.author, hlc: hlc(n), sig: 'x' }) as PoolRecord
  const memoryAt = (i: number, subject: number, object: number, supersedes: number[], ttl: number | null): PoolRecord =>
    record(ids[i]!, PoolKind.MEMORY, {
      payload: {
        type: 'KNOWLEDGE', subject: ['Aria', 'Bruno'][subject]!, predicate: 'lives_in', object: ['Rome', 'Oslo', 'Lima'][object]!, context: null,
        confidence: 1, source: 'direct_statement', evidence: [], createdAt: T0 + i, ttl, permanent: false, visibility: 'AUTHORIZED',
        ephemeral: false, noTraining: false, supersedes: supersedes.map((k) => ids[k]!), merged: null,
      },
    }, i)
  return { record, memoryAt }
}

/**
 * The same property on histories rich in what the view and its index track: memories in few slots
 * (contradictions, duplicates), supersession links (to earlier memories, to ones not arrived yet,
 * to forgotten ones), TTLs, tombstones, resolutions, reads and ratings, all by the pool's owner.
 */
test('the view and conflicts a PoolState patches as memory, access and rating records arrive equal a fresh derivation', () => {
  const create = u.records.find((r) => r.kind === PoolKind.CREATE && r.pool === u.pool)!
  const owner = create.author
  const ids = Array.from({ length: 24 }, (_, i) => `m${String(i).padStart(2, '0')}`)
  const { record, memoryAt } = ownerRecords(create, ids)
  const item = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.nat(23), fc.nat(1), fc.nat(2), fc.array(fc.nat(23), { maxLength: 2 }), fc.constantFrom(null, null, null, 1, 100_000))
        .map(([i, s, o, sup, ttl]) => memoryAt(i, s, o, sup.filter((k) => k !== i), ttl)) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(23), fc.nat(99)).map(([i, n]) => record(`t${i}-${n}`, PoolKind.TOMBSTONE, { targets: [{ id: ids[i]!, supersedes: [] }], reason: 'forget' }, 30 + n)) },
    { weight: 1, arbitrary: fc.tuple(fc.nat(23), fc.nat(23), fc.nat(99)).map(([w, l, n]) => record(`r${w}-${l}-${n}`, PoolKind.RESOLVE, { winner: ids[w]!, losers: [ids[l]!] }, 30 + n)) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(23), fc.nat(99)).map(([i, n]) => record(`a${i}-${n}`, PoolKind.ACCESS, { reads: [ids[i]!], at: T0 + n }, 30 + n)) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(23), fc.constantFrom(-1, 0.5, 1), fc.nat(99)).map(([i, v, n]) => record(`g${i}-${n}`, PoolKind.RATING, { memory: ids[i]!, rating: v }, 30 + n)) },
  )
  const step = fc.oneof(
    { weight: 6, arbitrary: item.map((r) => ({ t: 'apply' as const, r })) },
    { weight: 1, arbitrary: fc.nat(40).map((i) => ({ t: 'remove' as const, i })) },
    { weight: 2, arbitrary: fc.nat(3).map((k) => ({ t: 'view' as const, k })) },
  )
  const instants = [T0 + 50, T0 + 5_000, T0 + 10 * 86_400_000]
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
      const state = new PoolState()
      const present = new Map<string, PoolRecord>([[create.id, create]])
      state.apply(create, null)
      const check = (): void => {
        const fresh = freshState(present)
        expect(shape(state.structure(u.pool), [owner])).toEqual(shape(fresh.structure(u.pool), [owner]))
        for (const now of instants) expectViewAsFresh(state, fresh, now)
      }
      for (const s of steps) {
        if (s.t === 'apply') {
          // One id, one record: a second record under an id already present is not a new record.
          if (present.has(s.r.id)) continue
          state.apply(s.r, payloadOf(s.r))
          present.set(s.r.id, s.r)
        } else if (s.t === 'remove') {
          const r = [...present.values()][s.i % present.size]!
          if (r.kind === PoolKind.CREATE) continue
          state.remove(r.id)
          present.delete(r.id)
        } else state.view(u.pool, instants[s.k % instants.length]!)
      }
      check()
    }),
    { seed: SEED, numRuns: RUNS },
  )
})

/**
 * Issue 31: a forget is patched into the view in place (view.ts `forget`), not built again. The
 * tombstones here carry the forgotten memory's own links, as `mem.pools.forget` writes them (the
 * test above gives its tombstones none, which the patch leaves to a rebuild), and the memory's row
 * is sometimes removed after it (the hard delete). The view the state keeps must equal one built
 * from a fresh derivation of the same set, at every instant.
 */
test('a forget patched into the view equals a fresh derivation: chains through the forgotten memory, resolutions, expiry', () => {
  const create = u.records.find((r) => r.kind === PoolKind.CREATE && r.pool === u.pool)!
  // Ids as the record shape wants them in links and targets (32 hex digits): a malformed link or target is ignored.
  const ids = Array.from({ length: 8 }, (_, i) => i.toString(16).padStart(32, '0'))
  const { record, memoryAt } = ownerRecords(create, ids)
  const step = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.nat(7), fc.nat(1), fc.nat(2), fc.array(fc.nat(7), { maxLength: 2 }), fc.constantFrom(null, null, null, 1, 100_000))
        // Links to earlier memories, so that chains form (a link to one not here yet derives the pool again).
        .map(([i, s, o, sup, ttl]) => ({ t: 'apply' as const, r: memoryAt(i, s, o, sup.map((k) => k % Math.max(i, 1)).filter((k) => k !== i), ttl) })) },
    { weight: 3, arbitrary: fc.tuple(fc.nat(7), fc.nat(99), fc.boolean()).map(([i, n, hard]) => ({ t: 'forget' as const, i, n, hard })) },
    { weight: 1, arbitrary: fc.tuple(fc.nat(7), fc.nat(7), fc.nat(99)).map(([w, l, n]) => ({ t: 'apply' as const, r: record(`r${w}-${l}-${n}`, PoolKind.RESOLVE, { winner: ids[w]!, losers: [ids[l]!] }, 30 + n) })) },
    { weight: 3, arbitrary: fc.nat(2).map((k) => ({ t: 'view' as const, k })) },
  )
  const instants = [T0 + 50, T0 + 5_000, T0 + 10 * 86_400_000]
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
      const state = new PoolState()
      const present = new Map<string, PoolRecord>([[create.id, create]])
      state.apply(create, null)
      const check = (k: number): void => expectViewAsFresh(state, freshState(present), instants[k]!)
      for (const s of steps) {
        if (s.t === 'apply') {
          if (present.has(s.r.id)) continue
          state.apply(s.r, payloadOf(s.r))
          present.set(s.r.id, s.r)
        } else if (s.t === 'forget') {
          // Mostly a memory held here (the usual forget), now and then an id with no record.
          const held = ids.filter((id) => present.has(id))
          const id = held.length > 0 && s.i < 7 ? held[s.i % held.length]! : ids[s.i]!
          const target = present.get(id)
          const links = target ? [...((target.body as MemoryBody & { payload: { supersedes: string[] } }).payload.supersedes)] : []
          const t = record(`t${s.i}-${s.n}`, PoolKind.TOMBSTONE, { targets: [{ id, supersedes: links }], reason: 'forget' }, 30 + s.n)
          if (present.has(t.id)) continue
          // A view to patch, as a device has one (a memory arriving that something named makes the pool derive again, without one).
          state.view(u.pool, instants[0]!)
          state.apply(t, null)
          present.set(t.id, t)
          if (s.hard && target) {
            state.remove(target.id)
            present.delete(target.id)
          }
        } else check(s.k)
      }
      for (const k of instants.keys()) check(k)
    }),
    { seed: SEED, numRuns: RUNS },
  )
})

test('a forget in the middle of a chain patches the view in place: its successor supersedes what it did, and nothing else is rebuilt (issue 31)', () => {
  const create = u.records.find((r) => r.kind === PoolKind.CREATE && r.pool === u.pool)!
  const hlc = (n: number): string => `${String(T0 + 100 + n).padStart(15, '0')}:0000:n`
  const record = (id: string, kind: PoolKind, body: unknown, n: number): PoolRecord =>
    ({ id, kind, pool: u.pool, tenant: create.tenant, body, author: create.author, hlc: hlc(n), sig: 'x' }) as PoolRecord
  const memory = (id: string, object: string, supersedes: string[], n: number): PoolRecord => record(id, PoolKind.MEMORY, {
    payload: {
      type: 'KNOWLEDGE', subject: 'Aria', predicate: 'lives_in', object, context: null, confidence: 1, source: 'direct_statement',
      evidence: [], createdAt: T0 + n, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes, merged: null,
    },
  }, n)
  const [a, b, c, x] = ['a', 'b', 'c', 'd'].map((h) => h.repeat(32)) as [string, string, string, string]
  const state = new PoolState()
  const chain = [create, memory(a, 'Rome', [], 1), memory(b, 'Oslo', [a], 2), memory(c, 'Lima', [b], 3), memory(x, 'Bern', [], 4)]
  for (const r of chain) state.apply(r, payloadOf(r))
  const before = state.view(u.pool, T0 + 50)!
  expect([...before.current.keys()]).toEqual([c, x])
  state.apply(record('t', PoolKind.TOMBSTONE, { targets: [{ id: b, supersedes: [a] }], reason: 'forget' }, 5), null)
  state.remove(b)
  const after = state.view(u.pool, T0 + 50)!
  // The same maps, changed in place: the view was not built again over the pool.
  expect(after.live).toBe(before.live)
  expect([...after.live.keys()].sort()).toEqual([a, c, x])
  expect(after.supersededBy.get(a)).toEqual([c])
  expect([...after.current.keys()].sort()).toEqual([c, x])
  // Forgetting the head makes what it superseded current again.
  state.apply(record('u', PoolKind.TOMBSTONE, { targets: [{ id: c, supersedes: [b] }], reason: 'forget' }, 6), null)
  const last = state.view(u.pool, T0 + 50)!
  expect(last.live).toBe(before.live)
  expect([...last.current.keys()].sort()).toEqual([a, x])
  expect(viewShape(last)).toEqual(viewShape(viewAt(state.structure(u.pool)!, T0 + 50)))
  // A resolution's winner forgotten: its loser is current again.
  const y = 'e'.repeat(32)
  state.apply(memory(y, 'Bern', [], 7), payloadOf(memory(y, 'Bern', [], 7)))
  state.apply(record('r', PoolKind.RESOLVE, { winner: y, losers: [x] }, 8), null)
  expect([...state.view(u.pool, T0 + 50)!.current.keys()].sort()).toEqual([a, y])
  state.apply(record('v', PoolKind.TOMBSTONE, { targets: [{ id: y, supersedes: [] }], reason: 'forget' }, 9), null)
  const resolved = state.view(u.pool, T0 + 50)!
  expect([...resolved.current.keys()].sort()).toEqual([a, x])
  expect(viewShape(resolved)).toEqual(viewShape(viewAt(state.structure(u.pool)!, T0 + 50)))
})
