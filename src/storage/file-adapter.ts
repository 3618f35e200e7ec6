import { mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import { decodeValue, encodeValue } from './file-codec.js'
import { acquireLock, type FileLock } from './file-lock.js'
import { MemoryStorage } from './memory-adapter.js'
import type { Key, ReadTx, Schema, StoragePort, WriteTx } from './port.js'
import { RecordingTx, type RecordedOp } from './recording-tx.js'
import { SCHEMA } from './schema.js'

/**
 * Durable storage in a directory (Node only), built on MemoryStorage: all rows live in memory,
 * and the directory holds
 *
 * - `snapshot.json`: every table at transaction number `seq`;
 * - `changes.jsonl`: one line per transaction committed after it, `{"n": seq, "ops": [...]}`;
 * - `LOCK`: the pid of the one process that owns the directory.
 *
 * A transaction's line is appended and fsynced before its changes become visible (the
 * MemoryStorage `persist` hook), so a resolved write survives a crash and a failed one leaves
 * nothing behind. A transaction that deletes anything instead rewrites the snapshot (temp file,
 * fsync, rename) and truncates the log, so hard-deleted content (GMP §6.2) leaves no byte in any
 * file of the directory. What the file system keeps in freed blocks is beyond a library's reach:
 * put the directory on an encrypted volume when that matters.
 */

const SNAPSHOT = 'snapshot.json'
const LOG = 'changes.jsonl'
const LOCK = 'LOCK'
const FORMAT = 'memweave.file-storage'

export interface FileStorageOptions {
  /** The directory; created (mode 0700) when missing. */
  readonly dir: string
  readonly schema?: Schema
  /** Fold the change log into the snapshot once it grows past this many bytes. Default 64 MiB. */
  readonly compactAfterBytes?: number
  /** Flushes a file to stable storage; default `FileHandle.datasync()`. Injected by tests to simulate a failing disk. */
  readonly fsync?: (file: FileHandle) => Promise<void>
}

type Op = RecordedOp

interface Opened {
  readonly inner: MemoryStorage
  readonly log: FileHandle
  readonly lock: FileLock
}

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code

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
  }

  /** Takes the directory's lock and loads it. Idempotent. @throws MemweaveError CONFLICT when another live process owns the directory; STORAGE on I/O errors or corrupt files. */
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
    const lock = await acquireLock(join(this.dir, LOCK), `file storage ${this.dir}`)
    let log: FileHandle | undefined
    try {
      // A temp snapshot is a compaction that never reached its rename: it was never committed.
      await unlink(join(this.dir, `${SNAPSHOT}.tmp`)).catch((err: unknown) => (errno(err) === 'ENOENT' ? undefined : Promise.reject(err)))
      const tables = new Map<string, Map<Key, unknown>>()
      for (const name of Object.keys(this.#schema)) tables.set(name, new Map())
      this.#seq = await this.#readSnapshot(tables)
      await this.#replayLog(tables)
      const initial: Record<string, object[]> = {}
      for (const [name, rows] of tables) initial[name] = [...rows.values()].map((r) => decodeValue(r) as object)
      const inner = new MemoryStorage({ schema: this.#schema, initial, persist: () => this.#persist() })
      await inner.open()
      log = await open(join(this.dir, LOG), 'a', 0o600)
      this.#logSize = (await log.stat()).size
      this.#broken = undefined
      const opened: Opened = { inner, log, lock }
      // Fold what the log held into a fresh snapshot, so each run starts from one file and a
      // torn last line (a crash mid-append, never acknowledged) is gone for good.
      if (this.#logSize > 0) await this.#compact(opened, encodeTables(inner.dump(), this.#schema), this.#seq)
      this.#current = opened
      return opened
    } catch (err) {
      await log?.close().catch(() => undefined)
      await lock.release()
      throw storageError(`file storage: cannot open ${this.dir}`, err)
    }
  }

  async #readSnapshot(tables: Map<string, Map<Key, unknown>>): Promise<number> {
    let text: string
    try {
      text = await readFile(join(this.dir, SNAPSHOT), 'utf8')
    } catch (err) {
      if (errno(err) === 'ENOENT') return 0
      throw err
    }
    let snap: { format?: unknown; version?: unknown; seq?: unknown; tables?: Record<string, unknown> }
    try {
      snap = JSON.parse(text) as typeof snap
    } catch (err) {
      throw storageError(`file storage: ${SNAPSHOT} is not valid JSON`, err)
    }
    if (snap?.format !== FORMAT || snap.version !== 1 || typeof snap.seq !== 'number' || typeof snap.tables !== 'object' || snap.tables === null) {
      throw storageError(`file storage: ${SNAPSHOT} is not a memweave snapshot (format ${FORMAT}, version 1)`)
    }
    for (const [name, rows] of Object.entries(snap.tables)) {
      if (!Array.isArray(rows)) throw storageError(`file storage: table "${name}" in ${SNAPSHOT} is not an array`)
      for (const row of rows) this.#applyOp(tables, ['p', name, row])
    }
    return snap.seq
  }

  /** Applies the log's transactions newer than the snapshot. */
  async #replayLog(tables: Map<string, Map<Key, unknown>>): Promise<void> {
    let text: string
    try {
      text = await readFile(join(this.dir, LOG), 'utf8')
    } catch (err) {
      if (errno(err) === 'ENOENT') return
      throw err
    }
    const lines = text.split('\n')
    // The text after the last newline is a torn append (crash before fsync): never acknowledged, dropped.
    lines.pop()
    lines.forEach((line, i) => {
      let tx: { n?: unknown; ops?: unknown }
      try {
        tx = JSON.parse(line) as typeof tx
      } catch (err) {
        throw storageError(`file storage: ${LOG} line ${i + 1} is corrupt`, err)
      }
      if (typeof tx?.n !== 'number' || !Array.isArray(tx.ops)) throw storageError(`file storage: ${LOG} line ${i + 1} is not a transaction`)
      // Lines at or below the snapshot's seq were folded in already (a crash between rename and truncate).
      if (tx.n <= this.#seq) return
      for (const op of tx.ops as Op[]) this.#applyOp(tables, op)
      this.#seq = tx.n
    })
  }

  #applyOp(tables: Map<string, Map<Key, unknown>>, op: Op): void {
    const table = tables.get(op[1])
    const spec = this.#schema[op[1]]
    if (!table || !spec) throw storageError(`file storage: unknown table "${String(op[1])}" on disk`)
    if (op[0] === 'd') table.delete(op[2])
    else if (op[0] === 'p') table.set((op[2] as Record<string, Key>)[spec.key]!, op[2])
    else throw storageError(`file storage: unknown change ${JSON.stringify(op[0])} on disk`)
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
    const n = this.#seq + 1
    const line = `${JSON.stringify({ n, ops })}\n`
    if (ops.some((op) => op[0] === 'd') || this.#logSize + line.length > this.#compactAfter) {
      const tables = encodeTables(opened.inner.dump(), this.#schema)
      for (const op of ops) this.#applyOp(tables, op)
      await this.#compact(opened, tables, n)
    } else {
      await this.#append(opened, line)
    }
    this.#seq = n
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

  /** Writes every table as the snapshot at `seq` and empties the log. The rename is the commit point. */
  async #compact(opened: Opened, tables: Map<string, Map<Key, unknown>>, seq: number): Promise<void> {
    const path = join(this.dir, SNAPSHOT)
    const tmp = `${path}.tmp`
    const out: Record<string, unknown[]> = {}
    for (const [name, rows] of tables) out[name] = [...rows.values()]
    const text = JSON.stringify({ format: FORMAT, version: 1, seq, tables: out })
    let file: FileHandle | undefined
    try {
      file = await open(tmp, 'w', 0o600)
      await file.writeFile(text, 'utf8')
      await this.#fsync(file)
      await file.close()
      file = undefined
      await rename(tmp, path)
    } catch (err) {
      await file?.close().catch(() => undefined)
      await unlink(tmp).catch(() => undefined)
      throw storageError('file storage: cannot write the snapshot', err)
    }
    await syncDir(this.dir)
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
}

/** Makes the rename durable; best effort where directories cannot be fsynced (Windows). */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // EISDIR / EPERM / EINVAL on platforms without directory fsync.
  } finally {
    await handle?.close().catch(() => undefined)
  }
}

function encodeTables(dump: Record<string, object[]>, schema: Schema): Map<string, Map<Key, unknown>> {
  const tables = new Map<string, Map<Key, unknown>>()
  for (const [name, rows] of Object.entries(dump)) {
    const key = schema[name]!.key
    tables.set(name, new Map(rows.map((row) => [(row as Record<string, Key>)[key]!, encodeValue(row)])))
  }
  return tables
}

/**
 * Opens (lazily, on first use or `open()`) durable storage in a directory. One process owns a
 * directory at a time.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a missing `dir`. `open()` throws CONFLICT when
 *   another live process holds the directory and STORAGE on I/O errors or corrupt files.
 * @example
 * import { createMemory } from 'memweave'
 * import { fileStorage } from 'memweave/node'
 * const mem = await createMemory({ storage: fileStorage({ dir: './.memweave-data' }) })
 */
export function fileStorage(options: FileStorageOptions): FileStorage {
  return new FileStorage(options)
}
