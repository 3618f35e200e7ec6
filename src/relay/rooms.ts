import { join } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { readOwnerPin, type OwnerPin } from './owner-pin.js'
import { Room } from './room.js'
import { RoomHolds } from './room-holds.js'
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

/**
 * The rooms of a single-process relay (files, or memory): the lifecycle is `RoomHolds`'s (held while
 * connections are admitted or connected, unloaded when idle: compacted, file closed, document
 * freed); loading a room is `Room.open`.
 */
export class RoomRegistry implements RoomSource {
  readonly #options: RoomRegistryOptions
  readonly #holds: RoomHolds<Room>
  #closed = false

  constructor(options: RoomRegistryOptions) {
    this.#options = options
    this.#holds = new RoomHolds<Room>({
      idleUnloadMs: options.idleUnloadMs,
      load: (name) => Room.open(name, { ...options, dir: this.#roomDir(name) }),
      unload: (room) => room.close(),
      assertUsable: () => {
        if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'the relay is closing')
      },
      onError: options.onError,
    })
  }

  /** Rooms loaded (or loading) now. */
  get size(): number {
    return this.#holds.size
  }

  #roomDir(name: string): string | null {
    return this.#options.dir === null ? null : join(this.#options.dir, name)
  }

  /**
   * The pinned owner of a room without loading its document (a small file read when unloaded), so
   * a connection whose token cannot be admitted never makes the relay load a document.
   */
  async pinOf(name: string): Promise<OwnerPin | null> {
    const loaded = this.#holds.peek(name)
    if (loaded) return (await loaded).owner
    const dir = this.#roomDir(name)
    return dir === null ? null : readOwnerPin(dir)
  }

  /** Loads (or finds) a room and holds it until `release`. @throws MemweaveError CLOSED after close(); STORAGE */
  acquire(name: string): Promise<Room> {
    return this.#holds.acquire(name)
  }

  release(name: string, room?: Room): void {
    this.#holds.release(name, room)
  }

  /** Compacts and closes every room; acquire() fails from now on. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#holds.close((room) => room.close())
  }
}
