import { open, readFile, rename, truncate, unlink, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'

/**
 * One pool's Yjs updates on disk, as an append-only log (Node only):
 *
 *   file  = MAGIC frame*
 *   frame = u32le length ‖ u32le crc32(update) ‖ update (a Yjs V1 update)
 *
 * Appends are group-committed: updates that arrive while a write + fdatasync is running go out
 * together in the next one, so a burst costs one fsync, not one each. `rewrite(state)` replaces
 * the whole file with one frame (the compacted document) through a temp file, fsync and rename:
 * bytes of content deleted from the document do not survive in any file (the old one is unlinked;
 * its blocks become free space like any deleted file's). A torn last frame (a crash
 * mid-append) is cut off on open; the frames before it load.
 */

const MAGIC = new TextEncoder().encode('MWYLOG1\n')
const HEADER = 8

export class UpdateLog {
  readonly path: string
  #file: FileHandle
  #bytes: number
  #chain: Promise<void> = Promise.resolve()
  /** Frames waiting for the next group commit, or null when none is scheduled. */
  #batch: Uint8Array[] | null = null
  #batchDone: Promise<void> = Promise.resolve()
  #closed = false

  private constructor(path: string, file: FileHandle, bytes: number) {
    this.path = path
    this.#file = file
    this.#bytes = bytes
  }

  /**
   * Opens (or creates) the log at `path` and returns the updates it holds, in order.
   * @throws MemweaveError STORAGE when the file cannot be read or written, or is not an update log.
   */
  static async open(path: string): Promise<{ log: UpdateLog; updates: Uint8Array[] }> {
    let data: Uint8Array | null = null
    try {
      data = await readFile(path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw storage(`cannot read ${path}`, err)
    }
    const updates: Uint8Array[] = []
    let good = 0
    if (data !== null && data.length > 0) {
      if (data.length < HEADER || !MAGIC.every((b, i) => data![i] === b)) throw storage(`${path} is not a memweave update log`)
      good = HEADER
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
      while (good + 8 <= data.length) {
        const length = view.getUint32(good, true)
        const end = good + 8 + length
        if (end > data.length) break
        const update = data.subarray(good + 8, end)
        if (crc32(update) !== view.getUint32(good + 4, true)) break
        updates.push(update)
        good = end
      }
    }
    try {
      if (data === null || data.length === 0) {
        const fresh = await open(path, 'w', 0o600)
        await fresh.write(MAGIC)
        await fresh.sync()
        await fresh.close()
        await syncDir(dirname(path))
        good = HEADER
      } else if (good < data.length) {
        // A torn or corrupt tail: keep what verified, drop the rest, so appends follow good frames.
        await truncate(path, good)
      }
      return { log: new UpdateLog(path, await open(path, 'a'), good), updates }
    } catch (err) {
      throw storage(`cannot open ${path}`, err)
    }
  }

  /** Bytes in the file once queued writes land. */
  get bytes(): number {
    return this.#bytes
  }

  /** Appends one update; resolves once it is on disk (fdatasync). */
  append(update: Uint8Array): Promise<void> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, `update log ${this.path} is closed`))
    const frame = encodeFrame(update)
    this.#bytes += frame.length
    if (this.#batch === null) {
      const batch: Uint8Array[] = []
      this.#batch = batch
      this.#batchDone = this.#enqueue(async () => {
        // From here on, new appends start the next batch.
        if (this.#batch === batch) this.#batch = null
        await this.#file.write(concat(batch))
        await this.#file.datasync()
      })
    }
    this.#batch.push(frame)
    return this.#batchDone
  }

  /**
   * Replaces the log with one update holding the whole state (compaction). Appends queued before
   * the call are written first (and then discarded with the old file, as `state` contains them);
   * appends after it follow the new frame.
   */
  rewrite(state: Uint8Array): Promise<void> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, `update log ${this.path} is closed`))
    this.#batch = null
    const frame = encodeFrame(state)
    this.#bytes = HEADER + frame.length
    return this.#enqueue(async () => {
      const tmp = `${this.path}.tmp`
      let reopen = false
      try {
        const out = await open(tmp, 'w', 0o600)
        try {
          await out.write(concat([MAGIC, frame]))
          await out.sync()
        } finally {
          await out.close()
        }
        await this.#file.close()
        reopen = true
        await rename(tmp, this.path)
        await syncDir(dirname(this.path))
      } catch (err) {
        await unlink(tmp).catch(() => undefined)
        throw storage(`cannot compact ${this.path}`, err)
      } finally {
        // Reopen whatever is at the path now: the new file, or the old one if the rename failed.
        if (reopen) this.#file = await open(this.path, 'a')
      }
    })
  }

  /** Resolves when every queued write has landed (or failed). */
  async flush(): Promise<void> {
    await this.#chain
  }

  /** Lets queued writes land, then closes the file. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#chain
    await this.#file.close()
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(task)
    this.#chain = run.catch(() => undefined)
    return run
  }
}

function encodeFrame(update: Uint8Array): Uint8Array {
  const frame = new Uint8Array(8 + update.length)
  const view = new DataView(frame.buffer)
  view.setUint32(0, update.length, true)
  view.setUint32(4, crc32(update), true)
  frame.set(update, 8)
  return frame
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  return Buffer.concat(parts)
}

/** fsync a directory so a rename or a new file in it survives a crash (POSIX; a no-op where unsupported). */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Windows cannot open directories; their renames are durable on their own terms.
  } finally {
    await handle?.close().catch(() => undefined)
  }
}

let CRC_TABLE: Uint32Array | undefined

/** CRC-32 (IEEE 802.3, as zlib), for torn-write detection; not a security check. */
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

function storage(message: string, cause?: unknown): MemweaveError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ''
  return new MemweaveError(ErrorCode.STORAGE, `relay: ${message}${detail}`, {}, cause === undefined ? {} : { cause })
}
