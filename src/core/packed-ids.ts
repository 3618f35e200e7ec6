/**
 * 128-bit ids (32 lower-case hex characters) as a string of their 16 bytes, a character each (V8
 * makes a one-byte string of them: 16 B where the hex takes 32). Issue 31: a fact body keeps its
 * ids so in memory (facts/stored-body.ts), and a fact row stores them so (core/packed-fact-row.ts).
 * Only canonical hex packs: anything else would not give the same string back.
 */
export const ID_BYTES = 16

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))
/** The value of each lower-case hex digit by character code, -1 for any other character. */
const NIBBLE = new Int8Array(128).fill(-1)
for (let d = 0; d < 16; d++) NIBBLE[d.toString(16).charCodeAt(0)] = d
// Reused: one array per length, filled in place (this runs once per fact on open).
const one: number[] = new Array<number>(ID_BYTES).fill(0)
const two: number[] = new Array<number>(2 * ID_BYTES).fill(0)
const parts: string[] = []

/** Writes the bytes of a 32-character lower-case hex string into `codes` from `at`; false when it is not one. */
function putBytes(hex: unknown, codes: number[], at: number): boolean {
  if (typeof hex !== 'string' || hex.length !== 2 * ID_BYTES) return false
  for (let i = 0; i < ID_BYTES; i++) {
    const c1 = hex.charCodeAt(2 * i), c2 = hex.charCodeAt(2 * i + 1)
    // A code of 128 or more reads as undefined from the table: not a digit either.
    const hi = NIBBLE[c1] ?? -1, lo = NIBBLE[c2] ?? -1
    if (hi < 0 || lo < 0) return false
    codes[at + i] = (hi << 4) | lo
  }
  return true
}

/** One id's bytes, or two ids' (the second may be null), as one string; null when either is not canonical hex. */
export function packIds(first: unknown, second: unknown): string | null {
  const codes = second === null ? one : two
  if (!putBytes(first, codes, 0)) return null
  if (second !== null && !putBytes(second, codes, ID_BYTES)) return null
  // Every code is below 256: V8 makes a one-byte string of them.
  return String.fromCharCode.apply(null, codes)
}

/** The hex of the id whose bytes start at `from` in a string `packIds` made. */
export function unpackId(ids: string, from: number): string {
  parts.length = 0
  for (let i = from; i < from + ID_BYTES; i++) parts.push(HEX[ids.charCodeAt(i)]!)
  return parts.join('')
}

/** Whether `ids` has the shape `packIds` gives: one or two ids' bytes, each character a byte. */
export function isPackedIds(ids: unknown): ids is string {
  if (typeof ids !== 'string' || (ids.length !== ID_BYTES && ids.length !== 2 * ID_BYTES)) return false
  for (let i = 0; i < ids.length; i++) if (ids.charCodeAt(i) > 255) return false
  return true
}
