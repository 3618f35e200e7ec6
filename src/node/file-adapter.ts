import { mkdir, open, type FileHandle } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import { decodeValue, encodeValue } from './file-codec.js'
import { checkedLine } from './file-lines.js'
import { FILES, assertKnownFormat, damaged, loadDir, rowBytes } from './file-load.js'
import { acquireLock, type FileLock } from './file-lock.js'
import { MemoryStorage } from '../storage/memory-adapter.js'
import { unlinkIfThere, writeSnapshot } from './file-snapshot.js'
import type { Key, ReadTx, Schema, StoragePort, WriteTx } from '../storage/port.js'
import { RecordingTx, type RecordedOp } from './recording-tx.js'
import { overridesOf, sizeAfter } from './file-ops.js'
import { SCHEMA } from '../storage/schema.js'
import { formatTooNew, isTooNew } from '../core/format-version.js'
import { FORMAT_ROW } from '../records/format-marker.js'

/**
 * Durable storage in a directory (Node only), built on MemoryStorage: all rows live in memory,
 * and the directory holds (formats in file-load.ts; every line checksummed)
 *
 * - `snapshot.jsonl`: every table at transaction number `seq`, one row a line;
 * - `log.jsonl`: one line per transaction committed after it, `{"n": seq, "ops": [...]}`;
 * - `LOCK`: the pid of the one process that owns the directory.
 *
 * A transaction's line is appended and fsynced before its changes become visible (the
 * MemoryStorage `persist` hook), so a resolved write survives a crash and a failed one leaves
 * nothing behind. A transaction that deletes anything instead rewrites the snapshot (temp file,
 * fsync, rename) and truncates the log, so hard-deleted content (GMP §6.2) leaves no byte in any
 * file of the directory. What the file system keeps in freed blocks is beyond a library's reach:
 * put the directory on an encrypted volume when that matters.
 *
 * The snapshot is written and read a line at a time: no string ever holds the whole store (v1
 * wrote one JSON string and failed with "Invalid string length" past ~512 MiB, after which the
 * store could not be opened at all, issue 13). Rows stay in memory, so a store is capped
 * (`maxBytes`): a write that would pass the cap is refused with QUOTA_EXCEEDED before anything is
 * written, so every store that was accepted reopens. A damaged directory (a line failing its
 * checksum, a gap in the transaction numbers, a missing snapshot) is refused with DATA_DAMAGED and
 * left untouched; `repairFileStorage` keeps what is intact. v1 directories (`snapshot.json`,
 * `changes.jsonl`) are read and rewritten as v2 on open.
 */

const LOCK = 'LOCK'
const MiB = 1024 * 1024

export interface FileStorageOptions {
  /** The directory; created (mode 0700) when missing. */
  readonly dir: string
  readonly schema?: Schema
  /** Fold the change log into the snapshot once it grows past this many bytes. Default 64 MiB. */
  readonly compactAfterBytes?: number
  /**
   * The most the rows may hold, in bytes of their JSON form; a write past it is refused with
   * QUOTA_EXCEEDED. Rows live in memory (about three times this at peak). Default 256 MiB.
   */
  readonly maxBytes?: number
  /** The directory is known to hold a store: a missing snapshot is damage, not an empty store. */
  readonly expectData?: boolean
  /**
   * A byte budget shared with other file storages (a GMP server's stores): each counts its rows
   * while open, and a write that would take the sum past `limit` is refused with QUOTA_EXCEEDED.
   */
  readonly budget?: StorageBudget
  /** Flushes a file to stable storage; default `FileHandle.datasync()`. Injected by tests to simulate a failing disk. */
  readonly fsync?: (file: FileHandle) => Promise<void>
}

type Op = RecordedOp

/** Bytes of row JSON that several open file storages may hold together (see FileStorageOptions.budget). */
export interface StorageBudget {
  readonly limit: number
  used: number
}

interface Opened {
  readonly inner: MemoryStorage
  readonly log: FileHandle
  readonly lock: FileLock
}

function storageError(message: string, cause?: unknown): MemweaveError {
  if (isMemweaveError(cause)) return cause
  const detail = cause instanceof Error ? `: ${cause.message}` : ''
  return new MemweaveError(ErrorCode.STORAGE, `${message}${detail}`, {}, cause === undefined ? {} : { cause })
}

