import { invalidArgument } from '../core/errors.js'

/** `fatal`: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD; `ignoreBOM`: a BOM stays in the text, as `readFile(path, 'utf8')` keeps it. */
const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Decodes file bytes as UTF-8, refusing what is not: `readFile(path, 'utf8')` replaces invalid
 * bytes with U+FFFD silently, so a commit rewrote a damaged file as if it had said that (issue 13).
 * @throws MemweaveError INVALID_ARGUMENT naming `field` and the offset of the first bad byte.
 */
export function decodeUtf8(bytes: Uint8Array, field: string): string {
  try {
    return STRICT.decode(bytes)
  } catch {
    throw invalidArgument(field, `is not valid UTF-8 (the first bad byte is at offset ${firstInvalidOffset(bytes)}); fix or re-save the file as UTF-8`, { offset: firstInvalidOffset(bytes) })
  }
}

/** The offset of the first byte that does not start or continue a well-formed UTF-8 sequence (only called on failure, so speed is not a concern). */
function firstInvalidOffset(bytes: Uint8Array): number {
  let lo = 0
  let hi = bytes.length
  // The longest valid prefix, by bisection over fatal decodes of prefixes (a prefix that ends
  // inside a sequence fails too, so widen by up to 3 bytes before judging).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (validPrefix(bytes, mid)) lo = mid
    else hi = mid - 1
  }
  return lo
}

function validPrefix(bytes: Uint8Array, end: number): boolean {
  for (let e = end; e <= Math.min(bytes.length, end + 3); e++) {
    try {
      STRICT.decode(bytes.subarray(0, e))
      return true
    } catch {
      // try a longer prefix: `end` may split a sequence
    }
  }
  return false
}
