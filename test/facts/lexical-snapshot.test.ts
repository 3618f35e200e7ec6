import fc from 'fast-check'
import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
type FactStore = GmpFactStore
import { LexicalIndex } from '../../src/facts/lexical-index.js'
import { memoryStorage, type MemoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * Issue 15: a store opens from the lexical snapshot saved on close instead of tokenizing every fact
 * again. Whatever the snapshot's age, the answers must be those of a store that rebuilt its index
 * from the records: facts written after the snapshot are indexed on open, and a snapshot that
 * indexes a fact no longer stored is not trusted.
 */

const WORDS = ['lemon', 'cake', 'garden', 'tomato', 'dentist', 'friday', 'north', 'blue', 'widget', 'paris']
const QUERIES = ['lemon cake', 'garden', 'dentist friday north', 'blue widget paris', 'tomato', 'nothing here']

type Meta = { key: string }
const lexicalRows = async (s: MemoryStorage): Promise<Meta[]> =>
  (await s.read(['meta'], (tx) => tx.all<Meta>('meta'))).filter((r) => r.key.startsWith('facts.lexical'))
const putRows = (s: MemoryStorage, rows: readonly Meta[]): Promise<unknown> => s.write(['meta'], (tx) => tx.put('meta', rows))
const dropRows = async (s: MemoryStorage): Promise<void> => {
  const keys = (await lexicalRows(s)).map((r) => r.key)
  await s.write(['meta'], (tx) => tx.delete('meta', keys))
}

async function answers(facts: FactStore): Promise<string[][]> {
  const out: string[][] = []
  for (const q of QUERIES) {
    for (const tenantId of [null, 't1']) out.push((await facts.retrieve(q, { budgetTokens: 300, tenantId })).map((m) => m.ref))
  }
  return out
}

const step = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
  tenant: fc.constantFrom<string | null>(null, null, 't1'),
  action: fc.constantFrom('write', 'write', 'write', 'supersede', 'delete'),
  pick: fc.nat(),
})

test('opening from a snapshot, stale or not, answers as a rebuild from the records does', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), fc.array(step, { minLength: 0, maxLength: 30 }), async (before, after) => {
      let tick = Date.UTC(2025, 0, 1)
      const storage = memoryStorage()
      // The test's own handle: the storage stays open between the sessions.
      await storage.open()
      // Every size of store snapshots here (the default waits for 1,000 facts).
      const open = async (): Promise<FactStore> => new GmpFactStore(storage, { now: () => (tick += 1000), lexicalSnapshotMin: 0 })
      const refs: string[] = []
      const apply = async (mem: FactStore, steps: typeof before): Promise<void> => {
        for (const s of steps) {
          const content = `${s.words.join(' ')} note ${refs.length}`
          const ref = refs[s.pick % Math.max(1, refs.length)]
          if (s.action === 'delete' && ref) await mem.delete(ref)
          else if (s.action === 'supersede' && ref) refs.push(await mem.supersede(ref, content, { tenantId: s.tenant }).catch(() => ref))
          else refs.push(await mem.write(content, { tenantId: s.tenant }))
        }
      }
      const first = await open()
      await apply(first, before)
      await first.close()
      const saved = await lexicalRows(storage)

      // Another session writes (and deletes) more, then its snapshot is replaced by the older one:
      // a session that ended without closing, or a store written by an older handle.
      const second = await open()
      await apply(second, after)
      const live = await answers(second)
      await second.close()
      await dropRows(storage)
      await putRows(storage, saved)

      const fromOld = await open()
      expect(await answers(fromOld)).toEqual(live)
      await fromOld.close()
      // Closing after indexing on open saves a snapshot of the full, current index.
      const fresh = await open()
      expect(await answers(fresh)).toEqual(live)
      await fresh.close()
      await dropRows(storage)
      const rebuilt = await open()
      expect(await answers(rebuilt)).toEqual(live)
      await rebuilt.close()
    }),
    { numRuns: 40 },
  )
}, 120_000)

test('a restored index scores, adds and removes as the index it was taken of', () => {
  const a = new LexicalIndex()
  const docs: Array<[string, string[]]> = Array.from({ length: 50 }, (_, i) => [`d${i}`, [WORDS[i % 10]!, WORDS[(i * 3) % 10]!, WORDS[(i * 7) % 10]!, 'x']])
  for (const [ref, terms] of docs) a.add(ref, terms)
  for (const [ref, terms] of docs.filter((_, i) => i % 4 === 0)) a.remove(ref, terms)
  const b = LexicalIndex.restore(structuredClone(a.snapshot()))
  for (const idx of [a, b]) {
    idx.add('new1', ['lemon', 'lemon', 'cake'])
    idx.remove('d1', docs[1]![1])
    idx.add('new2', ['garden', 'y'])
  }
  const scores = (idx: LexicalIndex): Array<[string, number]> => {
    const out: Array<[string, number]> = []
    idx.score(new Map([['lemon', 1], ['garden', 1], ['x', 1]])).forEach((s, ref) => out.push([ref, s]))
    return out.sort((x, y) => (x[0] < y[0] ? -1 : 1))
  }
  expect(scores(b)).toEqual(scores(a))
  expect(b.size).toBe(a.size)
  expect(b.nearest(['lemon', 'cake'], 5)).toEqual(a.nearest(['lemon', 'cake'], 5))
  expect(LexicalIndex.restore(new LexicalIndex().snapshot()).size).toBe(0)
})

