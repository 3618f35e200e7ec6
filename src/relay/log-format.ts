/**
 * The bytes of a relay update log (`<dir>/rooms/<pool>/updates.log`), both versions:
 *
 *   v2 file  = "MWYLOG2\n" frame*
 *   v2 frame = "MWF2" ‖ u32le length ‖ u32le crc32(update) ‖ u32le crc32(the 12 bytes before) ‖ update
 *   v1 file  = "MWYLOG1\n" frame*                                (written before v2; still read)
 *   v1 frame = u32le length ‖ u32le crc32(update) ‖ update
 *
 * v2 exists so that damage in the middle of a file costs only the damaged frame: the header has
 * its own checksum (a bad length is caught before it is trusted) and every frame starts with a
 * marker, so a reader can find the next intact frame after a bad one. v1 has neither; a v1 reader
 * resyncs by trying every offset, where a false match needs a length that fits and a matching CRC.
 */

export const MAGIC_V1 = new TextEncoder().encode('MWYLOG1\n')
export const MAGIC_V2 = new TextEncoder().encode('MWYLOG2\n')
export const FILE_HEADER = 8
const MARK = 0x3246574d // "MWF2" read as u32le
const V2_HEADER = 16
const V1_HEADER = 8
/**
 * The smallest Yjs V1 update (an empty one) is 2 bytes: a v1 "frame" of 0 or 1 bytes is never
 * real, and refusing them keeps runs of zeros (a length 0 with CRC 0 matches) out of a v1 resync.
 */
const MIN_V1_UPDATE = 2

export type LogVersion = 1 | 2

/** What reading a log file found. */
export interface ScannedLog {
  readonly version: LogVersion
  /** The intact updates, in file order. */
  readonly updates: Uint8Array[]
  /** Byte ranges that failed their checks and were followed by an intact frame (damage, not a crash). */
  readonly damaged: Array<{ readonly offset: number; readonly length: number }>
  /** Offset where a torn tail starts (no intact frame after it: a crash mid-append), else null. */
  readonly tornAt: number | null
}

/** The version of a log file from its first 8 bytes, or null when it is not an update log. */
export function logVersion(data: Uint8Array): LogVersion | null {
  if (data.length < FILE_HEADER) return null
  if (MAGIC_V2.every((b, i) => data[i] === b)) return 2
  if (MAGIC_V1.every((b, i) => data[i] === b)) return 1
  return null
}

/**
 * The version a log names in its magic when it is not one this build reads: `MWYLOG<n>\n` with
 * n > 2, which later formats keep as their first bytes (issue 28). Null for anything else.
 */
export function newerLogVersion(data: Uint8Array): number | null {
  const head = new TextDecoder().decode(data.subarray(0, 16))
  const m = /^MWYLOG([0-9]{1,6})\n/.exec(head)
  if (!m) return null
  const n = Number(m[1])
  return n > 2 ? n : null
}

/** Encodes one v2 frame. */
export function encodeFrame(update: Uint8Array): Uint8Array {
  const frame = new Uint8Array(V2_HEADER + update.length)
  const view = new DataView(frame.buffer)
  view.setUint32(0, MARK, true)
  view.setUint32(4, update.length, true)
  view.setUint32(8, crc32(update), true)
  view.setUint32(12, crc32(frame.subarray(0, 12)), true)
  frame.set(update, V2_HEADER)
  return frame
}

/** The end offset of an intact frame starting at `at`, or -1. */
function frameEnd(data: Uint8Array, view: DataView, at: number, version: LogVersion): number {
  const header = version === 2 ? V2_HEADER : V1_HEADER
  if (at + header > data.length) return -1
  let base = at
  if (version === 2) {
    if (view.getUint32(at, true) !== MARK) return -1
    if (crc32(data.subarray(at, at + 12)) !== view.getUint32(at + 12, true)) return -1
    base = at + 4
  }
  const length = view.getUint32(base, true)
  const end = at + header + length
  if ((version === 1 && length < MIN_V1_UPDATE) || end > data.length) return -1
  return crc32(data.subarray(at + header, end)) === view.getUint32(base + 4, true) ? end : -1
}

/** The start of the next intact frame after `from`, or -1. */
function resync(data: Uint8Array, view: DataView, from: number, version: LogVersion): number {
  for (let at = from; at < data.length; at++) {
    // v2: only offsets holding the marker are candidates, so the scan is one comparison a byte.
    if (version === 2 && (data[at] !== 0x4d || at + 4 > data.length || view.getUint32(at, true) !== MARK)) continue
    if (frameEnd(data, view, at, version) !== -1) return at
  }
  return -1
}

/**
 * Reads every intact frame of a log (`data` starts with a magic of `logVersion`). A bad frame
 * followed by an intact one is damage: it is skipped and reported, and reading goes on. A bad
 * region that runs to the end is a torn tail.
 */
export function scanLog(data: Uint8Array, version: LogVersion): ScannedLog {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const header = version === 2 ? V2_HEADER : V1_HEADER
  const updates: Uint8Array[] = []
  const damaged: Array<{ offset: number; length: number }> = []
  let at = FILE_HEADER
  let tornAt: number | null = null
  while (at < data.length) {
    const end = frameEnd(data, view, at, version)
    if (end !== -1) {
      updates.push(data.subarray(at + header, end))
      at = end
      continue
    }
    const next = resync(data, view, at + 1, version)
    if (next === -1) {
      tornAt = at
      break
    }
    damaged.push({ offset: at, length: next - at })
    at = next
  }
  return { version, updates, damaged, tornAt }
}

let CRC_TABLE: Uint32Array | undefined

/** CRC-32 (IEEE 802.3, as zlib), for damage detection; not a security check. */
export function crc32(bytes: Uint8Array): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      CRC_TABLE[n] = c >>> 0
    }
  }
  const table = CRC_TABLE
  let crc = 0xffffffff
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
