import { base58, base64, hex } from '@scure/base'

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

export const utf8 = (text: string): Uint8Array => encoder.encode(text)
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes)

/** Char codes of the two hex digits of each byte value. */
const HEX_CODES = Uint16Array.from({ length: 512 }, (_, i) => '0123456789abcdef'.charCodeAt(i & 1 ? (i >> 1) & 0xf : i >> 5))
/**
 * The char codes of an id's, a key's or a signature's hex (16, 32, 64 bytes), reused: a plain array
 * of small integers is what `apply` spreads fastest. A typed array's view went by the generic
 * array-like path, and a fresh view per call: about half of `toHex` (issue 31, fifth round).
 */
const codes16: number[] = new Array<number>(32).fill(0)
const codes32: number[] = new Array<number>(64).fill(0)
const codes64: number[] = new Array<number>(128).fill(0)

/**
 * Lowercase hex of `bytes`. Every id and signature is turned into hex (several per record), and the
 * generic radix coder of @scure/base allocated arrays for each: a twentieth of what a 100k join
 * allocated. One flat string from reused char codes instead; long inputs go by the generic coder.
 */
export function toHex(bytes: Uint8Array): string {
  const n = bytes.length
  if (n > 1024) return hex.encode(bytes)
  const codes = n === 16 ? codes16 : n === 32 ? codes32 : n === 64 ? codes64 : new Array<number>(2 * n).fill(0)
  for (let i = 0; i < n; i++) {
    const b = bytes[i]! << 1
    codes[2 * i] = HEX_CODES[b]!
    codes[2 * i + 1] = HEX_CODES[b + 1]!
  }
  return String.fromCharCode.apply(null, codes)
}
export const fromHex = (text: string): Uint8Array => hex.decode(text.toLowerCase())
export const toBase64 = (bytes: Uint8Array): string => base64.encode(bytes)
export const fromBase64 = (text: string): Uint8Array => base64.decode(text)
export const toBase58 = (bytes: Uint8Array): string => base58.encode(bytes)
export const fromBase58 = (text: string): Uint8Array => base58.decode(text)

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

const HEX_RE = /^[0-9a-fA-F]*$/

/** Reads bytes given as Uint8Array, hex or base64 (the wire sends base64, people paste hex). */
export function bytesFrom(value: unknown, expectedLengths: readonly number[]): Uint8Array | undefined {
  let bytes: Uint8Array | undefined
  if (value instanceof Uint8Array) bytes = value
  else if (typeof value === 'string') {
    if (HEX_RE.test(value) && expectedLengths.includes(value.length / 2)) bytes = fromHex(value)
    else {
      try {
        bytes = fromBase64(value)
      } catch {
        return undefined
      }
    }
  } else if (Array.isArray(value) && value.every((n) => Number.isInteger(n) && n >= 0 && n < 256)) {
    bytes = Uint8Array.from(value as number[])
  }
  return bytes && expectedLengths.includes(bytes.length) ? bytes : undefined
}