test('issue 31: a restored index takes the attached versions\' refs; refs no version claims are counted, and the index still scores them until settled', () => {
  const a = new LexicalIndex()
  for (let i = 0; i < 20; i++) a.add(`doc-${i}-${'x'.repeat(20)}`, [WORDS[i % 10]!, 'x'])
  const b = LexicalIndex.restore(structuredClone(a.snapshot()))
  expect(b.size).toBe(20)
  expect(b.unattached).toBe(20)
  const docs = new Map<string, { ref: string }>()
  for (let i = 0; i < 19; i++) {
    const ref = `doc-${i}-${'x'.repeat(20)}`
    docs.set(ref, { ref })
    expect(b.attach(ref, docs.get(ref))).toBe(true)
    b.mark(ref, true)
  }
  expect(b.attach('never-indexed', {})).toBe(false)
  // One snapshot ref no version claimed: FactState rebuilds such an index (checkLexical).
  expect(b.unattached).toBe(1)
  expect([...b.refs()].sort()).toEqual([...a.refs()].sort())
  expect(b.has(`doc-19-${'x'.repeat(20)}`)).toBe(true)
  const all = (idx: LexicalIndex): Array<[string, number]> => {
    const out: Array<[string, number]> = []
    idx.score(new Map([['x', 1], ['lemon', 1]])).forEach((s, ref) => out.push([ref, s]))
    return out.sort((x, y) => (x[0] < y[0] ? -1 : 1))
  }
  expect(all(b)).toEqual(all(a))
  b.remove(`doc-19-${'x'.repeat(20)}`, [WORDS[19 % 10]!, 'x'])
  expect(b.unattached).toBe(0)
  expect(b.size).toBe(19)
  b.settled()
  // The restored index snapshots as an index built document by document would.
  const c = new LexicalIndex()
  for (let i = 0; i < 20; i++) c.add(`doc-${i}-${'x'.repeat(20)}`, [WORDS[i % 10]!, 'x'])
  c.remove(`doc-19-${'x'.repeat(20)}`, [WORDS[19 % 10]!, 'x'])
  expect(b.snapshot()).toEqual(c.snapshot())
})

test('issue 31: scoreLive reuses its score buffer, and a query run from inside another\'s callback sees its own scores', () => {
  const idx = new LexicalIndex()
  for (let i = 0; i < 300; i++) {
    const ref = `d${i}`
    idx.add(ref, [WORDS[i % 10]!, WORDS[(i * 7) % 10]!, i % 3 === 0 ? 'lemon' : 'cake'], ref)
    idx.mark(ref, i % 5 !== 0)
  }
  const live = (q: Map<string, number>): Array<[string, number]> => {
    const out: Array<[string, number]> = []
    idx.scoreLive(q, 1.2, 0.75, (s, doc) => out.push([doc as string, s]))
    return out.sort((x, y) => (x[0] < y[0] ? -1 : 1))
  }
  const reference = (q: Map<string, number>): Array<[string, number]> => {
    const out: Array<[string, number]> = []
    idx.score(q, 1.2, 0.75).forEach((s, ref) => {
      if (Number(ref.slice(1)) % 5 !== 0) out.push([ref, s])
    })
    return out.sort((x, y) => (x[0] < y[0] ? -1 : 1))
  }
  const queries = [new Map([['lemon', 1]]), new Map([['cake', 1], ['garden', 1]]), new Map([['lemon', 1], ['tomato', 1], ['paris', 1]])]
  for (let round = 0; round < 2; round++) for (const q of queries) expect(live(q)).toEqual(reference(q))
  // Re-entrant: the outer query's scores were read before its callbacks run.
  const outer: Array<[string, number]> = []
  let inner: Array<[string, number]> = []
  idx.scoreLive(queries[0]!, 1.2, 0.75, (s, doc) => {
    outer.push([doc as string, s])
    if (outer.length === 1) inner = live(queries[1]!)
  })
  expect(outer.sort((x, y) => (x[0] < y[0] ? -1 : 1))).toEqual(reference(queries[0]!))
  expect(inner).toEqual(reference(queries[1]!))
})

test('issue 31 (open37): settling a restored index drops the refs no version claimed from its lookup, and keeps the attached ones', () => {
  const a = new LexicalIndex()
  for (let i = 0; i < 5; i++) a.add(`doc-${i}-${'y'.repeat(20)}`, [WORDS[i]!, 'y'])
  const b = LexicalIndex.restore(structuredClone(a.snapshot()))
  for (let i = 0; i < 4; i++) expect(b.attach(`doc-${i}-${'y'.repeat(20)}`, { i })).toBe(true)
  // Attaching again does not count a ref twice.
  expect(b.attach(`doc-0-${'y'.repeat(20)}`, { i: 0 })).toBe(true)
  expect(b.unattached).toBe(1)
  b.settled()
  expect(b.unattached).toBe(0)
  expect(b.has(`doc-4-${'y'.repeat(20)}`)).toBe(false)
  expect(b.attach(`doc-4-${'y'.repeat(20)}`, { i: 4 })).toBe(false)
  expect(b.size).toBe(4)
  expect([...b.refs()].sort()).toEqual([0, 1, 2, 3].map((i) => `doc-${i}-${'y'.repeat(20)}`))
  for (let i = 0; i < 4; i++) b.mark(`doc-${i}-${'y'.repeat(20)}`, true)
  const docs: unknown[] = []
  b.scoreLive(new Map([['y', 1]]), 1.2, 0.75, (_, doc) => docs.push(doc))
  expect(docs.length).toBe(4)
})
