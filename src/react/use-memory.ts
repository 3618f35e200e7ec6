import { useMemo, useSyncExternalStore } from 'react'
import { openMemory, type OpenMemoryOptions, type RemoteMemory } from '../client.js'

/** Where the memory of `useMemory` stands. */
export type MemoryState =
  /** No options given (e.g. the identity is still loading): nothing is opened. */
  | { readonly status: 'idle'; readonly memory: null; readonly error: null }
  | { readonly status: 'opening'; readonly memory: null; readonly error: null }
  | { readonly status: 'open'; readonly memory: RemoteMemory; readonly error: null }
  /** openMemory rejected (WORKER_FAILED, CAPABILITY_NOT_SUPPORTED, INVALID_ARGUMENT...). */
  | { readonly status: 'failed'; readonly memory: null; readonly error: unknown }

const IDLE: MemoryState = Object.freeze({ status: 'idle', memory: null, error: null })
const OPENING: MemoryState = Object.freeze({ status: 'opening', memory: null, error: null })

/**
 * One opened memory shared by the React subscriptions of one `useMemory` call. It opens on the first
 * subscribe and closes once no subscription is left at the end of the task: StrictMode's
 * unmount-and-remount of effects happens synchronously inside one commit, so the remount finds the
 * memory still open and keeps it (one worker, not two), while a real unmount closes it.
 */
class MemorySlot {
  readonly #options: OpenMemoryOptions
  readonly #listeners = new Set<() => void>()
  #state: MemoryState = OPENING
  #opening: Promise<RemoteMemory> | null = null
  #closeTimer: ReturnType<typeof setTimeout> | undefined

  constructor(options: OpenMemoryOptions) {
    this.#options = options
  }

  readonly getSnapshot = (): MemoryState => this.#state

  readonly subscribe = (onChange: () => void): (() => void) => {
    this.#listeners.add(onChange)
    clearTimeout(this.#closeTimer)
    this.#closeTimer = undefined
    if (!this.#opening) this.#open()
    return () => {
      this.#listeners.delete(onChange)
      if (this.#listeners.size === 0) this.#closeTimer = setTimeout(() => this.#close(), 0)
    }
  }

  #open(): void {
    const opening = openMemory(this.#options)
    this.#opening = opening
    opening.then(
      (memory) => this.#settle(opening, { status: 'open', memory, error: null }),
      (error: unknown) => this.#settle(opening, { status: 'failed', memory: null, error }),
    )
  }

  #settle(opening: Promise<RemoteMemory>, state: MemoryState): void {
    // A memory opened for subscribers that have all gone (closed meanwhile) tells nobody.
    if (this.#opening !== opening) return
    this.#state = state
    for (const listener of [...this.#listeners]) listener()
  }

  #close(): void {
    this.#closeTimer = undefined
    const opening = this.#opening
    this.#opening = null
    this.#state = OPENING
    // Closed when it opens, if it is still opening: an unmount during openMemory leaks no worker.
    opening?.then((memory) => memory.close()).catch(() => undefined)
  }
}

const idle = {
  subscribe: () => () => undefined,
  getSnapshot: (): MemoryState => IDLE,
}

/**
 * Opens a memory in a worker (`openMemory`) while the component is mounted, and closes it when it
 * unmounts: the React way to hold a `RemoteMemory`. Under StrictMode's double effects the memory
 * is opened once; an unmount while it is still opening closes it as soon as it opens (no worker
 * is left behind) and updates nothing. The memory is reopened when `name`, `identity`, `mode` or
 * `worker` change; the other options are read when it opens. Pass `null` to open nothing yet
 * (while an identity loads, say).
 *
 * @param options What `openMemory` takes, or null.
 * @returns `{ status, memory, error }`: `memory` is set once `status` is `'open'`; `error` is what
 *   openMemory rejected with when `status` is `'failed'` (a MemweaveError with code WORKER_FAILED,
 *   CAPABILITY_NOT_SUPPORTED or INVALID_ARGUMENT).
 * @example
 * function App({ identity }: { identity: Identity }) {
 *   const { memory, error } = useMemory({ name: 'my-app', identity })
 *   if (error) return <p>Memory unavailable: {String(error)}</p>
 *   return memory ? <Preferences memory={memory} /> : <p>Opening…</p>
 * }
 */
export function useMemory(options: OpenMemoryOptions | null): MemoryState {
  const { name, identity, mode } = options ?? {}
  const worker = options?.worker === undefined ? undefined : String(options.worker)
  const slot = useMemo(
    () => (options ? new MemorySlot(options) : idle),
    // The options object itself is usually new on each render; what names a memory is these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [options === null, name, identity, mode, worker],
  )
  return useSyncExternalStore(slot.subscribe, slot.getSnapshot, slot.getSnapshot)
}
