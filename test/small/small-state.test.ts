import fc from 'fast-check'
import { expect, test } from 'vitest'
import { SMALL_DOCS } from '../../src/small/layout.js'
import { SMALL_DOC_KIND, SMALL_PROGRESS_KIND, SmallState } from '../../src/small/state.js'
import type { StoredRecord } from '../../src/storage/schema.js'

const HUMAN = 'did:key:human'
const PROJECTS = ['p', 'q'] as const

/** Document versions (each replacing an earlier one of its slot, or none), progress entries, some pooled, some by an agent writing intent (refused). */
const records = fc
  .array(
    fc.record({
      project: fc.constantFrom(...PROJECTS),
      name: fc.constantFrom('intent', 'plan', 'progress'),
      entry: fc.boolean(),
      prev: fc.nat(),
      human: fc.boolean(),
      pool: fc.boolean(),
      ts: fc.nat({ max: 5 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((specs) => {
    const out: StoredRecord[] = []
    specs.forEach((s, i) => {
      const common = { id: `r${i}`, tenant: null, author: s.human ? HUMAN : 'did:key:agent', hlc: `0000${i}`, ...(s.pool ? { pool: 'shared' } : {}) }
      if (s.entry) {
        out.push({ ...common, kind: SMALL_PROGRESS_KIND, body: { project: s.project, entry: { task_id: 't', evidence: `e${i}`, timestamp: `2026-01-01T00:00:0${s.ts}Z` } } })
        return
      }
      const slot = out.filter((r) => r.kind === SMALL_DOC_KIND && (r.body as { project: string; name: string }).project === s.project && (r.body as { name: string }).name === s.name)
      const prev = slot.length && s.prev % 3 ? slot[s.prev % slot.length]!.id : null
      out.push({ ...common, kind: SMALL_DOC_KIND, body: { project: s.project, name: s.name, text: `text ${i}`, prev } })
    })
    return out
  })

function view(state: SmallState) {
  return {
    projects: state.projects(),
    each: PROJECTS.map((p) => ({
      current: SMALL_DOCS.map((n) => state.current(p, n)?.id ?? null),
      entries: state.entries(p).map((e) => e.id),
      conflicts: state.conflicts(p),
      pool: state.poolOf(p),
    })),
  }
}

test('SmallState: removing records leaves what applying the rest derives, whatever the orders (a replaced version comes back)', () => {
  fc.assert(
    fc.property(records.chain((rs) => fc.tuple(fc.constant(rs), fc.shuffledSubarray(rs), fc.shuffledSubarray(rs.map((r) => r.id)))), ([rs, order, removed]) => {
      const humans = new Set([HUMAN])
      const state = new SmallState(humans)
      for (const r of [...order, ...rs]) state.apply(r)
      for (const id of removed) state.remove(id)
      const fresh = new SmallState(humans)
      for (const r of rs.filter((r) => !removed.includes(r.id))) fresh.apply(r)
      const got = view(state)
      const want = view(fresh)
      // Refusals are listed in arrival order: compare them as sets.
      const sorted = (v: ReturnType<typeof view>) => ({ ...v, each: v.each.map((e) => ({ ...e, conflicts: [...e.conflicts].sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1) })) })
      expect(sorted(got)).toEqual(sorted(want))
    }),
  )
})
