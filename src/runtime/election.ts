import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import type { FactMutation, GmpFactStore } from '../facts/store.js'
import type { FactRef } from '../facts/types.js'
import { channelName, isTabMessage, type TabMessage } from './protocol.js'

/**
 * Leader election among the dedicated workers of an origin's tabs, for browsers without
 * SharedWorker (Chrome on Android). The worker holding the Web Lock commits every write; the
 * others prepare and sign writes locally, forward them over a BroadcastChannel, and read
 * IndexedDB themselves. When the leader's tab closes, its lock is released, the next worker takes
 * it and announces itself, and followers resend every write not yet acknowledged. Each write
 * carries a request id that the leader records in the same transaction, so a resent write that
 * had in fact committed is answered from that record, never written twice.
 */
export class TabElection {
  readonly node = crypto.randomUUID()
  readonly #store: GmpFactStore
  readonly #channel: BroadcastChannel
  readonly #pending = new Map<string, { mutation: FactMutation; resolve: (r: string | boolean) => void; reject: (e: unknown) => void }>()
  #leader: string | null = null
  #isLeader = false
  #release: (() => void) | undefined
  #closed = false

  constructor(database: string, store: GmpFactStore) {
    this.#store = store
    this.#channel = new BroadcastChannel(channelName(database))
    this.#channel.onmessage = (event) => this.#onMessage(event.data)
    store.setCommitter((mutation) => this.#forward(mutation) as Promise<FactRef | boolean>)
    this.#post({ type: 'who-leads', v: 1, node: this.node })
    void navigator.locks
      .request(`memweave-leader:${database}`, () => {
        if (this.#closed) return undefined
        this.#becomeLeader()
        // Hold the lock for the life of this worker: it is released when the tab goes away.
        return new Promise<void>((resolve) => (this.#release = resolve))
      })
      .catch(() => undefined)
  }

  get isLeader(): boolean {
    return this.#isLeader
  }

  #becomeLeader(): void {
    this.#isLeader = true
    this.#leader = this.node
    this.#store.setCommitter(null)
    this.#post({ type: 'leader', v: 1, node: this.node })
    // Our own writes that were waiting for a leader are committed here now.
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id)
      this.#store.commitForwarded(p.mutation, id).then(p.resolve, p.reject)
    }
  }

  #forward(mutation: FactMutation): Promise<string | boolean> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory is closed'))
    const id = `${Date.now().toString(36)}-${crypto.randomUUID()}`
    if (this.#isLeader) return this.#store.commitForwarded(mutation, id)
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { mutation, resolve, reject })
      if (this.#leader) this.#post({ type: 'commit', v: 1, id, from: this.node, mutation })
    })
  }

  #onMessage(data: unknown): void {
    if (!isTabMessage(data) || this.#closed) return
    const msg = data as TabMessage
    switch (msg.type) {
      case 'leader':
        this.#leader = msg.node
        if (msg.node !== this.node) {
          for (const [id, p] of this.#pending) this.#post({ type: 'commit', v: 1, id, from: this.node, mutation: p.mutation })
        }
        return
      case 'who-leads':
        if (this.#isLeader) this.#post({ type: 'leader', v: 1, node: this.node })
        return
      case 'commit':
        if (!this.#isLeader) return
        this.#store.commitForwarded(msg.mutation, msg.id).then(
          (result) => this.#post({ type: 'committed', v: 1, id: msg.id, to: msg.from, result }),
          (err: unknown) =>
            this.#post({
              type: 'failed', v: 1, id: msg.id, to: msg.from,
              error: isMemweaveError(err)
                ? { code: err.code, message: err.message, details: err.details }
                : { code: ErrorCode.INTERNAL, message: String(err), details: {} },
            }),
        )
        return
      case 'committed':
      case 'failed': {
        if (msg.to !== this.node) return
        const p = this.#pending.get(msg.id)
        if (!p) return
        this.#pending.delete(msg.id)
        if (msg.type === 'committed') p.resolve(msg.result)
        else p.reject(new MemweaveError(msg.error.code, msg.error.message, msg.error.details))
        return
      }
    }
  }

  #post(msg: TabMessage): void {
    this.#channel.postMessage(msg)
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#release?.()
    this.#channel.close()
    for (const p of this.#pending.values()) p.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory was closed before the leader committed the write'))
    this.#pending.clear()
  }
}
