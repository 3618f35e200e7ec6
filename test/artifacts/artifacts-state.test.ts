import fc from 'fast-check'
import { expect, test } from 'vitest'
import { ARTIFACT_VERSION_KIND, ArtifactState } from '../../src/artifacts/state.js'
import type { StoredRecord } from '../../src/storage/schema.js'

/** Versions of two artifacts, each naming up to two earlier versions of its own artifact as parents. */
const history = fc.array(fc.record({ slug: fc.constantFrom('a', 'b'), parents: fc.array(fc.nat(), { maxLength: 2 }), pool: fc.boolean() }), { minLength: 1, maxLength: 12 }).map((specs) => {
  const records: StoredRecord[] = []
  specs.forEach((s, i) => {
    const earlier = records.filter((r) => (r.body as { slug: string }).slug === s.slug)
    const parents = earlier.length ? [...new Set(s.parents.map((p) => earlier[p % earlier.length]!.id))] : []
    records.push({
      id: `v${i}`, kind: ARTIFACT_VERSION_KIND, tenant: null, author: null, hlc: `0000${i}`,
      body: { slug: s.slug, version: i + 1, parents, text: `text ${i}` }, ...(s.pool ? { pool: 'p' } : {}),
    })
  })
  return records
})

function view(state: ArtifactState) {
  return state.slugs().map((slug) => ({ slug, heads: state.heads(slug), all: state.all(slug), texts: state.heads(slug).map((h) => state.text(h.id) ?? null) }))
}

test('ArtifactState: removing records leaves what applying the rest derives, whatever the orders (a head that vanishes gives its parents back)', () => {
  fc.assert(
    fc.property(history.chain((records) => fc.tuple(fc.constant(records), fc.shuffledSubarray(records), fc.shuffledSubarray(records.map((r) => r.id)))), ([records, order, removed]) => {
      const state = new ArtifactState()
      for (const r of [...order, ...records]) state.apply(r)
      for (const id of removed) state.remove(id)
      const fresh = new ArtifactState()
      for (const r of records.filter((r) => !removed.includes(r.id))) fresh.apply(r)
      // Texts are a cache of heads (a head that came back is read from storage): compare where both have one.
      const got = view(state)
      const want = view(fresh)
      expect(got.map(({ texts: _, ...v }) => v)).toEqual(want.map(({ texts: _, ...v }) => v))
      got.forEach((v, i) => v.texts.forEach((t, j) => t !== null && expect(t).toBe(want[i]!.texts[j])))
    }),
  )
})
