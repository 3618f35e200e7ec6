import { describe, expect, test } from 'vitest'
import type { StoragePort } from '../../src/storage/port.js'

/**
 * The contract every storage adapter passes (STYLE.md rule 20): keyed puts and gets, ordered
 * scans, the secondary index, autoIncrement keys, atomic write transactions and isolation of
 * uncommitted writes. `make` returns a fresh, empty, unopened adapter each call.
 */
export function storageContract(name: string, make: () => Promise<StoragePort>): void {
  describe(`storage contract: ${name}`, () => {
    async function opened(): Promise<StoragePort> {
      const s = await make()
      await s.open()
      return s
    }

    test('put, get, getMany, all, count, delete', async () => {
      const s = await opened()
      await s.write(['records'], (tx) => tx.put('records', [
        { id: 'b', kind: 'fact', tenant: null, body: { n: 2 }, author: null, hlc: '1' },
        { id: 'a', kind: 'tombstone', tenant: 'T', body: { n: 1 }, author: null, hlc: '2' },
      ]))
      await s.read(['records'], async (tx) => {
        expect(await tx.get('records', 'a')).toMatchObject({ body: { n: 1 } })
        expect(await tx.getMany('records', ['b', 'zz', 'a'])).toMatchObject([{ id: 'b' }, undefined, { id: 'a' }])
        expect((await tx.all<{ id: string }>('records')).map((r) => r.id)).toEqual(['a', 'b'])
        expect(await tx.count('records')).toBe(2)
        expect((await tx.where<{ id: string }>('records', 'kind', 'fact')).map((r) => r.id)).toEqual(['b'])
      })
      await s.write(['records'], (tx) => tx.delete('records', ['a', 'missing']))
      expect(await s.read(['records'], (tx) => tx.count('records'))).toBe(1)
      await s.close()
    })

    test('autoIncrement keys increase; after() and last() scan in key order', async () => {
      const s = await opened()
      const keys = await s.write(['log'], (tx) => tx.put('log', [{ ref: 'x', op: 'put' }, { ref: 'y', op: 'put' }, { ref: 'z', op: 'del' }]))
      expect(keys).toHaveLength(3)
      expect([...keys].sort((a, b) => Number(a) - Number(b))).toEqual(keys)
      const more = await s.write(['log'], (tx) => tx.put('log', [{ ref: 'w', op: 'put' }]))
      expect(Number(more[0])).toBeGreaterThan(Number(keys[2]))
      await s.read(['log'], async (tx) => {
        expect((await tx.after<{ ref: string }>('log', keys[0]!)).map((r) => r.ref)).toEqual(['y', 'z', 'w'])
        expect((await tx.after<{ ref: string }>('log', keys[0]!, 1)).map((r) => r.ref)).toEqual(['y'])
        expect((await tx.last<{ ref: string }>('log'))?.ref).toBe('w')
        expect((await tx.where<{ ref: string }>('log', 'ref', 'z')).length).toBe(1)
      })
      await s.close()
    })

    test('between(): key ranges, from inclusive and to exclusive (null: unbounded), in key order, own writes included', async () => {
      const s = await opened()
      const row = (id: string) => ({ id, kind: 'fact', tenant: null, body: {}, author: null, hlc: '1' })
      await s.write(['records'], (tx) => tx.put('records', ['0a', '1', '1a', '2', 'f', 'ff', 'r1'].map(row)))
      const ids = (rows: Array<{ id: string }>): string[] => rows.map((r) => r.id)
      await s.read(['records'], async (tx) => {
        // Optional in the port; every adapter here has it (a full load reads key ranges at once: issue 31).
        expect(tx.between).toBeDefined()
        expect(ids(await tx.between!('records', null, '1'))).toEqual(['0a'])
        expect(ids(await tx.between!('records', '1', '2'))).toEqual(['1', '1a'])
        expect(ids(await tx.between!('records', 'f', null))).toEqual(['f', 'ff', 'r1'])
        expect(ids(await tx.between!('records', '3', 'e'))).toEqual([])
      })
      await s.write(['records'], async (tx) => {
        await tx.put('records', [row('1b')])
        await tx.delete('records', ['1a'])
        expect(ids(await tx.between!('records', '1', '2'))).toEqual(['1', '1b'])
      })
      await s.close()
    })

    test('the index and key order follow replacements, deletes and re-puts, inside a transaction and after it', async () => {
      const s = await opened()
      const row = (id: string, kind: string) => ({ id, kind, tenant: null, body: {}, author: null, hlc: '1' })
      await s.write(['records'], (tx) => tx.put('records', [row('r1', 'fact'), row('r2', 'fact'), row('r3', 'tombstone')]))
      const ids = (rows: Array<{ id: string }>): string[] => rows.map((r) => r.id)
      expect(await s.read(['records'], async (tx) => ids(await tx.where('records', 'kind', 'fact')))).toEqual(['r1', 'r2'])
      await s.write(['records'], async (tx) => {
        await tx.put('records', [row('r1', 'tombstone'), row('r4', 'fact')])
        await tx.delete('records', ['r2'])
        expect(ids(await tx.where('records', 'kind', 'fact'))).toEqual(['r4'])
        expect(ids(await tx.where('records', 'kind', 'tombstone'))).toEqual(['r1', 'r3'])
        // countWhere counts what where() returns, this transaction's own changes included.
        expect(await tx.countWhere!('records', 'kind', 'fact')).toBe(1)
        expect(await tx.countWhere!('records', 'kind', 'tombstone')).toBe(2)
        expect(await tx.countWhere!('records', 'kind', 'nothing')).toBe(0)
        // countOthers counts the rows whose index value is none of those given, own changes included.
        expect(tx.countOthers).toBeDefined()
        expect(await tx.countOthers!('records', 'kind', ['fact'])).toBe(2)
        expect(await tx.countOthers!('records', 'kind', ['tombstone', 'fact'])).toBe(0)
        expect(await tx.countOthers!('records', 'kind', ['fact', 'nothing', 'fact'])).toBe(2)
        expect(await tx.countOthers!('records', 'kind', ['a', 'zzz'])).toBe(3)
        expect(await tx.countOthers!('records', 'kind', [])).toBe(3)
      })
      await s.read(['records'], async (tx) => {
        expect(ids(await tx.where('records', 'kind', 'fact'))).toEqual(['r4'])
        expect(ids(await tx.where('records', 'kind', 'tombstone'))).toEqual(['r1', 'r3'])
        expect(await tx.countWhere!('records', 'kind', 'fact')).toBe(1)
        expect(await tx.countWhere!('records', 'kind', 'tombstone')).toBe(2)
      })
      // Many deletes in one transaction, one key put back in the same one: the scan order holds.
      const keys = await s.write(['log'], (tx) => tx.put('log', Array.from({ length: 10 }, (_, i) => ({ ref: `r${i}`, op: 'put' }))))
      expect(await s.read(['log'], async (tx) => (await tx.all<{ ref: string }>('log')).length)).toBe(10)
      await s.write(['log'], async (tx) => {
        await tx.delete('log', [...keys.slice(0, 6), keys[9]!])
        await tx.put('log', [{ seq: keys[2], ref: 'back', op: 'put' }, { seq: keys[9], ref: 'back last', op: 'put' }])
      })
      await s.read(['log'], async (tx) => {
        expect((await tx.after<{ ref: string }>('log', 0)).map((r) => r.ref)).toEqual(['back', 'r6', 'r7', 'r8', 'back last'])
        expect((await tx.last<{ ref: string }>('log'))?.ref).toBe('back last')
      })
      await s.close()
    })

    test('a failed write transaction leaves nothing behind', async () => {
      const s = await opened()
      await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'keep', value: 1 }]))
      await expect(
        s.write(['meta'], async (tx) => {
          await tx.put('meta', [{ key: 'lost', value: 2 }])
          await tx.delete('meta', ['keep'])
          throw new Error('boom')
        }),
      ).rejects.toMatchObject({ code: 'STORAGE' })
      await s.read(['meta'], async (tx) => {
        expect(await tx.get('meta', 'lost')).toBeUndefined()
        expect(await tx.get('meta', 'keep')).toMatchObject({ value: 1 })
      })
      await s.close()
    })

    test('a long transaction with work between awaits stays one atomic transaction', async () => {
      const s = await opened()
      await expect(
        s.write(['meta', 'log'], async (tx) => {
          for (let i = 0; i < 200; i++) {
            await tx.put('meta', [{ key: `k${i}`, value: i }])
            JSON.stringify(Array.from({ length: 200 }, (_, j) => j * i)) // CPU work between requests
            await tx.put('log', [{ ref: `r${i}`, op: 'put' }])
          }
          throw new Error('abort at the end')
        }),
      ).rejects.toMatchObject({ code: 'STORAGE' })
      expect(await s.read(['meta', 'log'], async (tx) => (await tx.count('meta')) + (await tx.count('log')))).toBe(0)
      await s.close()
    })

    test('a transaction sees its own writes', async () => {
      const s = await opened()
      await s.write(['meta'], async (tx) => {
        await tx.put('meta', [{ key: 'k', value: 1 }])
        expect(await tx.get('meta', 'k')).toMatchObject({ value: 1 })
        await tx.delete('meta', ['k'])
        expect(await tx.get('meta', 'k')).toBeUndefined()
      })
      await s.close()
    })

    test('concurrent write transactions serialise: no lost update', async () => {
      const s = await opened()
      await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'n', value: 0 }]))
      await Promise.all(
        Array.from({ length: 20 }, () =>
          s.write(['meta'], async (tx) => {
            const row = await tx.get<{ value: number }>('meta', 'n')
            await tx.put('meta', [{ key: 'n', value: row!.value + 1 }])
          }),
        ),
      )
      expect(await s.read(['meta'], (tx) => tx.get('meta', 'n'))).toMatchObject({ value: 20 })
      await s.close()
    })

    test('binary rows (Float32Array, Uint8Array) round-trip', async () => {
      const s = await opened()
      await s.write(['vectors'], (tx) => tx.put('vectors', [{ ref: 'r', embedder: 'e', vec: new Float32Array([0.5, -1.25]) }]))
      const row = await s.read(['vectors'], (tx) => tx.get<{ vec: Float32Array }>('vectors', 'r'))
      expect(row!.vec).toBeInstanceOf(Float32Array)
      expect([...row!.vec]).toEqual([0.5, -1.25])
      await s.close()
    })

    test('a view into a bigger buffer stores its own bytes, and later changes to the buffer do not reach them', async () => {
      const s = await opened()
      const buffer = new Uint8Array([9, 9, 1, 2, 3, 9, 9])
      const update = buffer.subarray(2, 5)
      await s.write(['syncUpdates'], (tx) => tx.put('syncUpdates', [{ pool: 'p', update }]))
      buffer.fill(0)
      const [row] = await s.read(['syncUpdates'], (tx) => tx.where<{ update: Uint8Array }>('syncUpdates', 'pool', 'p'))
      expect(row!.update).toBeInstanceOf(Uint8Array)
      expect([...row!.update]).toEqual([1, 2, 3])
      await s.close()
    })

    test('a put stores a structured clone: later changes to the object do not reach it; functions are refused and nothing is written', async () => {
      const s = await opened()
      const when = new Date(Date.UTC(2026, 0, 2))
      const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { n: 1 })
      const sparse = [1, , 3]
      const body = { nested: { list: [1, { deep: 'x' }], none: undefined, nil: null }, when, bytes: Uint8Array.of(1, 2), nullProto, sparse, own: JSON.parse('{"__proto__": {"p": 1}}') }
      const row = { id: 'c', kind: 'fact', tenant: null, body, author: null, hlc: '1' }
      await s.write(['records'], (tx) => tx.put('records', [row]))
      body.nested.list.push(2)
      ;(body.nested.list[1] as { deep: string }).deep = 'changed'
      when.setUTCFullYear(1999)
      body.bytes[0] = 9
      const stored = await s.read(['records'], (tx) => tx.get<{ body: typeof body }>('records', 'c'))
      const b = stored!.body
      expect(b.nested.list).toEqual([1, { deep: 'x' }])
      expect('none' in b.nested && b.nested.none === undefined).toBe(true)
      expect(b.when).toBeInstanceOf(Date)
      expect(b.when.getUTCFullYear()).toBe(2026)
      expect([...b.bytes]).toEqual([1, 2])
      expect(Object.getPrototypeOf(b.nullProto)).toBe(Object.prototype)
      expect(b.sparse.length).toBe(3)
      expect(1 in b.sparse).toBe(false)
      expect(Object.getPrototypeOf(b.own)).toBe(Object.prototype)
      expect(Object.keys(b.own)).toEqual(['__proto__'])
      const bad = { id: 'd', kind: 'fact', tenant: null, body: { f: () => 1 }, author: null, hlc: '2' }
      await expect(s.write(['records'], (tx) => tx.put('records', [bad]))).rejects.toThrow()
      expect(await s.read(['records'], (tx) => tx.count('records'))).toBe(1)
      await s.close()
    })

    test('close() is idempotent', async () => {
      const s = await opened()
      await s.close()
      await s.close()
    })
  })
}
