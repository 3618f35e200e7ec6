import type { FactBody } from './fact-body.js'

/**
 * Issue 31: a fact body read from storage, in the shape a Memory keeps it. What IndexedDB hands
 * back for a body is an object grown one property at a time (eight, so half of them in a
 * separate property array) and its own copy of every string; a Chromium heap snapshot of a cold
 * 100k store put the body at 60 B and its two ids at 88 B a fact. Here the fields sit in one
 * fixed-shape object, and the two ids (32 hex characters each, 44 B as strings) in one string of
 * their bytes, a character each (16 or 32 characters, one byte each): 40 + 44 B. The ids read as
 * the same hex strings (`factId`, `structuredId`); a body whose ids are not 32 lower-case hex
 * characters is kept as it was read, since their bytes would not give the same strings back.
 *
 * Readers see the fields a FactBody has; a property a stored body carries beyond them (none is
 * written) is not kept, as no reader of a Version looks for one.
 */
export function storedBody(body: FactBody): FactBody {
  const ids = packIds(body.factId, body.structuredId)
  return ids === null ? body : new StoredFactBody(body, ids)
}

class StoredFactBody implements FactBody {
  readonly content: string
  readonly metadata: Record<string, unknown>
  readonly validFrom: number
  readonly writtenAt: number
  readonly supersedes: string | null
  readonly source: FactBody['source']
  /** The fact id's 16 bytes, then the structured id's when there is one, a character each. */
  readonly #ids: string

  constructor(body: FactBody, ids: string) {
    this.content = body.content
    this.metadata = body.metadata
    this.validFrom = body.validFrom
    this.writtenAt = body.writtenAt
    this.supersedes = body.supersedes
    this.source = body.source
    this.#ids = ids
  }

  get factId(): string {
    return unpack(this.#ids, 0)
  }

  get structuredId(): string | null {
    return this.#ids.length === 2 * ID_BYTES ? unpack(this.#ids, ID_BYTES) : null
  }
}

const ID_BYTES = 16
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

/** Both ids' bytes as one string of one-byte characters, or null when either is not canonical hex. */
function packIds(factId: unknown, structuredId: unknown): string | null {
  const codes = structuredId === null ? one : two
  if (!putBytes(factId, codes, 0)) return null
  if (structuredId !== null && !putBytes(structuredId, codes, ID_BYTES)) return null
  // Every code is below 256: V8 makes a one-byte string of them.
  return String.fromCharCode.apply(null, codes)
}

function unpack(ids: string, from: number): string {
  parts.length = 0
  for (let i = from; i < from + ID_BYTES; i++) parts.push(HEX[ids.charCodeAt(i)]!)
  return parts.join('')
}
