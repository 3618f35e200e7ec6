import { open, readFile, rename, truncate, unlink, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { syncDir, writeFileDurably } from '../node/durable-file.js'
import { FILE_HEADER, MAGIC_V2, encodeFrame, logVersion, newerLogVersion, scanLog, type ScannedLog } from './log-format.js'
import { formatTooNew } from '../core/format-version.js'

export { crc32 } from './log-format.js'

/**
 * One pool's Yjs updates on disk, as an append-only log of checksummed frames (Node only; the
 * bytes are in log-format.ts).
 *
 * Appends are group-committed: updates that arrive while a write + fdatasync is running go out
 * together in the next one, so a burst costs one fsync, not one each. `rewrite(state)` replaces
 * the whole file with one frame (the compacted document) through a temp file, fsync and rename:
 * bytes of content deleted from the document do not survive in any file (the old one is unlinked;
 * its blocks become free space like any deleted file's).
 *
 * On open, only a torn LAST frame (a crash mid-append: nothing intact after it) is cut. A bad
 * frame with intact frames after it is damage (a flipped bit, a bad length): the damaged file is
 * copied to `updates.log.damaged-<time>` untouched, every intact frame is kept (rewritten as a
 * clean log), the bad ones are skipped, and a warning names what was skipped. Before v2, damage
 * anywhere made the relay cut the log there, losing every frame after it (issue 13). A v1 log is
 * migrated to v2 on open, frame for frame.
 */

export interface UpdateLogOptions {
  /** Receives one line per repair done on open (damage skipped, torn tail cut). Default: stderr. */
  readonly warn?: (message: string) => void
}

const HEADER = FILE_HEADER

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
   * Opens (or creates) the log at `path` and returns the intact updates it holds, in order.
   * @throws MemweaveError STORAGE when the file cannot be read or written, or is not an update
   *   log; FORMAT_TOO_NEW when a newer memweave wrote it (either way the file is left as it is).
   */
  static async open(path: string, options: UpdateLogOptions = {}): Promise<{ log: UpdateLog; updates: Uint8Array[] }> {
    const warn = options.warn ?? ((message: string) => process.stderr.write(`memweave relay: ${message}\n`))
    let data: Uint8Array | null = null
    try {
      data = await readFile(path)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw storage(`cannot read ${path}`, err)
    }
    let scanned: ScannedLog = { version: 2, updates: [], damaged: [], tornAt: null }
    if (data !== null && data.length > 0) {
      const version = logVersion(data)
      if (version === null) {
        const newer = newerLogVersion(data)
        if (newer !== null) throw formatTooNew('relayLog', newer, path)
        throw storage(`${path} is not a memweave update log (left untouched)`)
      }
      scanned = scanLog(data, version)
    }
    const { updates } = scanned
    let size: number
    try {
      if (data === null || data.length === 0) {
        await writeFileDurably(path, MAGIC_V2)
        size = HEADER
      } else if (scanned.damaged.length > 0 || scanned.version === 1) {
        if (scanned.damaged.length > 0) {
          const copy = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`
          // Durable before the rewrite below replaces the original (same temp, fsync, rename).
          await writeFileDurably(copy, data)
          const bytes = scanned.damaged.reduce((sum, d) => sum + d.length, 0)
          warn(
            `${path}: skipped ${scanned.damaged.length} damaged region(s) (${bytes} bytes, at offsets ` +
              `${scanned.damaged.map((d) => d.offset).join(', ')}), kept ${updates.length} intact frames; ` +
              `the damaged file is kept as ${copy}. Clients re-send what the skipped frames held when they sync.`,
          )
        }
        if (scanned.tornAt !== null) warn(`${path}: cut a torn last frame (${data.length - scanned.tornAt} bytes at offset ${scanned.tornAt})`)
        // Rewrite the intact frames as a clean v2 log, so appends follow good frames and damage is not re-read.
        const frames = updates.map(encodeFrame)
        await writeFileDurably(path, concat([MAGIC_V2, ...frames]))
        size = frames.reduce((sum, f) => sum + f.length, HEADER)
      } else if (scanned.tornAt !== null) {
        // A crash mid-append: the torn frame was never acknowledged (the fsync did not return).
        warn(`${path}: cut a torn last frame (${data.length - scanned.tornAt} bytes at offset ${scanned.tornAt})`)
        await truncate(path, scanned.tornAt)
        size = scanned.tornAt
      } else {
        size = data.length
      }
      return { log: new UpdateLog(path, await open(path, 'a'), size), updates }
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
          await out.write(concat([MAGIC_V2, frame]))
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

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  return Buffer.concat(parts)
}

function storage(message: string, cause?: unknown): MemweaveError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ''
  return new MemweaveError(ErrorCode.STORAGE, `relay: ${message}${detail}`, {}, cause === undefined ? {} : { cause })
}
