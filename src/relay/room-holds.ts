/** How a backend loads and unloads its rooms; `RoomHolds` does the rest. */
export interface RoomHoldsOptions<R> {
  /** How long a room without holds stays loaded before it is unloaded. */
  readonly idleUnloadMs: number
  /** Loads a room; a rejection drops the entry, so the next acquire loads again. */
  readonly load: (name: string) => Promise<R>
  /** A load finished while its entry is current: the backend starts serving it (subscriptions, readers). */
  readonly onLoaded?: (room: R) => void
  /** A load finished after its entry was dropped (an outage, a close): the backend lets it go. */
  readonly onStale?: (room: R) => void
  /** Unloads a room whose last hold went `idleUnloadMs` ago (compaction, files, subscriptions). */
  readonly unload: (room: R) => Promise<void>
  /** Throws when no room may be acquired now (closing, storage down). */
  readonly assertUsable: () => void
  readonly onError: (err: unknown) => void
}

interface Entry<R> {
  readonly room: Promise<R>
  loaded: R | null
  holds: number
  timer: ReturnType<typeof setTimeout> | undefined
}

/**
 * The rooms a relay node has loaded, held while a connection is being admitted to them or is
 * connected. When the last hold goes a room is unloaded after `idleUnloadMs`, so memory follows
 * the pools in use, not every pool ever served; a room being unloaded is loaded again by the next
 * connection once the unload finished. One lifecycle for both backends (rooms.ts over files,
 * redis/cluster-rooms.ts over Redis), which each kept a copy of it.
 */
export class RoomHolds<R> {
  readonly #options: RoomHoldsOptions<R>
  readonly #entries = new Map<string, Entry<R>>()
  readonly #unloading = new Map<string, Promise<void>>()
  #closed = false

  constructor(options: RoomHoldsOptions<R>) {
    this.#options = options
  }

  /** Rooms loaded (or loading) now. */
  get size(): number {
    return this.#entries.size
  }

  /** The room loaded (or loading) under `name`, without holding it. */
  peek(name: string): Promise<R> | undefined {
    return this.#entries.get(name)?.room
  }

  /** The rooms whose load finished, current ones only. */
  loaded(): R[] {
    return [...this.#entries.values()].flatMap((e) => (e.loaded ? [e.loaded] : []))
  }

  /** Loads (or finds) a room and holds it until `release`. Throws what `assertUsable` throws. */
  async acquire(name: string): Promise<R> {
    for (;;) {
      this.#options.assertUsable()
      const unloading = this.#unloading.get(name)
      if (!unloading) break
      await unloading
    }
    let entry = this.#entries.get(name)
    if (!entry) {
      const created: Entry<R> = { room: this.#options.load(name), loaded: null, holds: 0, timer: undefined }
      entry = created
      this.#entries.set(name, created)
      created.room.then(
        (room) => {
          if (this.#entries.get(name) !== created) return this.#options.onStale?.(room)
          created.loaded = room
          this.#options.onLoaded?.(room)
        },
        () => {
          if (this.#entries.get(name) === created) this.#entries.delete(name)
        },
      )
    }
    entry.holds++
    clearTimeout(entry.timer)
    entry.timer = undefined
    return entry.room
  }

  /** Drops one hold; `room`, when given, is the room it was on: a hold on a room dropped since (an outage) is not one on the room loaded after. */
  release(name: string, room?: R): void {
    const entry = this.#entries.get(name)
    if (!entry || (room !== undefined && entry.loaded !== room)) return
    if (--entry.holds > 0 || this.#closed) return
    entry.timer = setTimeout(() => this.#unload(name, entry), this.#options.idleUnloadMs)
    entry.timer.unref?.()
  }

  #unload(name: string, entry: Entry<R>): void {
    if (entry.holds > 0 || this.#entries.get(name) !== entry) return
    this.#entries.delete(name)
    const done = entry.room
      .then((room) => this.#options.unload(room))
      .catch(this.#options.onError)
      .finally(() => this.#unloading.delete(name))
    this.#unloading.set(name, done)
  }

  /** Forgets `room` if it is the one loaded under its name (its holds go with it); nothing is unloaded. */
  drop(name: string, room: R): void {
    const entry = this.#entries.get(name)
    if (entry?.loaded === room) {
      clearTimeout(entry.timer)
      this.#entries.delete(name)
    }
  }

  /** Forgets every room (an outage); the caller gets them, to let each go as it must. */
  dropAll(): Array<Promise<R>> {
    const entries = [...this.#entries.values()]
    this.#entries.clear()
    for (const entry of entries) clearTimeout(entry.timer)
    return entries.map((e) => e.room)
  }

  /**
   * Closes every loaded room with `closeRoom` and waits for unloads in flight; `release` arms no
   * timer from now on. Idempotent. @throws the first failure, once everything settled
   */
  async close(closeRoom: (room: R) => Promise<void>): Promise<void> {
    this.#closed = true
    const closing = this.dropAll().map(async (room) => {
      const r = await room.catch(() => null)
      if (r !== null) await closeRoom(r)
    })
    const results = await Promise.allSettled([...closing, ...this.#unloading.values()])
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
  }
}
