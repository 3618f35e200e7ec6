import { hex } from '@scure/base'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { fromHex, toHex } from '../../src/core/bytes.js'

test('toHex gives the lowercase hex of the generic coder for any bytes, long ones included, and round-trips through fromHex', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
      const text = toHex(bytes)
      expect(text).toBe(hex.encode(bytes))
      expect([...fromHex(text)]).toEqual([...bytes])
    }),
    { numRuns: 500, seed: 1525 },
  )
  expect(toHex(Uint8Array.of(0, 1, 0x0f, 0x10, 0xab, 0xff))).toBe('00010f10abff')
  expect(toHex(new Uint8Array(0))).toBe('')
  // The scratch buffer is reused: a short call after a long one gives only its own digits.
  toHex(new Uint8Array(1024).fill(0xee))
  expect(toHex(Uint8Array.of(0x12))).toBe('12')
  // The lengths of ids, keys and signatures reuse their char codes: each call still gives its own digits.
  for (const n of [16, 32, 64]) {
    const a = Uint8Array.from({ length: n }, (_, i) => i * 7)
    const b = Uint8Array.from({ length: n }, (_, i) => 255 - i)
    const [x, y] = [toHex(a), toHex(b)]
    expect([x, y]).toEqual([hex.encode(a), hex.encode(b)])
  }
})
