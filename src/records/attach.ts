import type { RecordLog } from './log.js'
import type { Deriver } from './types.js'

/**
 * How a protocol module attaches its deriver to the record log: registered once (the log loads
 * every stored record of its kinds then), and caught up with every handle's commits on each
 * `ready()`. A registration that failed (storage busy or full at open) is forgotten, so the next
 * call registers again: one storage error must not leave the module broken until the Memory is
 * closed (issue 30; the five modules each kept a copy and only pools retried).
 */
export class LogAttachment {
  readonly #log: RecordLog
  readonly #deriver: Deriver
  readonly #onRegistered: (() => void) | undefined
  #registered: Promise<void> | undefined
  #done = false

  /** `onRegistered` runs once, after the registration that succeeded (facts saves its lexical snapshot then). */
  constructor(log: RecordLog, deriver: Deriver, options: { readonly onRegistered?: () => void } = {}) {
    this.#log = log
    this.#deriver = deriver
    this.#onRegistered = options.onRegistered
  }

  /** Whether a registration was started (it may still be running, or have failed). */
  get started(): boolean {
    return this.#registered !== undefined
  }

  /** Whether a registration succeeded: a caller may then go on in the same step, without awaiting `register()`. */
  get registered(): boolean {
    return this.#done
  }

  /** Registers once; later calls cost a resolved promise; a failed registration is tried again by the next call. */
  register(): Promise<void> {
    this.#registered ??= this.#log.register(this.#deriver).then(
      () => {
        this.#done = true
        this.#onRegistered?.()
      },
      (err: unknown) => {
        this.#registered = undefined
        throw err
      },
    )
    return this.#registered
  }

  /** Registered, and caught up with every handle's commits (then the deriver's work outside transactions settled). */
  async ready(): Promise<void> {
    await this.register()
    await this.#log.ready(this.#deriver)
  }

  /** Whether the deriver is registered, waiting for a registration under way (false if none was started or it failed): for close(). */
  async settled(): Promise<boolean> {
    if (!this.#registered) return false
    return this.#registered.then(() => true, () => false)
  }
}
