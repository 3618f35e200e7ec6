/**
 * The news a handle on an IndexedDB database gives the other handles of the origin (tabs, workers)
 * over one BroadcastChannel per database: "I committed" (they catch up) and "I listen". Each is a
 * discriminated message with a version; a handle of an older build calls its listeners on any
 * message, so to it every one of these reads as a commit (a catch-up that finds nothing new).
 */
export type CommitNotice =
  /** This handle committed a write transaction: listeners catch up. */
  | { readonly type: 'committed'; readonly v: 1 }
  /** This handle listens (it called `watch`): a writer that did not know it starts telling it. */
  | { readonly type: 'watching'; readonly v: 1 }
  /** The answer of a listening handle to `watching`: the newcomer knows it too. Not answered. */
  | { readonly type: 'here'; readonly v: 1 }

/**
 * How long a commit may go unannounced when no other handle is known on the channel. A handle of
 * a build before this one never says it listens; one that only reads (a tab showing a live query)
 * would never hear this handle's commits, so they are still announced, at most once per this
 * interval (the first at once, the rest in one trailing notice).
 */
export const UNHEARD_NOTICE_MS = 1000

/** The channel's name for database `name`; the same in every build since 0.1. */
export function noticeChannelName(name: string): string {
  return `memweave-db:${name}`
}

/**
 * One handle's side of the channel (dexie-adapter.ts). A commit is announced at once when another
 * handle is known to be there, that is, it has said something on the channel (`watching`, `here`,
 * or a commit of its own). A handle alone on its database (one SharedWorker serving every tab, a
 * page's own createMemory) posts no message per commit: in Chromium that post cost an awaited
 * single write about 0.15 ms of its 1.2 (issue 31, seventh round). When a handle first appears,
 * the writer announces at once what it committed unannounced, so a newcomer misses nothing.
 * The channel is opened lazily, on the first watch or commit (STYLE.md rule 3).
 */
export class CommitNotices {
  readonly #name: string
  readonly #now: () => number
  readonly #listeners = new Set<() => void>()
  #channel: BroadcastChannel | undefined
  /** Another handle has spoken on the channel: commits are announced at once. */
  #peers = false
  /** This handle committed since its last notice. */
  #unannounced = false
  #lastNotice = -Infinity
  #trailing: ReturnType<typeof setTimeout> | undefined

  constructor(name: string, now: () => number = () => Date.now()) {
    this.#name = name
    this.#now = now
  }

  /** Calls `listener` after another handle committed; says on the channel that this handle listens. */
  watch(listener: () => void): () => void {
    const first = this.#listeners.size === 0
    this.#listeners.add(listener)
    if (first) this.#post({ type: 'watching', v: 1 })
    return () => void this.#listeners.delete(listener)
  }

  /** This handle committed a write transaction. */
  committed(): void {
    this.#unannounced = true
    if (this.#peers || this.#now() - this.#lastNotice >= UNHEARD_NOTICE_MS) return this.#announce()
    // No one known: the rest of the interval's commits share one notice at its end.
    this.#trailing ??= unref(setTimeout(() => {
      this.#trailing = undefined
      if (this.#unannounced) this.#announce()
    }, Math.max(0, this.#lastNotice + UNHEARD_NOTICE_MS - this.#now())))
    // Hearing a peer on the way (`#heard`) announces at once; the timer then finds nothing to do.
    this.#ensureChannel()
  }

  /**
   * Announces what is still unannounced, then closes the channel and forgets listeners and peers
   * (a handle opened again starts as a new one). Idempotent.
   */
  close(): void {
    if (this.#unannounced) this.#announce()
    clearTimeout(this.#trailing)
    this.#trailing = undefined
    this.#listeners.clear()
    this.#peers = false
    this.#channel?.close()
    this.#channel = undefined
  }

  #announce(): void {
    this.#unannounced = false
    this.#lastNotice = this.#now()
    this.#post({ type: 'committed', v: 1 })
  }

  #post(notice: CommitNotice): void {
    this.#ensureChannel()?.postMessage(notice)
  }

  #ensureChannel(): BroadcastChannel | undefined {
    if (this.#channel || typeof BroadcastChannel === 'undefined') return this.#channel
    this.#channel = new BroadcastChannel(noticeChannelName(this.#name))
    // Node keeps a process alive while a channel is open; a store must not.
    unref(this.#channel)
    this.#channel.onmessage = (event: MessageEvent) => this.#heard(event.data)
    return this.#channel
  }

  #heard(data: unknown): void {
    this.#peers = true
    const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined
    if (type === 'watching' || type === 'here') {
      // A handle that listens and did not know this one: it hears what this one committed unannounced, and that this one listens.
      if (this.#unannounced) this.#announce()
      if (type === 'watching' && this.#listeners.size > 0) this.#post({ type: 'here', v: 1 })
      return
    }
    // A commit, or a message of an older build (which only ever posted commits).
    for (const listener of [...this.#listeners]) listener()
  }
}

function unref<T>(handle: T): T {
  ;(handle as { unref?: () => void }).unref?.()
  return handle
}
