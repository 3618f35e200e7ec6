import { join } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { readOwnerPin, type OwnerPin } from './owner-pin.js'
import { Room } from './room.js'
import type { RoomSource } from './room-source.js'

export interface RoomRegistryOptions {
  /** `<relay dir>/rooms`, or null for rooms in memory. */
  readonly dir: string | null
  readonly compactAfterBytes: number
  readonly maxDocumentBytes: number
  readonly maxPendingBytes: number
  /** How long a room without peers stays loaded before it is compacted and unloaded. */
  readonly idleUnloadMs: number
  readonly onError: (err: unknown) => void
}

interface Entry {
  readonly room: Promise<Room>
  holds: number
  timer: ReturnType<typeof setTimeout> | undefined
}

/**
 * The rooms a relay has loaded. A room is held while a connection is being admitted to it or is
 * connected; when the last hold goes it is unloaded after `idleUnloadMs` (compacted, file closed,
 * document freed), so memory follows the pools in use, not every pool ever served. A room being
 * unloaded is reloaded from disk by the next connection once the unload finished.
 */
export class RoomRegistry implements RoomSource {
  readonly #options: RoomRegistryOptions
  readonly #entries = new Map<string, Entry>()
  readonly #unloading = new Map<string, Promise<void>>()
  #closed = false

  constructor(options: RoomRegistryOptions) {
    this.#options = options
  }

  /** Rooms loaded (or loading) now. */
  get size(): number {
    return this.#entries.size
  }

  #roomDir(name: string): string | null {
    return this.#options.dir === null ? null : join(this.#options.dir, name)
  }

  /**
   * The pinned owner of a room without loading its document (a small file read when unloaded), so
   * a connection whose token cannot be admitted never makes the relay load a document.
   */
  async pinOf(name: string): Promise<OwnerPin | null> {
    const entry = this.#entries.get(name)
    if (entry) return (await entry.room).owner
    const dir = this.#roomDir(name)
    return dir === null ? null : readOwnerPin(dir)
  }

  /** Loads (or finds) a room and holds it until `release`. @throws MemweaveError CLOSED after close(); STORAGE */
  async acquire(name: string): Promise<Room> {
    for (;;) {
      if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'the relay is closing')
      const unloading = this.#unloading.get(name)
      if (!unloading) break
      await unloading
    }
    let entry = this.#entries.get(name)
    if (!entry) {
      const room = Room.open(name, { ...this.#options, dir: this.#roomDir(name) })
      entry = { room, holds: 0, timer: undefined }
      this.#entries.set(name, entry)
      room.catch(() => {
        if (this.#entries.get(name) === entry) this.#entries.delete(name)
      })
    }
    entry.holds++
    clearTimeout(entry.timer)
    entry.timer = undefined
    return entry.room
  }

  release(name: string): void {
    const entry = this.#entries.get(name)
    if (!entry || --entry.holds > 0 || this.#closed) return
    entry.timer = setTimeout(() => this.#unload(name, entry), this.#options.idleUnloadMs)
    entry.timer.unref?.()
  }

  #unload(name: string, entry: Entry): void {
    if (entry.holds > 0 || this.#entries.get(name) !== entry) return
    this.#entries.delete(name)
    const done = entry.room
      .then((room) => room.close())
      .catch(this.#options.onError)
      .finally(() => this.#unloading.delete(name))
    this.#unloading.set(name, done)
  }

  /** Compacts and closes every room; acquire() fails from now on. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    const closing = [...this.#entries.values()].map(async (entry) => {
      clearTimeout(entry.timer)
      const room = await entry.room.catch(() => null)
      await room?.close()
    })
    this.#entries.clear()
    const results = await Promise.allSettled([...closing, ...this.#unloading.values()])
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
  }
}
