import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'

/**
 * How deep the values inside a Yjs update may nest (arrays and objects), and a walk of an update
 * that measures it without decoding anything (issue 26, case 11).
 *
 * Yjs decodes and encodes a value (ContentAny, lib0's `readAny`/`writeAny`) and parses a legacy
 * JSON one (`JSON.parse`, `JSON.stringify`) by recursion: a value thousands of levels deep throws
 * `RangeError: Maximum call stack size exceeded` in whichever process has the smaller stack (a
 * browser worker, a relay under load), on every sync attempt. So the depth is measured here by
 * reading the update's bytes with an explicit stack, never by Yjs' decoder.
 *
 * The bound, {@link MAX_VALUE_DEPTH} = 128: no honest record comes near it (storage refuses rows
 * deeper than 64, src/storage/memory-adapter.ts; the GMP server refuses bodies deeper than 64), and
 * every client decodes it (a level costs lib0 two stack frames, about 150 bytes: 128 levels need
 * some 20 KB, where a Node process with a 300 KB stack already decodes 1,000).
 */
export const MAX_VALUE_DEPTH = 128

/** A struct of an update whose content nests deeper than the bound: where it is, and its bytes in the update. */
export interface DeepStruct {
  readonly client: number
  readonly clock: number
  /** Its length in clocks (what a GC struct standing in for it must cover). */
  readonly length: number
  /** Its bytes in the update: `update.subarray(start, end)`. */
  readonly start: number
  readonly end: number
}

const ANY_OBJECT = 118
const ANY_ARRAY = 117

/**
 * The structs of a Yjs V1 update whose values nest deeper than `maxDepth`, in update order.
 * Reads the update once, iteratively, skipping strings and bytes by their length without decoding
 * them (cost O(bytes), memory O(depth)). The delete set is not read.
 * @throws Error when the bytes are not a Yjs V1 update (truncated, unknown content or value type)
 */
export function tooDeepStructs(update: Uint8Array, maxDepth = MAX_VALUE_DEPTH): DeepStruct[] {
  const r = new Cursor(update)
  const found: DeepStruct[] = []
  const clients = r.uint()
  for (let c = 0; c < clients; c++) {
    const count = r.uint()
    const client = r.uint()
    let clock = r.uint()
    for (let i = 0; i < count; i++) {
      const start = r.pos
      const info = r.byte()
      const ref = info & 0b11111
      if (ref === 0 || ref === 10) {
        // GC, Skip: a length, no content.
        clock += r.uint()
        continue
      }
      if (info & 0b10000000) r.skipUints(2) // origin
      if (info & 0b01000000) r.skipUints(2) // right origin
      if ((info & 0b11000000) === 0) {
        // No origin to copy the parent from: a root type's name, or the parent's id; then the map key.
        if (r.uint() === 1) r.skipBytes()
        else r.skipUints(2)
        if (info & 0b00100000) r.skipBytes()
      }
      let length = 1
      let depth = 0
      switch (ref) {
        case 1: // ContentDeleted
          length = r.uint()
          break
        case 2: // ContentJSON: legacy values as JSON text
          length = r.uint()
          for (let k = 0; k < length; k++) depth = Math.max(depth, r.jsonDepth(maxDepth))
          break
        case 3: // ContentBinary
          r.skipBytes()
          break
        case 4: { // ContentString: its length is in UTF-16 units, as Yjs counts it (decoded as lib0 does)
          const d = decoding.createDecoder(update)
          d.pos = r.pos
          length = decoding.readVarString(d).length
          r.pos = d.pos
          break
        }
        case 5: // ContentEmbed
          depth = r.jsonDepth(maxDepth)
          break
        case 6: // ContentFormat: a key and a JSON value
          r.skipBytes()
          depth = r.jsonDepth(maxDepth)
          break
        case 7: { // ContentType: a nested type is a struct of its own; XmlElement and XmlHook carry a name
          const type = r.uint()
          if (type > 6) throw new Error(`unknown Yjs type ref ${type}`)
          if (type === 3 || type === 5) r.skipBytes()
          break
        }
        case 8: // ContentAny
          length = r.uint()
          for (let k = 0; k < length; k++) depth = Math.max(depth, r.anyDepth(maxDepth))
          break
        case 9: // ContentDoc: a guid and the options as a value
          r.skipBytes()
          depth = r.anyDepth(maxDepth)
          break
        default:
          throw new Error(`unknown Yjs content ref ${ref}`)
      }
      if (depth > maxDepth) found.push({ client, clock, length, start, end: r.pos })
      clock += length
    }
  }
  return found
}

/**
 * The update with each of `structs` (from {@link tooDeepStructs} of the same bytes) replaced by
 * a GC struct of the same length: Yjs integrates the rest, the replaced items read as deleted, and
 * the writer's later structs are not held back by a gap in its clock.
 */
export function replaceWithGc(update: Uint8Array, structs: readonly DeepStruct[]): Uint8Array {
  const e = encoding.createEncoder()
  let at = 0
  for (const s of structs) {
    encoding.writeUint8Array(e, update.subarray(at, s.start))
    encoding.writeUint8(e, 0) // GC
    encoding.writeVarUint(e, s.length)
    at = s.end
  }
  encoding.writeUint8Array(e, update.subarray(at))
  return encoding.toUint8Array(e)
}

