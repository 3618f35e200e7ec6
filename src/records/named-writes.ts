import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Forwarder, LogWriter } from './types.js'

type Named = (w: LogWriter, args: never) => Promise<unknown>

/** What named writes need of the record log they run on (log.ts). */
export interface NamedWriteHost {
  /** Queues a write into this tick's batch (`RecordLog.write`). */
  write<R>(run: (w: LogWriter) => Promise<R> | R): Promise<R>
  /** Remembers a mutation from the moment it is called, so the log's flush() and close() wait for it. */
  track<T>(mutation: Promise<T>): Promise<T>
  /** Catches up with every handle's commits (`RecordLog.ready`). */
  ready(): Promise<void>
  /** The last log row this handle has seen: noted with a forwarded write's recorded result. */
  readonly position: number
}

/**
 * The writes a follower tab hands to the elected leader, by name (`module.verb`): the runtime
 * moves them without knowing any protocol module. A name's `args` are structured-cloneable and
 * carry everything secret already applied (signatures), so keys never leave the tab that owns them.
 */
export class NamedWrites {
  readonly #host: NamedWriteHost
  readonly #named = new Map<string, Named>()
  /** Sends the writes to another handle (null: commit here). */
  forwarder: Forwarder | null = null
  /** Loads the module that defines a named write the leader does not know yet (a lazily loaded module). */
  resolve: ((name: string) => Promise<void>) | null = null

  constructor(host: NamedWriteHost) {
    this.#host = host
  }

  define<A>(name: string, apply: (w: LogWriter, args: A) => Promise<unknown>): void {
    this.#named.set(name, apply as Named)
  }

  /** Runs a named write here, or forwards it when another handle commits for this one. */
  async submit(name: string, args: unknown): Promise<unknown> {
    const apply = this.#named.get(name)
    if (!apply) throw new MemweaveError(ErrorCode.INTERNAL, `no write named "${name}" is defined`)
    const forwarder = this.forwarder
    if (!forwarder) return this.#host.write((w) => apply(w, args as never))
    return this.#host.track(
      (async () => {
        const result = await forwarder({ name, args })
        // Read your writes: the leader's commit is in storage; catch up before resolving.
        await this.#host.ready()
        return result
      })(),
    )
  }

  /**
   * Commits a named write forwarded by another handle. `requestId` makes it exactly-once: a retry
   * after a leader change is answered from the first commit's result, recorded in the same transaction.
   */
  async commitForwarded(name: string, args: unknown, requestId: string): Promise<unknown> {
    if (!this.#named.has(name) && this.resolve) await this.resolve(name)
    const apply = this.#named.get(name)
    if (!apply) throw new MemweaveError(ErrorCode.INTERNAL, `no write named "${name}" is defined`)
    return this.#host.write(async (w) => {
      const done = await w.tx.get<{ result: unknown }>('requests', requestId)
      if (done) return done.result
      const result = await apply(w, args as never)
      await w.tx.put('requests', [{ id: requestId, result, at: this.#host.position }])
      return result
    })
  }
}
