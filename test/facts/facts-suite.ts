import { describe, expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { createIdentity, createMemory, isMemweaveError, type CreateMemoryOptions, type Embedder, type Memory, type StoragePort } from '../../src/index.js'

/**
 * Behaviour of the GMP fact store beyond the conformance suite, run against every storage: the
 * in-memory adapter and Dexie over fake-indexeddb in Node, Dexie on real IndexedDB in Chromium.
 */
export interface FactsEnv {
  /** `options()` opens a new storage handle (a StoragePort object) on one shared, initially empty database per `fresh()`. */
  fresh(): { options(extra?: Partial<CreateMemoryOptions>): CreateMemoryOptions & { storage: StoragePort }; raw(): Promise<string> }
}

const iso = (d: string): string => `${d}T00:00:00.000000+00:00`

async function expectCode(p: Promise<unknown>, code: string, field?: string): Promise<void> {
  try {
    await p
  } catch (err) {
    expect(isMemweaveError(err)).toBe(true)
    expect((err as { code: string }).code).toBe(code)
    if (field) expect((err as { details: { field?: string } }).details.field).toBe(field)
    return
  }
  throw new Error(`expected a ${code} error`)
}

export function factStoreSuite(label: string, env: FactsEnv): void {
  describe(`fact store on ${label}`, () => {
    async function open(extra: Partial<CreateMemoryOptions> = {}): Promise<{ mem: Memory; db: ReturnType<FactsEnv['fresh']> }> {
      const db = env.fresh()
      return { mem: await createMemory(db.options(extra)), db }
    }

    test('Rome, Milan, Turin: supersession, as-of, audit, tenants', async () => {
      const { mem } = await open()
      const f = mem.facts
      const md = (object: string) => ({ metadata: { subject: 'Aria', predicate: 'lives_in', object } })
      const rome = await f.write('Aria lives in Rome', { validFrom: iso('2020-01-01'), tenantId: 'A', ...md('Rome') })
      const milan = await f.supersede(rome, 'Aria lives in Milan', { validFrom: iso('2022-01-01'), tenantId: 'A', ...md('Milan') })
      const turin = await f.supersede(milan, 'Aria lives in Turin', { validFrom: iso('2024-01-01'), tenantId: 'A', ...md('Turin') })
      const otherRome = await f.write('Aria lives in Rome', { validFrom: iso('2020-01-01'), tenantId: 'B', ...md('Rome') })
      const contents = async (o: { asOf?: string | null; tenantId?: string | null }) =>
        (await f.retrieve('where does Aria live', { budgetTokens: 1000, ...o })).map((m) => m.content)
      expect(await contents({ tenantId: 'A' })).toEqual(['Aria lives in Turin'])
      expect(await contents({ tenantId: 'A', asOf: iso('2021-05-05') })).toEqual(['Aria lives in Rome'])
      expect(await contents({ tenantId: 'A', asOf: iso('2023-05-05') })).toEqual(['Aria lives in Milan'])
      expect(await contents({ tenantId: 'A', asOf: iso('2019-05-05') })).toEqual([])
      expect(await contents({ tenantId: 'B', asOf: iso('2023-05-05') })).toEqual(['Aria lives in Rome'])
      expect(await contents({ tenantId: null })).toEqual([])
      const audit = await f.audit()
      const byRef = new Map(audit.map((m) => [m.ref, m]))
      expect(byRef.get(rome)).toMatchObject({ supersededBy: milan, validUntil: iso('2022-01-01'), tenantId: 'A' })
      expect(byRef.get(milan)).toMatchObject({ supersededBy: turin, validUntil: iso('2024-01-01') })
      expect(byRef.get(turin)).toMatchObject({ supersededBy: null, validUntil: null })
      expect(byRef.get(otherRome)!.factId).not.toBe(byRef.get(rome)!.factId)
      expect(byRef.get(otherRome)!.structuredId).not.toBe(byRef.get(rome)!.structuredId)
      expect(audit.map((m) => m.sequence)).toEqual([...audit.map((m) => m.sequence)].sort())
      await mem.close()
    })

    test('hard delete removes every row and index entry holding the content; siblings survive', async () => {
      const { mem, db } = await open()
      const secret = 'Aria keeps the spare key under the blue flowerpot'
      const keep = await mem.facts.write('Aria waters the blue flowerpot on Sundays')
      const gone = await mem.facts.write(secret, { metadata: { subject: 'spare key', predicate: 'hidden_under', object: 'blue flowerpot' } })
      const next = await mem.facts.supersede(gone, 'Aria moved the spare key to the mailbox')
      expect(await mem.facts.delete(gone)).toBe(true)
      expect(await mem.facts.delete(gone)).toBe(false)
      for (const q of [secret, 'spare key flowerpot', '']) {
        const hits = await mem.facts.retrieve(q, { budgetTokens: 100_000 })
        expect(hits.map((m) => m.ref)).not.toContain(gone)
        expect(hits.map((m) => m.ref)).toContain(keep)
      }
      expect((await mem.facts.audit()).map((m) => m.ref).sort()).toEqual([keep, next].sort())
      await mem.facts.flush()
      {
        const raw = await db.raw()
        expect(raw).not.toContain('spare key under')
        expect(raw).not.toContain('hidden_under')
        expect(raw).toContain('waters the blue flowerpot')
      }
      await mem.close()
    })

    test('hard delete also drops the lexical snapshot holding the stems of the deleted content; the next one leaves them out', async () => {
      const db = env.fresh()
      // The store alone on the storage, snapshotting at any size (a Memory waits for 1,000 facts).
      const store = (): GmpFactStore => new GmpFactStore(db.options().storage, { lexicalSnapshotMin: 0 })
      const facts = store()
      const secret = 'Quentin hides the xylophonist ledger behind the zanzibarite panel'
      const gone = await facts.write(secret, { metadata: { subject: 'ledger', predicate: 'hidden_behind', object: 'zanzibarite panel' } })
      const keep = await facts.write('Quentin tunes the piano behind the panel on Mondays')
      await facts.close()
      // Closing saved the snapshot: the stems of the secret are stored beside its record.
      expect(await db.raw()).toContain('xylophonist')
      expect(await db.raw()).toContain('zanzibarit')
      const again = store()
      expect((await again.retrieve('xylophonist ledger', { budgetTokens: 1000 })).map((m) => m.ref)).toEqual([gone, keep])
      expect(await again.delete(gone)).toBe(true)
      await again.flush()
      {
        const raw = await db.raw()
        expect(raw).not.toContain('xylophonist')
        expect(raw).not.toContain('zanzibarit')
      }
      await again.close()
      // The snapshot saved on close indexes what is left, and nothing of the deleted fact.
      const raw = await db.raw()
      expect(raw).not.toContain('xylophonist')
      expect(raw).not.toContain('zanzibarit')
      expect(raw).toContain('Quentin tunes the piano')
      expect(raw).toContain('facts.lexical')
      const third = store()
      expect((await third.retrieve('xylophonist ledger piano', { budgetTokens: 1000 })).map((m) => m.ref)).toEqual([keep])
      await third.close()
    })

    test('delete repairs the chain: the predecessor links to the successor, or becomes current again', async () => {
      const { mem } = await open()
      const f = mem.facts
      const a = await f.write('Widget costs 10', { validFrom: iso('2020-01-01') })
      const b = await f.supersede(a, 'Widget costs 12', { validFrom: iso('2021-01-01') })
      const c = await f.supersede(b, 'Widget costs 15', { validFrom: iso('2022-01-01') })
      await f.delete(b)
      const audit = new Map((await f.audit()).map((m) => [m.ref, m]))
      expect(audit.get(a)).toMatchObject({ supersededBy: c, validUntil: iso('2022-01-01') })
      expect((await f.retrieve('Widget', { asOf: iso('2021-06-01') })).map((m) => m.ref)).toEqual([a])
      await f.delete(c)
      expect((await f.retrieve('Widget')).map((m) => m.ref)).toEqual([a])
      expect((await f.get(a))!.supersededBy).toBeNull()
      await mem.close()
    })

    test('contradictions are flagged on both sides, kept, and resolved only by supersede or delete', async () => {
      const { mem } = await open({ facts: { multiValuedPredicates: ['likes'] } })
      const f = mem.facts
      const rome = await f.assert({ subject: 'Aria', predicate: 'lives_in', object: 'Rome' })
      const milan = await f.assert({ subject: 'aria', predicate: 'Lives_In', object: 'Milan' })
      await f.assert({ subject: 'Aria', predicate: 'likes', object: 'tea' })
      await f.assert({ subject: 'Aria', predicate: 'likes', object: 'coffee' })
      await f.assert({ subject: 'Aria', predicate: 'lives_in', object: 'Rome', tenantId: 'other' })
      const conflicts = await f.conflicts()
      expect(conflicts).toHaveLength(1)
      expect(conflicts[0]).toMatchObject({ kind: 'single-valued-predicate', tenantId: null, subject: expect.any(String) })
      expect([...conflicts[0]!.refs].sort()).toEqual([rome, milan].sort())
      expect(conflicts[0]!.reason).toMatch(/Rome/)
      const hits = await f.retrieve('Aria lives', { budgetTokens: 1000 })
      expect(hits.find((m) => m.ref === rome)!.conflictsWith).toEqual([milan])
      expect(hits.find((m) => m.ref === milan)!.conflictsWith).toEqual([rome])
      expect(hits.filter((m) => m.content.includes('likes')).every((m) => m.conflictsWith.length === 0)).toBe(true)
      // Two agents supersede the same fact: both successors stay, the fork is flagged.
      const s1 = await f.supersede(rome, 'Aria lives in Rome (Trastevere)', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
      const s2 = await f.supersede(rome, 'Aria lives in Naples')
      const kinds = (await f.conflicts()).map((c) => c.kind).sort()
      expect(kinds).toContain('competing-supersession')
      expect((await f.get(s1))!.conflictsWith).toContain(s2)
      await f.delete(s2)
      await f.delete(s1)
      await f.delete(milan)
      expect(await f.conflicts()).toEqual([])
      await mem.close()
    })

    test('re-writing a current fact is idempotent; concurrent writers lose nothing', async () => {
      const db = env.fresh()
      const a = await createMemory(db.options())
      const b = await createMemory(db.options())
      const r1 = await a.facts.write('same fact')
      expect(await a.facts.write('same fact')).toBe(r1)
      const writes = (m: Memory, who: string) =>
        Array.from({ length: 10 }, (_, w) => Promise.all(Array.from({ length: 30 }, (_, i) => m.facts.write(`${who} writer ${w} note ${i}`))))
      const refs = (await Promise.all([...writes(a, 'a'), ...writes(b, 'b')])).flat()
      expect(new Set(refs).size).toBe(600)
      for (const m of [a, b]) {
        const audit = await m.facts.audit()
        expect(audit).toHaveLength(601)
        expect(new Set(audit.map((x) => x.ref)).size).toBe(601)
        expect(new Set(audit.map((x) => x.sequence)).size).toBe(601)
      }
      await a.close()
      await b.close()
    })

    test('writes issued in one tick share one storage transaction; flush() is the barrier', async () => {
      const db = env.fresh()
      let writeTx = 0
      const base = db.options()
      const inner = base.storage as StoragePort
      const counting = (port: StoragePort): StoragePort => ({
        kind: port.kind,
        durable: port.durable,
        open: () => port.open(),
        close: () => port.close(),
        read: (t, b) => port.read(t, b),
        write: (t, b) => {
          writeTx++
          return port.write(t, b)
        },
      })
      const mem = await createMemory({ ...base, storage: counting(inner) })
      writeTx = 0
      const pending = Array.from({ length: 300 }, (_, i) => mem.facts.write(`batched ${i}`))
      await mem.facts.flush()
      expect((await mem.facts.audit()).length).toBe(300)
      await Promise.all(pending)
      expect(writeTx).toBe(1)
      await mem.close()
    })

    test('bad input gets a coded error naming the field, and nothing stored changes', async () => {
      const { mem } = await open({ capabilities: ['audit', 'supersession_chain', 'hard_delete', 'provenance'] })
      const f = mem.facts
      await f.write('stable')
      const before = JSON.stringify(await f.audit())
      const cases: Array<[Promise<unknown>, string, string?]> = [
        [f.write(42 as unknown as string), 'INVALID_ARGUMENT', 'content'],
        [f.write('x', { metadata: { fn: () => 1 } as never }), 'INVALID_ARGUMENT', 'metadata'],
        [f.write('x', { metadata: { importance: 'high' } }), 'INVALID_ARGUMENT', 'metadata.importance'],
        [f.write('x', { validFrom: 'last tuesday' }), 'INVALID_ARGUMENT', 'validFrom'],
        [f.write('x', { tenantId: 'T' }), 'CAPABILITY_NOT_SUPPORTED'],
        [f.write('x', { signingKey: new Uint8Array(32) }), 'CAPABILITY_NOT_SUPPORTED'],
        [f.retrieve('x', { asOf: iso('2020-01-01') }), 'CAPABILITY_NOT_SUPPORTED'],
        [f.retrieve('x', { budgetTokens: -1 }), 'INVALID_ARGUMENT', 'budgetTokens'],
        [f.retrieve('x', { topK: 1.5 }), 'INVALID_ARGUMENT', 'topK'],
        [f.conflicts(), 'CAPABILITY_NOT_SUPPORTED'],
        [f.assert({ subject: '', predicate: 'p', object: 'o' }), 'INVALID_ARGUMENT', 'subject'],
        [f.write('bad \ud800 surrogate'), 'INVALID_ARGUMENT', 'content'],
      ]
      for (const [p, code, field] of cases) await expectCode(p, code, field)
      expect(JSON.stringify(await f.audit())).toBe(before)
      await mem.close()
    })

    test('signed writes: the store identity or a per-write key; tampering is detected', async () => {
      const identity = await createIdentity()
      const { mem } = await open({ identity })
      const other = await createIdentity({ seed: new Uint8Array(32).fill(9) })
      await mem.facts.write('Aria prefers tea', { tenantId: 'A' })
      await mem.facts.write('Aria prefers green tea', { tenantId: 'A', signingKey: other, metadata: { session_id: 'S1' } })
      const hits = await mem.facts.retrieve('prefers tea', { tenantId: 'A' })
      const byContent = new Map(hits.map((m) => [m.content, m]))
      const own = byContent.get('Aria prefers tea')!
      const per = byContent.get('Aria prefers green tea')!
      expect(own.source!.publicKey).toEqual(identity.publicKey)
      expect(own.source!.writtenBy).toBe(identity.did)
      expect(per.source!.publicKey).toEqual(other.publicKey)
      expect(per.source!.writtenBy).toBe('S1')
      expect(await mem.facts.verifyProvenance(own, own.factId)).toBe(true)
      expect(await mem.facts.verifyProvenance({ ...own, content: 'Aria prefers coffee' }, own.factId)).toBe(false)
      expect(await mem.facts.verifyProvenance({ ...own, tenantId: 'B' }, own.factId)).toBe(false)
      const flipped = own.source!.signature!.slice()
      flipped[10]! ^= 0x01
      expect(await mem.facts.verifyProvenance({ ...own, source: { ...own.source!, signature: flipped } }, own.factId)).toBe(false)
      await mem.close()
    })

    test('state survives closing and reopening the database; the sequence keeps increasing', async () => {
      const db = env.fresh()
      const a = await createMemory(db.options())
      const r1 = await a.facts.write('persisted fact one')
      const r2 = await a.facts.supersede(r1, 'persisted fact two')
      const before = await a.facts.audit()
      await a.close()
      await a.close()
      await expectCode(a.facts.write('after close'), 'CLOSED')
      const b = await createMemory(db.options())
      expect(await b.facts.audit()).toEqual(before)
      const r3 = await b.facts.write('persisted fact three')
      const seq = (await b.facts.get(r3))!.sequence
      expect(seq > (await b.facts.get(r2))!.sequence).toBe(true)
      await b.close()
    })

    test('a live query fires when another handle on the same database writes, and only on real changes', async () => {
      const db = env.fresh()
      const a = await createMemory(db.options())
      const b = await createMemory(db.options())
      const seen: string[][] = []
      let notify: () => void = () => {}
      const stop = await a.facts.subscribe('orchid watering', { budgetTokens: 500 }, (hits) => {
        seen.push(hits.map((m) => m.content))
        notify()
      })
      expect(seen).toEqual([[]])
      const next = () => new Promise<void>((resolve) => (notify = resolve))
      let arrived = next()
      await b.facts.write('Water the orchid every Sunday')
      await arrived
      expect(seen.at(-1)).toEqual(['Water the orchid every Sunday'])
      arrived = next()
      await b.facts.write('Buy bread') // unrelated content still joins the ranked tail
      await arrived
      expect(seen.at(-1)).toEqual(['Water the orchid every Sunday', 'Buy bread'])
      const count = seen.length
      await b.facts.flush()
      await a.facts.refresh()
      await new Promise((r) => setTimeout(r, 50))
      expect(seen.length).toBe(count) // no change, no callback
      stop()
      await b.facts.write('Water the orchid less in winter')
      await new Promise((r) => setTimeout(r, 50))
      expect(seen.length).toBe(count)
      await expectCode(a.facts.subscribe('x', { budgetTokens: -5 }, () => {}), 'INVALID_ARGUMENT', 'budgetTokens')
      await a.close()
      await b.close()
    })

    test('a plugged-in embedder blends semantic similarity into ranking, deterministically', async () => {
      // A toy embedder: one dimension per concept word; "automobile" and "car" share one.
      const concepts = [['car', 'automobile', 'vehicle'], ['tea', 'chai'], ['rome', 'italy']]
      const embedder: Embedder = {
        id: 'toy-concepts-v1',
        async embed(texts) {
          return texts.map((t) => Float32Array.from(concepts.map((c) => (c.some((w) => t.toLowerCase().includes(w)) ? 1 : 0))))
        },
      }
      const { mem, db } = await open({ facts: { embedder } })
      const car = await mem.facts.write('Aria bought a new vehicle last week')
      await mem.facts.write('Aria drinks chai every morning')
      const first = await mem.facts.retrieve('automobile', { budgetTokens: 1000 })
      expect(first[0]!.ref).toBe(car)
      expect((await mem.facts.retrieve('automobile', { budgetTokens: 1000 })).map((m) => m.ref)).toEqual(first.map((m) => m.ref))
      await mem.facts.delete(car)
      expect(await db.raw()).not.toContain(`{"ref":"${car}","embedder"`)
      await mem.close()
    })
  })
}
