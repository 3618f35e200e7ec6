import { invalidArgument } from '../core/errors.js'

const MiB = 1024 * 1024

/** What one client may cost the relay. Every field is optional in `createRelay({limits})`. */
export interface RelayLimits {
  /**
   * Largest websocket frame accepted, in bytes; a bigger one closes that connection with 1009
   * before it is buffered. A y-websocket client sends everything the relay lacks as one frame
   * (its sync step 2) when it connects, so this bounds how much a device can write offline
   * between two syncs: 128 MiB is about 200k small signed pool records (~650 bytes each in Yjs).
   * Default 128 MiB.
   */
  readonly maxMessageBytes: number
  /**
   * Largest document per pool, in bytes of its encoded Yjs state; an update that would pass it is
   * not applied and its sender is closed with 4413. Default 1 GiB.
   */
  readonly maxDocumentBytes: number
  /**
   * Largest amount of out-of-order Yjs content a pool may hold, in bytes: structs and deletions
   * whose dependencies have not arrived (Yjs keeps them in `doc.store.pendingStructs`/`pendingDs`,
   * outside the document and the log). Yjs re-merges all of it with every later update that is
   * itself out of order, so it is kept small; an update that leaves more than this pending has its
   * unresolved part dropped and its sender is closed with 4413 `too-much-pending`. Honest clients
   * leave at most a few records pending, briefly. Default 1 MiB.
   */
  readonly maxPendingBytes: number
  /** Connections accepted from one IP address per window; more are answered HTTP 429. Default 120. */
  readonly connectionsPerWindow: number
  /** The window of `connectionsPerWindow`, in ms. Default 60 s. */
  readonly connectionWindowMs: number
}

export const DEFAULT_LIMITS: RelayLimits = {
  maxMessageBytes: 128 * MiB,
  maxDocumentBytes: 1024 * MiB,
  maxPendingBytes: MiB,
  connectionsPerWindow: 120,
  connectionWindowMs: 60_000,
}

/** Fills in defaults and checks each limit is a positive integer. @throws MemweaveError INVALID_ARGUMENT */
export function resolveLimits(partial: Partial<RelayLimits> = {}): RelayLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw invalidArgument(`limits.${name}`, 'must be a positive integer')
  }
  return limits
}

/**
 * Counts connection attempts per IP address in fixed windows. Fixed windows let a client burst up
 * to twice the limit across a window boundary; that is fine for what this guards against (a
 * reconnect loop or a flood from one address), and it keeps one small entry per address.
 */
export class ConnectionRateLimiter {
  readonly #limit: number
  readonly #windowMs: number
  readonly #now: () => number
  readonly #windows = new Map<string, { start: number; count: number }>()

  constructor(limit: number, windowMs: number, now: () => number) {
    this.#limit = limit
    this.#windowMs = windowMs
    this.#now = now
  }

  /** Records an attempt from `ip`; returns 0 when allowed, else the ms until its window ends. */
  take(ip: string): number {
    const now = this.#now()
    if (this.#windows.size > 10_000) this.#sweep(now)
    let w = this.#windows.get(ip)
    if (!w || now - w.start >= this.#windowMs) {
      w = { start: now, count: 0 }
      this.#windows.set(ip, w)
    }
    w.count++
    return w.count > this.#limit ? w.start + this.#windowMs - now : 0
  }

  #sweep(now: number): void {
    for (const [ip, w] of this.#windows) if (now - w.start >= this.#windowMs) this.#windows.delete(ip)
  }
}