/**
 * Durable storage in one directory, owned by one process at a time (see the top of this file for
 * the layout). Make one with `fileStorage({ dir })`.
 *
 * @example
 * const storage = fileStorage({ dir: './data' })
 * const mem = await createMemory({ storage })
 * await mem.close() // closes the storage and releases the directory
 */
export class FileStorage implements StoragePort {
  readonly kind = 'file'
  readonly durable = true
  readonly dir: string
  readonly #schema: Schema
  readonly #compactAfter: number
  readonly #maxBytes: number
  readonly #expectData: boolean
  readonly #budget: StorageBudget | undefined
  readonly #fsync: (file: FileHandle) => Promise<void>
  #opened: Promise<Opened> | undefined
  /** The loaded state; kept until close() has drained the running transactions. */
  #current: Opened | undefined
  #closed = false
  #closing: Promise<void> | undefined
  readonly #inflight = new Set<Promise<unknown>>()
  /** The ops of the write transaction now running; MemoryStorage runs one at a time. */
  #pending: Op[] | undefined
  #seq = 0
  #logSize = 0
  /** Bytes of each row's JSON, by table and key, and their sum: what `maxBytes` bounds. */
  #sizes = new Map<string, Map<Key, number>>()
  #total = 0
  /** Set when a failed write could not be rolled back on disk: the files no longer match memory. */
  #broken: unknown

