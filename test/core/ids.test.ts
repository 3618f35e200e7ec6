import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { blake2b128, canonicalJson, contentFactId, pythonFloatRepr, recordId, structuredFactId, structuredFactIdAt } from '../../src/core/ids.js'
import { concatBytes, toHex, utf8 } from '../../src/core/bytes.js'
import { formatTime } from '../../src/core/time.js'
import { SHARED_DIR } from '../helpers/shared-path.js'

const vectors = JSON.parse(readFileSync(join(SHARED_DIR, 'specs/gmp/test-vectors.json'), 'utf8'))

describe('BLAKE2b-128 (GMP test vectors)', () => {
  test('is the 16-byte parameter set, not a truncated BLAKE2b-512', () => {
    const v = vectors.blake2b128_is_not_truncated_blake2b512
    expect(toHex(blake2b128(utf8(v.input_utf8)))).toBe(v.blake2b128)
    expect(toHex(blake2b128(utf8(v.input_utf8)))).not.toBe(v.blake2b512_first16)
  })

  test.each(vectors.content_store_fact_id.cases as Array<{ content: string; tenant_id: string | null; fact_id_hex: string }>)(
    'content-store fact id of $content / $tenant_id',
    ({ content, tenant_id, fact_id_hex }) => {
      expect(toHex(contentFactId(content, tenant_id))).toBe(fact_id_hex)
    },
  )

  test.each(vectors.trace_fact_id_no_tenant.cases as Array<Record<string, unknown>>)(
    'structured fact id, default tenant = oracle id: $predicate $subject $object ($object_type)',
    (c) => {
      const object = c['object_type'] === 'float' ? { float: c['object'] as number } : (c['object'] as string | number | boolean)
      const id = structuredFactId({
        predicate: c['predicate'] as string,
        subject: c['subject'] as string,
        object,
        validFrom: c['valid_from'] as string,
      })
      expect(toHex(id)).toBe(c['fact_id_hex'])
      expect(toHex(structuredFactId({ tenantId: '', predicate: c['predicate'] as string, subject: c['subject'] as string, object, validFrom: c['valid_from'] as string }))).toBe(c['fact_id_hex'])
    },
  )

  test('structured ids are tenant-scoped: same fact, two tenants, two ids', () => {
    const fact = { predicate: 'lives_in', subject: 'Aria', object: 'Rome', validFrom: '2026-01-01T00:00:00Z' }
    const a = toHex(structuredFactId({ ...fact, tenantId: 'A' }))
    const b = toHex(structuredFactId({ ...fact, tenantId: 'B' }))
    const none = toHex(structuredFactId(fact))
    expect(new Set([a, b, none]).size).toBe(3)
  })

  test('the same instant in another offset has the same structured id', () => {
    const fact = { predicate: 'lives_in', subject: 'Aria', object: 'Rome' }
    expect(toHex(structuredFactId({ ...fact, validFrom: '2026-01-01T02:00:00+02:00' }))).toBe(
      toHex(structuredFactId({ ...fact, validFrom: new Date('2026-01-01T00:00:00Z') })),
    )
  })

  test('fields holding the unit separator are refused, so no two facts can collide', () => {
    expect(() => structuredFactId({ predicate: 'p\u001fq', subject: 's', object: 'o', validFrom: '2026-01-01' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    )
    expect(() => contentFactId('x', 'a\u001fb')).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})

describe('canonical encodings', () => {
  test.each([
    [1.0, '1.0'], [0.1, '0.1'], [1e16, '1e+16'], [1e-5, '1e-05'], [0.0001, '0.0001'], [123.456, '123.456'],
    [-2.5, '-2.5'], [1.5e300, '1.5e+300'], [2 ** 60, '1.152921504606847e+18'], [-0.0, '-0.0'],
  ])('Python repr of float %s is %s', (value, text) => {
    expect(pythonFloatRepr(value)).toBe(text)
  })

  test('RFC 8785 canonical JSON sorts keys and drops whitespace', () => {
    expect(canonicalJson({ b: [1, 'x', null], a: { d: true, c: 0.5 } })).toBe('{"a":{"c":0.5,"d":true},"b":[1,"x",null]}')
    expect(() => canonicalJson({ x: NaN })).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})

describe('issue 13: ill-formed strings never reach an id or a signature', () => {
  const lone = ['\uD800', '\uDC00', 'a\uDBFFb']
  test('three tenants that UTF-8 collapses into one are refused, not given one fact id', () => {
    for (const tenant of lone) {
      expect(() => contentFactId('x', tenant)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', details: expect.objectContaining({ field: 'tenantId' }) }))
      expect(() => structuredFactId({ tenantId: tenant, predicate: 'p', subject: 's', object: 1, validFrom: '2026-01-01T00:00:00Z' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    }
    expect(() => contentFactId('x\uD800', null)).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'content' }) }))
    // A well-formed U+FFFD and a surrogate pair are text like any other.
    expect(toHex(contentFactId('x', '\uFFFD'))).not.toBe(toHex(contentFactId('x', '\uD83D\uDE00')))
  })

  test('canonical JSON (record ids, pool ids, signed records, tokens) refuses lone surrogates in keys and values', () => {
    for (const s of lone) {
      expect(() => canonicalJson({ a: s })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
      expect(() => canonicalJson({ [s]: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
      expect(() => canonicalJson([[s]])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
      expect(() => recordId({ kind: 'pool-id', owner: 'did:key:z', nonce: '0', tenant: s })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    }
    expect(canonicalJson({ b: '\uD83D\uDE00', a: '\uFFFD' })).toBe('{"a":"\uFFFD","b":"\uD83D\uDE00"}')
  })
})

// Issue 31: ids are hashed from one reused buffer, and a write's structured id from its time in µs
// without the text round trip. Both must give the digests of the plain definitions.
describe('ids from a reused buffer and from µs', () => {
  test('contentFactId is BLAKE2b-128(utf8(content) ‖ 0x1f ‖ utf8(tenant)) for any text, long or short, in any order of calls', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.option(fc.string({ maxLength: 20 }).filter((t) => !t.includes('\u001f')))), { minLength: 1, maxLength: 6 }), (pairs) => {
      for (const [content, tenant] of pairs) {
        expect(toHex(contentFactId(content, tenant))).toBe(toHex(blake2b128(concatBytes(utf8(content), Uint8Array.of(0x1f), utf8(tenant ?? '')))))
      }
    }))
  })

  test('contentFactId of ASCII text, and of text that turns non-ASCII part-way (copied by code unit, then encoded), in content and tenant', () => {
    const part = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
    const text = fc.array(part, { maxLength: 4 }).map((xs) => xs.join(''))
    fc.assert(fc.property(text, fc.option(text.filter((t) => !t.includes('\u001f') && t.isWellFormed())), (content, tenant) => {
      if (!content.isWellFormed()) return
      expect(toHex(contentFactId(content, tenant))).toBe(toHex(blake2b128(concatBytes(utf8(content), Uint8Array.of(0x1f), utf8(tenant ?? '')))))
    }), { numRuns: 3000 })
    expect(toHex(contentFactId('Ada lives in Z\u00fcrich', 'caf\u00e9'))).toBe(toHex(blake2b128(concatBytes(utf8('Ada lives in Z\u00fcrich'), Uint8Array.of(0x1f), utf8('caf\u00e9')))))
  })

  test('structuredFactIdAt(µs) equals structuredFactId of the formatted time, through the years and at the edges', () => {
    const times = fc.oneof(
      fc.integer({ min: 0, max: 4e15 }),
      fc.constantFrom(0, 4e15, 4e15 + 1, -1, -62_135_596_800_000_000, 253_402_300_799_999_000, 1_000_000_000_000_000_999),
      fc.integer({ min: -62_135_596_800_000_000, max: 253_402_300_799_999_000 }),
    )
    fc.assert(fc.property(times, fc.option(fc.constantFrom('acme', 'x')), fc.constantFrom<string | number | boolean>('Oslo', 3, true, 'caf\u00e9'), (us, tenant, object) => {
      const fact = { tenantId: tenant, subject: 'ada', predicate: 'lives_in', object }
      let text: string
      try {
        text = formatTime(us)
      } catch {
        return
      }
      let want: string | Error
      try {
        want = toHex(structuredFactId({ ...fact, validFrom: text }))
      } catch (err) {
        want = err as Error
      }
      if (typeof want === 'string') expect(toHex(structuredFactIdAt(fact, us))).toBe(want)
      else expect(() => structuredFactIdAt(fact, us)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    }), { numRuns: 2000 })
  })
})
