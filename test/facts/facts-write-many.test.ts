import { expect, test } from 'vitest'
import { createIdentity } from '../../src/core/identity.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { GmpFactStore } from '../../src/facts/store.js'
import type { FactRef, FactWrite, FactMemory as Fact } from '../../src/facts/types.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { seeded } from '../helpers/sync-helpers.js'

/**
 * `writeMany` (FactLookup, the bulk path of the pools' fact view) gives what the same writes and
 * supersessions called one after another give: the same versions, chains, idempotent answers and
 * signatures, in the same order; and a bad input stores none of the batch.
 */

/** What a version says, without what depends on when it was written (refs, times, sequences). */
function shape(all: readonly Fact[]): unknown[] {
  const index = new Map(all.map((f, i) => [f.ref, i]))
  return all.map((f) => ({
    content: f.content, metadata: f.metadata, tenantId: f.tenantId, factId: f.factId,
    supersededBy: f.supersededBy === null ? null : index.get(f.supersededBy), writtenBy: f.source?.writtenBy, signed: f.source?.signature != null,
  }))
}

test('writeMany equals the same writes one after another: versions, chains, re-assertions and order', async () => {
  const identity = await createIdentity({ seed: new Uint8Array(32).fill(3) })
  const random = seeded(7)
  for (let round = 0; round < 20; round++) {
    const one = new GmpFactStore(memoryStorage(), { identity })
    const many = new GmpFactStore(memoryStorage(), { identity })
    // A history both stores share, so supersessions have something to continue.
    const oneRefs: FactRef[] = []
    const manyRefs: FactRef[] = []
    for (let i = 0; i < 6; i++) {
      const options = { metadata: { subject: `s${i % 3}`, predicate: 'p', object: i } }
      oneRefs.push(await one.write(`base ${i % 4}`, options))
      manyRefs.push(await many.write(`base ${i % 4}`, options))
    }
    // A batch with repeats of a text (in the batch and of the history), supersessions, tenants and validFrom.
    const plan: Array<{ content: string; options: FactWrite['options']; supersedes: number | null }> = []
    for (let i = 0; i < 12; i++) {
      const r = random()
      plan.push({
        content: r < 0.3 ? `base ${Math.floor(random() * 4)}` : `new ${Math.floor(random() * 5)}`,
        options: {
          metadata: { subject: `s${i % 3}`, predicate: 'p', object: `o${i}` },
          ...(random() < 0.2 ? { tenantId: 'acme' } : {}),
          ...(random() < 0.2 ? { validFrom: '2026-01-02T03:04:05Z' } : {}),
        },
        supersedes: random() < 0.3 ? Math.floor(random() * oneRefs.length) : null,
      })
    }
    const seqRefs: FactRef[] = []
    for (const p of plan) {
      seqRefs.push(p.supersedes === null ? await one.write(p.content, p.options) : await one.supersede(oneRefs[p.supersedes]!, p.content, p.options))
    }
    const bulkRefs = await many.writeMany(plan.map((p) => ({ content: p.content, options: p.options, supersedes: p.supersedes === null ? null : manyRefs[p.supersedes]! })))
    expect(bulkRefs).toHaveLength(plan.length)
    const a = await one.audit()
    const b = await many.audit()
    expect(shape(b)).toEqual(shape(a))
    // Which writes were answered by an earlier version (idempotent), and by which one, agrees too.
    const at = (all: readonly Fact[], refs: readonly FactRef[]) => refs.map((r) => all.findIndex((f) => f.ref === r))
    expect(at(b, bulkRefs)).toEqual(at(a, seqRefs))
    // Sequence order is the order of the batch.
    const fresh = [...new Set(bulkRefs)].filter((r) => !manyRefs.includes(r)).map((r) => b.find((f) => f.ref === r)!.sequence)
    expect(fresh).toEqual([...fresh].sort())
    for (const f of b) expect(await many.verifyProvenance(f, f.factId)).toBe(true)
    await one.close()
    await many.close()
  }
})

test('a bad input anywhere in a batch stores none of it, with the code write() gives', async () => {
  const store = new GmpFactStore(memoryStorage())
  await store.write('kept')
  const before = await store.audit()
  for (const bad of [{ content: 42 }, { content: 'x', options: { metadata: { importance: Number.NaN } } }, { content: 'x', options: { validFrom: 'yesterday' } }] as unknown as FactWrite[]) {
    const err = await store.writeMany([{ content: 'fine one' }, { content: 'fine two' }, bad]).catch((e: unknown) => e)
    expect(isMemweaveError(err) && err.code).toBe('INVALID_ARGUMENT')
  }
  expect(await store.audit()).toEqual(before)
  expect(await store.writeMany([])).toEqual([])
  await store.close()
})
