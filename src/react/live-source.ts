/**
 * What a live hook returns: the latest result, or why there is none. `loading` is true until the
 * first result or error arrives (and again while a changed query or memory is being asked).
 */
export interface Live<T> {
  /** The latest result; undefined until the first one arrives. */
  readonly data: T | undefined
  /** The error that stopped the subscription (a bad query, a closed memory), or null. */
  readonly error: unknown
  readonly loading: boolean
}

/** Starts a subscription of the memory's; calls `push` per result; resolves with its stop function. */
export type Start<T> = (push: (value: T) => void) => Promise<() => unknown>

const LOADING: Live<never> = Object.freeze({ data: undefined, error: null, loading: true })
const IDLE: Live<never> = Object.freeze({ data: undefined, error: null, loading: false })

/**
 * An external store (for React's useSyncExternalStore) over one of the memory's async
 * subscriptions (`facts.subscribe`, `sync.subscribe`, ...). Nothing starts until React subscribes,
 * so a source made during a render that is thrown away (StrictMode renders twice) costs nothing.
 * Each React subscription starts its own memory subscription and stops it on unsubscribe, also
 * when the memory's subscribe is still pending then: it is stopped as soon as it resolves, and no
 * result or error reaches React after the unsubscribe (an unmounted component is never updated).
 */
export class LiveSource<T> {
  #snapshot: Live<T>
  readonly #start: Start<T> | null

  /** `start` null: nothing to subscribe to (no memory yet); the snapshot stays idle. */
  constructor(start: Start<T> | null) {
    this.#start = start
    this.#snapshot = start ? LOADING : IDLE
  }

  readonly getSnapshot = (): Live<T> => this.#snapshot

  readonly subscribe = (onChange: () => void): (() => void) => {
    const start = this.#start
    if (!start) return () => undefined
    let active = true
    let stop: (() => unknown) | null = null
    const settle = (next: Live<T>): void => {
      if (!active) return
      this.#snapshot = next
      onChange()
    }
    start((value) => settle({ data: value, error: null, loading: false })).then(
      (s) => {
        if (active) stop = s
        else void quietly(s)
      },
      (error: unknown) => settle({ data: this.#snapshot.data, error, loading: false }),
    )
    return () => {
      active = false
      if (stop) void quietly(stop)
    }
  }
}

/** Runs a stop function whose failure (a memory closed meanwhile) has nobody left to tell. */
async function quietly(stop: () => unknown): Promise<void> {
  try {
    await stop()
  } catch {
    // The subscription died with its memory: nothing to stop.
  }
}