  constructor(options: FileStorageOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '') {
      throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'dir: must be a non-empty path', { field: 'dir' })
    }
    this.dir = resolve(options.dir)
    this.#schema = options.schema ?? SCHEMA
    this.#compactAfter = options.compactAfterBytes ?? 64 * 1024 * 1024
    this.#fsync = options.fsync ?? ((file) => file.datasync())
    this.#maxBytes = options.maxBytes ?? 256 * MiB
    if (!Number.isSafeInteger(this.#maxBytes) || this.#maxBytes < 1) {
      throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'maxBytes: must be a positive integer', { field: 'maxBytes' })
    }
    this.#expectData = options.expectData ?? false
    this.#budget = options.budget
  }

  /** Bytes the rows hold now (their JSON form), as counted against `maxBytes`. */
  get size(): number {
    return this.#total
  }

  /** Takes the directory's lock and loads it. Idempotent. @throws MemweaveError CONFLICT when another live process owns the directory; DATA_DAMAGED when its files are damaged, FORMAT_TOO_NEW when a newer memweave wrote them (either way they are left as they are); STORAGE on I/O errors. */
  async open(): Promise<void> {
    if (this.#closing) await this.#closing
    this.#closed = false
    this.#opened ??= this.#load()
    try {
      await this.#opened
    } catch (err) {
      this.#opened = undefined
      throw err
    }
  }

  /** Waits for running transactions, closes the log and releases the lock. Idempotent. */
  close(): Promise<void> {
    if (this.#closed) return this.#closing ?? Promise.resolve()
    this.#closed = true
    const opened = this.#opened
    this.#closing = (async () => {
      await Promise.allSettled([...this.#inflight])
      const o = await opened?.catch(() => undefined)
      this.#opened = undefined
      this.#current = undefined
      if (!o) return
      if (this.#budget) this.#budget.used -= this.#total
      await o.inner.close()
      await o.log.close().catch(() => undefined)
      await o.lock.release()
    })()
    return this.#closing
  }

  async read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    const { inner } = await this.#ready()
    return inner.read(tables, body)
  }

  async write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    const { inner } = await this.#ready()
    const run = inner.write(tables, (tx) => {
      const ops: Op[] = []
      this.#pending = ops
      return body(new RecordingTx(tx, ops, this.#schema))
    })
    this.#inflight.add(run)
    try {
      return await run
    } finally {
      this.#inflight.delete(run)
    }
  }

  async #ready(): Promise<Opened> {
    const closed = (): MemweaveError => new MemweaveError(ErrorCode.CLOSED, `file storage ${this.dir} is closed`)
    if (this.#closed) throw closed()
    await this.open()
    if (this.#closed || !this.#current) throw closed()
    return this.#current
  }

  // ---- loading ---------------------------------------------------------------------------------

  async #load(): Promise<Opened> {
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 })
    } catch (err) {
      throw storageError(`file storage: cannot create ${this.dir}`, err)
    }
    // Before the lock file or a temp file is touched: a newer build's directory stays byte for byte.
    await assertKnownFormat(this.dir)
    const lock = await acquireLock(join(this.dir, LOCK), `file storage ${this.dir}`)
    let log: FileHandle | undefined
    try {
      // A temp snapshot is a compaction that never reached its rename: it was never committed.
      await unlinkIfThere(join(this.dir, `${FILES.snapshot}.tmp`))
      await unlinkIfThere(join(this.dir, `${FILES.v1Snapshot}.tmp`))
      const loaded = await loadDir(this.dir, this.#schema, { expectData: this.#expectData })
      if (loaded.damage.length > 0) throw damaged(this.dir, loaded.damage)
      // The record layer's marker (src/records/format-marker.ts), checked here as well: the open
      // below folds the log into a new snapshot before the record layer could read the marker.
      const marker = loaded.tables.get('meta')?.get(FORMAT_ROW) as { version?: unknown; writtenBy?: unknown } | undefined
      if (marker && isTooNew('store', marker.version)) {
        throw formatTooNew('store', marker.version, `file storage ${this.dir}`, typeof marker.writtenBy === 'string' ? marker.writtenBy : undefined)
      }
      this.#seq = loaded.seq
      this.#sizes = loaded.sizes
      this.#total = 0
      for (const table of loaded.sizes.values()) for (const n of table.values()) this.#total += n
      const initial: Record<string, object[]> = {}
      for (const [name, rows] of loaded.tables) {
        try {
          initial[name] = [...rows.values()].map((r) => decodeValue(r) as object)
        } catch (err) {
          throw damaged(this.dir, [{ file: FILES.snapshot, reason: `a row of table ${name} does not decode (${(err as Error).message})` }])
        }
        rows.clear()
      }
      const inner = new MemoryStorage({ schema: this.#schema, initial, persist: () => this.#persist() })
      await inner.open()
      // Start each run from one v2 snapshot and an empty log: a fresh snapshot folds in the log (a
      // torn last line is gone for good), migrates a v1 directory, and gives a new directory the
      // snapshot that later proves nothing before the log is missing.
      // (Writing one also removes v1 files a migration cut short left behind, with whatever they hold.)
      if (loaded.version !== 2 || loaded.logBytes > 0 || loaded.staleV1) await this.#writeSnapshot(inner.dump(), new Map(), this.#seq)
      // Append mode, so a rollback's truncate never leaves the write position past the end.
      log = await open(join(this.dir, FILES.log), 'a', 0o600)
      await log.truncate(0)
      this.#logSize = 0
      this.#broken = undefined
      const opened: Opened = { inner, log, lock }
      this.#current = opened
      if (this.#budget) this.#budget.used += this.#total
      return opened
    } catch (err) {
      await log?.close().catch(() => undefined)
      await lock.release()
      if (isMemweaveError(err) && (err.code === ErrorCode.DATA_DAMAGED || err.code === ErrorCode.FORMAT_TOO_NEW)) throw err
      throw storageError(`file storage: cannot open ${this.dir}`, err)
    }
  }

  // ---- committing ------------------------------------------------------------------------------

  /** The persist hook: runs after a transaction body succeeded and before its changes are applied. */
  async #persist(): Promise<void> {
    const ops = this.#pending
    this.#pending = undefined
    if (!ops) throw new MemweaveError(ErrorCode.INTERNAL, 'file storage: a commit without a recorded transaction')
    if (this.#broken !== undefined) {
      throw storageError('file storage: an earlier write failed and could not be rolled back on disk; close and reopen the storage', this.#broken)
    }
    if (ops.length === 0) return
    const opened = this.#current
    if (!opened) throw new MemweaveError(ErrorCode.INTERNAL, 'file storage: a commit while not open')
    const { total, changed } = sizeAfter(ops, this.#schema, this.#sizes, this.#total)
    // Refused before anything is written: growing past the cap would make a store that no longer
    // fits in memory, and so could not be reopened. Writes that shrink the store always pass.
    const growth = total - this.#total
    const budget = this.#budget
    if (budget && growth > 0 && budget.used + growth > budget.limit) {
      throw new MemweaveError(
        ErrorCode.QUOTA_EXCEEDED,
        `file storage ${this.dir}: the stores of this process are limited to ${budget.limit} bytes together; this write would make them ${budget.used + growth}`,
        { limit: budget.limit, size: budget.used + growth, scope: 'shared' },
      )
    }
    if (total > this.#maxBytes && total > this.#total) {
      throw new MemweaveError(
        ErrorCode.QUOTA_EXCEEDED,
        `file storage ${this.dir} is limited to ${this.#maxBytes} bytes; this write would make it ${total}`,
        { limit: this.#maxBytes, size: total },
      )
    }
    const n = this.#seq + 1
    const { line } = checkedLine({ n, ops })
    if (ops.some((op) => op[0] === 'd') || this.#logSize + line.length > this.#compactAfter) {
      await this.#compact(opened, ops, n)
    } else {
      await this.#append(opened, line)
    }
    this.#seq = n
    for (const [table, key, bytes] of changed) {
      if (bytes === null) this.#sizes.get(table)!.delete(key)
      else this.#sizes.get(table)!.set(key, bytes)
    }
    this.#total = total
    if (budget) budget.used += growth
  }

  async #append(opened: Opened, line: string): Promise<void> {
    const before = this.#logSize
    const bytes = Buffer.from(line, 'utf8')
    try {
      for (let done = 0; done < bytes.length; ) done += (await opened.log.write(bytes, done)).bytesWritten
      await this.#fsync(opened.log)
      this.#logSize = before + bytes.length
    } catch (err) {
      // Take back whatever part of the line reached the file, so a restart cannot replay a
      // transaction its caller saw fail.
      try {
        await opened.log.truncate(before)
        await this.#fsync(opened.log)
      } catch (rollback) {
        this.#broken = rollback
      }
      throw storageError('file storage: cannot append to the change log', err)
    }
  }

  /** Writes the snapshot at `seq` (every row, with `ops` applied) and empties the log. */
  async #compact(opened: Opened, ops: readonly Op[], seq: number): Promise<void> {
    await this.#writeSnapshot(opened.inner.dump(), overridesOf(ops, this.#schema), seq)
    try {
      await opened.log.truncate(0)
      await this.#fsync(opened.log)
      this.#logSize = 0
    } catch (err) {
      // The snapshot is committed (the log's lines are now stale and skipped on load), but the log
      // may still hold deleted bytes: refuse further writes until a reopen compacts it again.
      this.#broken = err
    }
  }

  /** The snapshot at `seq`: every row MemoryStorage holds (decoded), with `overrides` (encoded; null: deleted) in their place. */
  async #writeSnapshot(dump: Record<string, object[]>, overrides: Map<string, Map<Key, unknown>>, seq: number): Promise<void> {
    const schema = this.#schema
    function* rows(): Generator<readonly [string, unknown]> {
      for (const [name, list] of Object.entries(dump)) {
        const key = schema[name]!.key
        const replaced = overrides.get(name)
        for (const r of list) if (!replaced?.has((r as Record<string, Key>)[key]!)) yield [name, encodeValue(r)]
        for (const r of replaced?.values() ?? []) if (r !== null) yield [name, r]
      }
    }
    try {
      await writeSnapshot(this.dir, rows(), seq, this.#fsync)
    } catch (err) {
      throw storageError('file storage: cannot write the snapshot', err)
    }
  }
}

/**
 * Opens (lazily, on first use or `open()`) durable storage in a directory. One process owns a
 * directory at a time.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a missing `dir`. `open()` throws CONFLICT when
 *   another live process holds the directory, DATA_DAMAGED for damaged files and STORAGE on I/O
 *   errors; a write throws QUOTA_EXCEEDED when the store would pass `maxBytes`.
 * @example
 * import { createMemory } from 'memweave'
 * import { fileStorage } from 'memweave/node'
 * const mem = await createMemory({ storage: fileStorage({ dir: './.memweave-data' }) })
 */
export function fileStorage(options: FileStorageOptions): FileStorage {
  return new FileStorage(options)
}
