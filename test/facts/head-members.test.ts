import { expect, test } from 'vitest'
import { FactState } from '../../src/facts/state.js'
import { byWrite } from '../../src/facts/write-order.js'
import { mulberry32 } from '../../src/conformance/bootstrap.js'
import type { StoredRecord } from '../../src/storage/schema.js'

// Issue 31 (fourth round): a tenant's current versions are no longer a map of their own but a
// list with each version's place on it (src/facts/head-members.ts). Whatever the order records
// arrive in, and whatever is forgotten, a tenant's candidates must be exactly its live versions
// that nothing live supersedes, in write order, and never another tenant's.

const TENANTS = ['A', 'B', null] as const

/** Chains across three tenants, with forks, and tombstones of some links. */
function records(rand: () => number): StoredRecord[] {
  const out: StoredRecord[] = []
  let n = 0
  for (const tenant of TENANTS) {
    const refs: string[] = []
    for (let i = 0; i < 40; i++) {
      const id = `${tenant ?? 'none'}-${i}`
      // Half start a chain, the rest supersede an earlier version (several forks on one).
      const supersedes = refs.length > 0 && rand() < 0.5 ? refs[Math.floor(rand() * refs.length)]! : null
      const at = Math.floor(rand() * 20) // shared write times: ties are ordered by hlc, then ref
      out.push({
        id, kind: 'fact', tenant, author: null, hlc: `${String(++n).padStart(12, '0')}.000000`,
        body: { content: `fact ${i} of ${tenant}`, factId: id, structuredId: null, metadata: {}, validFrom: at, writtenAt: at, supersedes, source: { writtenBy: null, signature: null, publicKey: null } },
      })
      refs.push(id)
    }
    for (let i = 0; i < 8; i++) {
      const target = refs[Math.floor(rand() * refs.length)]!
      const body = out.find((r) => r.id === target)!.body as { supersedes: string | null }
      out.push({ id: `t-${target}-${i}`, kind: 'tombstone', tenant, author: null, hlc: `${String(++n).padStart(12, '0')}.000000`, body: { target, supersedes: body.supersedes } })
    }
  }
  return out
}

function check(state: FactState, seed: number): void {
  for (const tenant of TENANTS) {
    const live = [...state.versions.values()].filter((v) => v.tenant === tenant)
    const heads = live.filter((v) => state.supersededBy(v.ref) === null)
    const c = state.current(tenant)
    const where = `seed ${seed}, tenant ${tenant}; repro: npx vitest run --project node test/facts/head-members.test.ts`
    expect(c.inWriteOrder().map((v) => v.ref), where).toEqual([...heads].sort(byWrite).map((v) => v.ref))
    expect(state.heads(tenant).map((v) => v.ref).sort(), where).toEqual(heads.map((v) => v.ref).sort())
    for (const v of state.versions.values()) {
      const current = v.tenant === tenant && state.supersededBy(v.ref) === null
      expect(c.get(v.ref), where).toBe(current ? v : undefined)
      if (current) expect(c.indexOf(v), where).toBe(c.inWriteOrder().indexOf(v))
    }
  }
  for (const v of state.versions.values()) expect(state.isHead(v.ref)).toBe(state.supersededBy(v.ref) === null)
}

test('each tenant\'s current versions, in any arrival order and after forgets, are its live versions nothing supersedes', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const rand = mulberry32(seed)
    const all = records(rand)
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      ;[all[i], all[j]] = [all[j]!, all[i]!]
    }
    const state = new FactState(new Set())
    all.forEach((r, i) => {
      state.apply(r)
      // Reads between applies keep the write order in place; others leave it to be rebuilt.
      if (i % 17 === 0) check(state, seed)
    })
    check(state, seed)
    // Forgotten (another handle deleted them): a head's predecessor becomes current again.
    const refs = [...state.versions.keys()]
    for (let i = 0; i < 10; i++) state.forget(refs[Math.floor(rand() * refs.length)]!)
    check(state, seed)
  }
})
