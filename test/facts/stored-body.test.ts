import fc from 'fast-check'
import { expect, test } from 'vitest'
import { versionFromRecord, type FactBody } from '../../src/facts/version.js'
import type { StoredRecord } from '../../src/storage/schema.js'

// Issue 31: a body read from storage is kept in a fixed shape with its two ids packed as bytes
// (src/facts/stored-body.ts). Every field reads back as stored, whatever the ids hold; ids that are
// not 32 lower-case hex characters are kept as read.
const hex32 = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(''))
// 32 characters, one of them anything (a digit, 'G', 'é', '\u0130', a surrogate...).
const oneOff = fc.tuple(hex32, fc.nat(31), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })).map(([h, i, c]) => (h.slice(0, i) + c + h.slice(i + 1)).slice(0, 32))
const id = fc.oneof(hex32, oneOff, hex32.map((h) => h.toUpperCase()), hex32.map((h) => h.slice(1)), hex32.map((h) => `${h}0`), fc.string({ maxLength: 40 }), fc.constant(''))

const read = (body: FactBody): StoredRecord =>
  // structuredClone: a body as IndexedDB hands it back (not frozen, its own objects).
  structuredClone({ id: 'r', kind: 'fact', tenant: null, author: null, hlc: '001', body })

const fields = (b: FactBody): unknown[] => [b.content, b.factId, b.structuredId, b.metadata, b.validFrom, b.writtenAt, b.supersedes, b.source]

test('a body read from storage reads back field for field as stored, canonical ids or not', () => {
  fc.assert(
    fc.property(id, fc.option(id), fc.string(), fc.option(fc.string()), fc.double(), (factId, structuredId, content, supersedes, validFrom) => {
      const body: FactBody = {
        content, factId, structuredId, metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome', importance: 0.5 },
        validFrom, writtenAt: 1_700_000_000_000_000, supersedes, source: { writtenBy: null, signature: null, publicKey: null },
      }
      const v = versionFromRecord(read(body), new Set())
      expect(fields(v.body)).toEqual(fields(body))
      expect(v.cost).toBe([...content].length)
    }),
    { numRuns: 2000 },
  )
})

test('a signed body keeps its source; a frozen body (this handle wrote it) is the same object', () => {
  const source = { writtenBy: 'did:key:z6Mk', signature: 'ab'.repeat(64), publicKey: 'cd'.repeat(32) }
  const body: FactBody = { content: 'x', factId: 'a'.repeat(32), structuredId: 'b'.repeat(32), metadata: {}, validFrom: 1, writtenAt: 2, supersedes: null, source }
  expect(versionFromRecord(read(body), new Set()).body.source).toEqual(source)
  const own = Object.freeze({ ...body })
  const v = versionFromRecord({ id: 'r', kind: 'fact', tenant: null, author: null, hlc: '001', body: own }, new Set())
  expect(v.body).toBe(own)
})

test('each character next to a hex digit in the code table, or a capital digit, keeps an id as read', () => {
  for (const c of ['/', ':', '@', 'A', 'F', 'G', '`', 'g', '\u0130', '\u00e9', '\u0000']) {
    const factId = `${c}${'0123456789abcdef'.repeat(2).slice(1)}`
    const body: FactBody = { content: 'x', factId, structuredId: `${'f'.repeat(31)}${c}`, metadata: {}, validFrom: 1, writtenAt: 2, supersedes: null, source: { writtenBy: null, signature: null, publicKey: null } }
    const v = versionFromRecord(read(body), new Set())
    expect([v.body.factId, v.body.structuredId]).toEqual([factId, body.structuredId])
  }
})
