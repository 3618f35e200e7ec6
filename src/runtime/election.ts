import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import type { RecordLog } from '../records/log.js'
import type { ForwardedWrite } from '../records/types.js'
import { channelName, isTabMessage, type SerializedError, type TabMessage } from './protocol.js'

function serialize(err: unknown): SerializedError {
  return isMemweaveError(err)
    ? { code: err.code, message: err.message, details: err.details }
    : { code: ErrorCode.INTERNAL, message: String(err), details: {} }
}

/**
 * Leader election among the dedicated workers of an origin's tabs, for browsers without
 * SharedWorker (Chrome on Android). The worker holding the Web Lock commits the record log's
 * named writes (src/records/log.ts `define`) for every tab; the others prepare and sign them
 * locally, forward them over a BroadcastChannel, and read
 * IndexedDB themselves. When the leader's tab closes, its lock is released, the next worker takes
 * it and announces itself, and followers resend every write not yet acknowledged. Each write
 * carries a request id that the leader records in the same transaction, so a resent write that
 * had in fact committed is answered from that record, never written twice.
 */
export class TabElection {
  readonly node = crypto.randomUUID()
  readonly #log: RecordLog
  readonly #channel: BroadcastChannel
  readonly #pending = new Map<string, { mutation: ForwardedWrite; resolve: (r: unknown) => void; reject: (e: unknown) => void }>()
  readonly #calls = new Map<string, { method: string; args: readonly unknown[]; resolve: (r: unknown) => void; reject: (e: unknown) => void }>()
  readonly #newsListeners = new Map<string, (value: unknown) => void>()
  readonly #leadListeners: Array<() => void> = []
  #serve: ((method: string, args: readonly unknown[]) => Promise<unknown>) | null = null
  #leader: string | null = null
  #isLeader = false
  #release: (() => void) | undefined
  #closed = false

  constructor(database: string, log: RecordLog) {
    this.#log = log
    this.#channel = new BroadcastChannel(channelName(database))
    this.#channel.onmessage = (event) => this.#onMessage(event.data)
    log.setForwarder((write) => this.#forward(write))
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

  /** What this worker runs when it leads and a follower forwards a call (`call`). */
  serve(handler: (method: string, args: readonly unknown[]) => Promise<unknown>): void {
    this.#serve = handler
  }

  /** Calls `listener` when this worker becomes the leader (now, if it already is). */
  onLead(listener: () => void): void {
    this.#leadListeners.push(listener)
    if (this.#isLeader) listener()
  }

  /** Runs `method` on the leader: here when this worker leads, else forwarded (and resent to a new leader until answered). */
  call(method: string, args: readonly unknown[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory is closed'))
    if (this.#isLeader) return this.#run(method, args)
    const id = `${Date.now().toString(36)}-${crypto.randomUUID()}`
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { method, args, resolve, reject })
      if (this.#leader) this.#post({ type: 'call', v: 1, id, from: this.node, method, args })
    })
  }

  #run(method: string, args: readonly unknown[]): Promise<unknown> {
    if (!this.#serve) return Promise.reject(new MemweaveError(ErrorCode.INTERNAL, `the leader serves no "${method}"`))
    return this.#serve(method, args)
  }

  /** Tells every other worker of the database (`onNews` there). */
  announce(topic: string, value: unknown): void {
    if (!this.#closed) this.#post({ type: 'news', v: 1, topic, from: this.node, value })
  }

  onNews(topic: string, listener: (value: unknown) => void): void {
    this.#newsListeners.set(topic, listener)
  }

  #becomeLeader(): void {
    this.#isLeader = true
    this.#leader = this.node
    this.#log.setForwarder(null)
    this.#post({ type: 'leader', v: 1, node: this.node })
    // Our own writes that were waiting for a leader are committed here now.
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id)
      this.#log.commitForwarded(p.mutation.name, p.mutation.args, id).then(p.resolve, p.reject)
    }
    for (const [id, c] of this.#calls) {
      this.#calls.delete(id)
      this.#run(c.method, c.args).then(c.resolve, c.reject)
    }
    for (const listener of this.#leadListeners) listener()
  }

  #forward(mutation: ForwardedWrite): Promise<unknown> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory is closed'))
    const id = `${Date.now().toString(36)}-${crypto.randomUUID()}`
    if (this.#isLeader) return this.#log.commitForwarded(mutation.name, mutation.args, id)
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
          for (const [id, c] of this.#calls) this.#post({ type: 'call', v: 1, id, from: this.node, method: c.method, args: c.args })
        }
        return
      case 'call':
        if (!this.#isLeader) return
        this.#run(msg.method, msg.args).then(
          (result) => this.#post({ type: 'returned', v: 1, id: msg.id, to: msg.from, result }),
          (err: unknown) => this.#post({ type: 'failed', v: 1, id: msg.id, to: msg.from, error: serialize(err) }),
        )
        return
      case 'returned': {
        if (msg.to !== this.node) return
        const c = this.#calls.get(msg.id)
        if (!c) return
        this.#calls.delete(msg.id)
        c.resolve(msg.result)
        return
      }
      case 'news':
        if (msg.from !== this.node) this.#newsListeners.get(msg.topic)?.(msg.value)
        return
      case 'who-leads':
        if (this.#isLeader) this.#post({ type: 'leader', v: 1, node: this.node })
        return
      case 'commit':
        if (!this.#isLeader) return
        this.#log.commitForwarded(msg.mutation.name, msg.mutation.args, msg.id).then(
          (result) => this.#post({ type: 'committed', v: 1, id: msg.id, to: msg.from, result }),
          (err: unknown) => this.#post({ type: 'failed', v: 1, id: msg.id, to: msg.from, error: serialize(err) }),
        )
        return
      case 'committed':
      case 'failed': {
        if (msg.to !== this.node) return
        const p = this.#pending.get(msg.id) ?? (msg.type === 'failed' ? this.#calls.get(msg.id) : undefined)
        if (!p) return
        this.#pending.delete(msg.id)
        this.#calls.delete(msg.id)
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
    for (const c of this.#calls.values()) c.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory was closed before the leader answered'))
    this.#pending.clear()
    this.#calls.clear()
  }
}
