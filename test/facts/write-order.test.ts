import fc from 'fast-check'
import { expect, test } from 'vitest'
import { versionFromRecord, type Version } from '../../src/facts/version.js'
import { byWrite, WriteOrder } from '../../src/facts/write-order.js'

const version = (i: number, t: number, hlc: number): Version =>
  versionFromRecord({
    id: `r${i}`, kind: 'fact', tenant: null, author: null, hlc: String(hlc).padStart(3, '0'),
    body: { content: `c${i}`, factId: `f${i}`, structuredId: null, metadata: {}, validFrom: t, writtenAt: t, supersedes: null, source: { writtenBy: null, signature: null, publicKey: null } },
  }, new Set())

test('WriteOrder keeps its write order through adds, deletes and reads in any mix (in place or rebuilt)', () => {
  const step = fc.oneof(
    fc.record({ type: fc.constant('add' as const), i: fc.nat(60), t: fc.nat(5), hlc: fc.nat(999) }),
    fc.record({ type: fc.constant('delete' as const), i: fc.nat(60) }),
    fc.record({ type: fc.constant('read' as const) }),
  )
  fc.assert(fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
    const w = new WriteOrder()
    const model = new Map<string, Version>()
    for (const s of steps) {
      if (s.type === 'add') {
        const v = version(s.i, s.t, s.hlc)
        if (!model.has(v.ref)) model.set(v.ref, v)
        w.add(v)
      } else if (s.type === 'delete') {
        model.delete(`r${s.i}`)
        w.delete(`r${s.i}`)
      } else {
        const want = [...model.values()].sort(byWrite)
        expect(w.inWriteOrder().map((v) => v.ref)).toEqual(want.map((v) => v.ref))
        want.forEach((v, i) => expect(w.indexOf(v)).toBe(i))
      }
    }
    expect([...w.values()].map((v) => v.ref)).toEqual([...model.keys()])
    expect(w.inWriteOrder().map((v) => v.ref)).toEqual([...model.values()].sort(byWrite).map((v) => v.ref))
    expect(w.size).toBe(model.size)
  }), { numRuns: 300 })
})
