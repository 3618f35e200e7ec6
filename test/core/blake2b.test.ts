import { describe, expect, it, test } from 'vitest'
import { blake2b128, blake2b128Js, fastHashActive, fastHashReady } from '../../src/core/blake2b.js'
import { toHex } from '../../src/core/bytes.js'

// RFC 7693 has no 16-byte vector; this one is BLAKE2b-128("abc") as computed by Python's hashlib.blake2b(digest_size=16).
const ABC_128 = 'cf4ab791c62b8d2b2109c90275287816'

describe('blake2b128', () => {
  it('runs on WebAssembly once ready, with the known answer', async () => {
    await fastHashReady()
    expect(fastHashActive()).toBe(true)
    expect(toHex(blake2b128(new TextEncoder().encode('abc')))).toBe(ABC_128)
    expect(toHex(blake2b128Js(new TextEncoder().encode('abc')))).toBe(ABC_128)
  })

  it('gives the JavaScript digest for every length across the block boundaries, and calls do not leak state into each other', async () => {
    await fastHashReady()
    let seed = 7
    const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff
    for (const length of [0, 1, 63, 64, 127, 128, 129, 255, 256, 257, 700, 1024, 4099]) {
      const bytes = Uint8Array.from({ length }, next)
      const fast = blake2b128(bytes)
      expect(toHex(fast)).toBe(toHex(blake2b128Js(bytes)))
      // The digest is a fresh array, not a view the next call overwrites.
      blake2b128(Uint8Array.of(1, 2, 3))
      expect(toHex(fast)).toBe(toHex(blake2b128Js(bytes)))
    }
  })
})

test('recordDigest hashes the UTF-8 of `id.sig`, for hex ids and signatures and for anything else a peer sends', async () => {
  const { recordDigest } = await import('../../src/core/signature-cache.js')
  const { utf8 } = await import('../../src/core/bytes.js')
  const random = (n: number): string => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')
  const cases = [
    ...Array.from({ length: 50 }, () => ({ id: random(32), sig: random(128) })),
    { id: '', sig: '' },
    { id: 'é'.repeat(40), sig: random(128) },
    { id: random(32), sig: '签名'.repeat(10) },
    { id: random(200), sig: random(128) },
  ]
  for (const r of cases) expect(recordDigest(r)).toBe(toHex(blake2b128(utf8(`${r.id}.${r.sig}`))))
})