/**
 * The update as it may be applied where a too-deep value would blow the stack: unchanged when
 * nothing nests deeper than `maxDepth` (the usual case, the same bytes), else with those structs
 * garbage-collected ({@link replaceWithGc}). Bytes that are not an update come back unchanged, for
 * Yjs to refuse as it does.
 */
export function withoutTooDeep(update: Uint8Array, maxDepth = MAX_VALUE_DEPTH): { update: Uint8Array; dropped: number } {
  let deep: DeepStruct[]
  try {
    deep = tooDeepStructs(update, maxDepth)
  } catch {
    return { update, dropped: 0 }
  }
  return deep.length === 0 ? { update, dropped: 0 } : { update: replaceWithGc(update, deep), dropped: deep.length }
}

/** A read position in an update, with the few reads the walk needs; every read checks the end. */
class Cursor {
  pos = 0
  readonly #b: Uint8Array
  /** `anyDepth`'s stacks, reused from one value to the next. */
  readonly #left: number[] = []
  readonly #keyed: boolean[] = []

  constructor(bytes: Uint8Array) {
    this.#b = bytes
  }

  byte(): number {
    if (this.pos >= this.#b.length) throw new Error('unexpected end of update')
    return this.#b[this.pos++]!
  }

  /** A lib0 var-uint (7 bits a byte, up to 53 bits). */
  uint(): number {
    let n = 0
    let mult = 1
    for (;;) {
      const b = this.byte()
      n += (b & 0x7f) * mult
      if (b < 0x80) return n
      mult *= 128
      if (mult > 2 ** 53) throw new Error('var-uint too long')
    }
  }

  skipUints(count: number): void {
    for (let i = 0; i < count; i++) this.uint()
  }

  /** Skips a length-prefixed string or byte array. */
  skipBytes(): void {
    this.skip(this.uint())
  }

  skip(n: number): void {
    if (this.pos + n > this.#b.length) throw new Error('unexpected end of update')
    this.pos += n
  }

  /** A lib0 var-int has the var-uint's continuation bit: skipped byte by byte. */
  skipVarInt(): void {
    while (this.byte() & 0x80);
  }

  /** The depth of a length-prefixed JSON string, scanned as UTF-8 (quotes, brackets and backslashes are single bytes there). */
  jsonDepth(maxDepth: number): number {
    const len = this.uint()
    const from = this.pos
    this.skip(len)
    return jsonBytesDepth(this.#b, from, this.pos, maxDepth)
  }

  /**
   * Reads one lib0 `writeAny` value past the cursor, without recursion; returns its nesting depth
   * (an array or object is one level more than its deepest child; a scalar is 0). Reading goes on
   * past `maxDepth`, so the caller knows where the value ends.
   */
  anyDepth(maxDepth: number): number {
    // One entry per open array or object: the children it still holds, and whether they have keys.
    // The cursor's own stacks, emptied at each call (it walks a join's update value by value: two new arrays for each was 2% of what a join allocates).
    const left = this.#left
    const keyed = this.#keyed
    left.length = 0
    keyed.length = 0
    let deepest = 0
    let first = true
    while (first || left.length > 0) {
      if (!first) {
        const top = left.length - 1
        if (left[top] === 0) {
          left.pop()
          keyed.pop()
          continue
        }
        left[top]!--
        if (keyed[top]) this.skipBytes()
      }
      first = false
      const type = this.byte()
      switch (type) {
        case 127: case 126: case 121: case 120: break
        case 125: this.skipVarInt(); break
        case 124: this.skip(4); break
        case 123: case 122: this.skip(8); break
        case 119: case 116: this.skipBytes(); break
        case ANY_OBJECT:
        case ANY_ARRAY:
          left.push(this.uint())
          keyed.push(type === ANY_OBJECT)
          if (left.length > deepest) deepest = left.length
          break
        default:
          throw new Error(`unknown lib0 value type ${type}`)
      }
    }
    return Math.min(deepest, maxDepth + 1)
  }
}

function jsonBytesDepth(b: Uint8Array, from: number, to: number, maxDepth: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = from; i < to; i++) {
    const ch = b[i]!
    if (inString) {
      if (ch === 0x5c) i++ // backslash: skip the escaped character
      else if (ch === 0x22) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x5b || ch === 0x7b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > maxDepth) return maxDepth + 1
      }
    } else if (ch === 0x5d || ch === 0x7d) depth--
  }
  return deepest
}

/** The nesting depth of JSON text (brackets outside strings), or `maxDepth + 1` past it; 0 for a scalar. */
export function jsonTextDepth(text: string, maxDepth = MAX_VALUE_DEPTH): number {
  // Brackets, quotes and backslash are ASCII: the UTF-8 bytes have the text's structure.
  const bytes = new TextEncoder().encode(text)
  return jsonBytesDepth(bytes, 0, bytes.length, maxDepth)
}
