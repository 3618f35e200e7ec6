import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'

/**
 * Checksummed JSON lines, the unit of the file storage's v2 files (Node only):
 *
 *   line = hex16(SHA-256(json)) " " json "\n"
 *
 * The checksum is the first 64 bits of SHA-256 over the JSON text's UTF-8 bytes: it catches a
 * flipped bit, a torn or spliced line, and an edit, at native speed. It is not a signature (whoever
 * can write the file can recompute it); signed content is checked again above the storage.
 */

const SUM = 16

function sum(json: string): string {
  return createHash('sha256').update(json, 'utf8').digest('hex').slice(0, SUM)
}

/** One checksummed line for `value`, newline included, and the length of its JSON. */
export function checkedLine(value: unknown): { line: string; jsonBytes: number } {
  const json = JSON.stringify(value)
  return { line: `${sum(json)} ${json}\n`, jsonBytes: Buffer.byteLength(json, 'utf8') }
}

export type ParsedLine =
  | { readonly ok: true; readonly value: unknown; readonly jsonBytes: number }
  | { readonly ok: false; readonly reason: string }

/** Checks and parses one line (without its newline). */
export function parseCheckedLine(text: string): ParsedLine {
  if (text.length < SUM + 2 || text[SUM] !== ' ') return { ok: false, reason: 'no checksum' }
  const json = text.slice(SUM + 1)
  if (sum(json) !== text.slice(0, SUM)) return { ok: false, reason: 'checksum mismatch' }
  try {
    return { ok: true, value: JSON.parse(json), jsonBytes: Buffer.byteLength(json, 'utf8') }
  } catch {
    return { ok: false, reason: 'not JSON' }
  }
}

export interface RawLine {
  /** 1-based. */
  readonly number: number
  readonly text: string
  /** False for text after the last newline: an append a crash cut short. */
  readonly terminated: boolean
}

/**
 * The longest line a reader accepts, in bytes: V8's longest string (2^29 - 24 UTF-16 units).
 * No line we write can be longer (it was one JSON string), so a longer one is damage, whatever
 * size limit the store has now; a limit lowered since a row was written must not make it damage.
 */
export const MAX_LINE = 2 ** 29 - 24

/**
 * The lines of a file, streamed: memory holds one chunk and one line at a time, so a store far
 * larger than V8's longest string still opens. A line longer than `maxLine` bytes is yielded cut
 * short (and then fails its checksum) instead of growing without bound.
 */
export async function* readLines(path: string, maxLine = MAX_LINE): AsyncGenerator<RawLine> {
  let parts: Buffer[] = []
  let size = 0
  let number = 0
  let overflow = false
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl)
      if (!overflow) parts.push(piece)
      number++
      yield { number, text: Buffer.concat(parts).toString('utf8'), terminated: true }
      parts = []
      size = 0
      overflow = false
      start = nl + 1
    }
    if (start < chunk.length && !overflow) {
      const rest = chunk.subarray(start)
      size += rest.length
      if (size > maxLine) overflow = true
      else parts.push(Buffer.from(rest))
    }
  }
  if (parts.length > 0 || overflow) yield { number: number + 1, text: Buffer.concat(parts).toString('utf8'), terminated: false }
}

/** Buffers lines and writes them in large chunks: a snapshot of many rows costs few syscalls. */
export class LineWriter {
  readonly #file: FileHandle
  #parts: string[] = []
  #pending = 0
  bytes = 0

  constructor(file: FileHandle) {
    this.#file = file
  }

  async write(line: string): Promise<void> {
    this.#parts.push(line)
    this.#pending += line.length
    if (this.#pending >= 1 << 20) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.#parts.length === 0) return
    const buffer = Buffer.from(this.#parts.join(''), 'utf8')
    this.#parts = []
    this.#pending = 0
    for (let done = 0; done < buffer.length; ) done += (await this.#file.write(buffer, done)).bytesWritten
    this.bytes += buffer.length
  }
}
