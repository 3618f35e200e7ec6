import { FactViewMarker } from './fact-view-marker.js'
import type { FactView } from './fact-view.js'
import type { PoolReplica } from './replica.js'
import type { PoolId } from './types.js'

/**
 * Keeps the pools' fact views in line across sessions (issue 31, factview31b, lease31) with the
 * marker rows (fact-view-marker.ts): this handle's row is written before its first change (its own
 * commits, the fact view's, and records sync applies from another replica: `beforeChange`), and
 * deleted at a clean close. When the rows say a session was killed, or say nothing (an older store),
 * every pool's facts are brought in line once, a pool at a time after the open (not in the first
 * write: O(pool) work there is what factview31 took out), while `mem.facts` reads wait. A session
 * killed while this handle is open (another tab's, whose lease was running at the open) is caught
 * when its lease lapses: by this handle's renewal tick, or the next `mem.facts` read past it.
 */
export class FactViewGuard {
  readonly #r: PoolReplica
  readonly #view: FactView
  /** Brings one pool's facts in line whole (maintenance's queue, so no write of it interleaves). */
  readonly #repairPool: (pool: PoolId) => Promise<void>
  readonly #marker: FactViewMarker
  /** The fact views are in line as far as the rows tell (or were repaired since). */
  #inLine = false
  #checked: Promise<boolean> | undefined
  #repairing: Promise<void> | undefined
  #rechecking: Promise<void> | undefined
  #stopped = false

  constructor(r: PoolReplica, view: FactView, repairPool: (pool: PoolId) => Promise<void>) {
    this.#r = r
    this.#view = view
    this.#repairPool = repairPool
    // Each renewal tick reads the rows again: a handle opened after this one and killed since is caught too.
    this.#marker = new FactViewMarker(r.log, () => r.now(), () => void this.#recheck().catch(() => undefined))
    r.onOpen = () => this.#opened()
    r.beforeChange = () => this.#marker.mark()
    view.beforeChange(r.beforeChange)
    // A read of mem.facts before any of mem.pools still meets a killed session's facts repaired.
    // Only a store the rows do not vouch for (and that holds a pool) makes it wait for the pools' load.
    view.holdWhenDue(() => this.#due())
  }

  #due(): Promise<unknown> | undefined {
    if (this.#stopped) return undefined
    if (this.#repairing) return this.#repairing
    if (!this.#inLine) return this.#check().then((inLine) => (inLine ? undefined : this.#r.ready().then(() => this.#repairing)))
    return this.#marker.due() ? this.#recheck() : undefined
  }

  /** Once per session, when the pools are first ready. */
  async #opened(): Promise<void> {
    if (this.#r.state.poolIds().length > 0) this.#view.indexFacts()
    if (!(await this.#check())) this.#repair()
  }

  /** The rows read once: whether the facts were left in line. */
  #check(): Promise<boolean> {
    return (this.#checked ??= this.#marker.read().then((inLine) => {
      this.#view.trust(inLine)
      if (inLine) this.#inLine = true
      return inLine
    }, (err: unknown) => {
      this.#checked = undefined
      throw err
    }))
  }

  /** Another handle's lease ran past its end: read the rows again, and repair if it was not renewed. */
  #recheck(): Promise<void> {
    if (this.#stopped || this.#repairing || !this.#inLine) return this.#repairing ?? Promise.resolve()
    return (this.#rechecking ??= this.#marker.lapsed().then((lapsed) => (lapsed ? this.#repair() : undefined)).finally(() => (this.#rechecking = undefined)))
  }

  #repair(): Promise<void> {
    this.#repairing ??= (async () => {
      const r = this.#r
      // A pool's reconcile in the meantime reads it whole too (fact-view.ts `reconcile`, the start).
      this.#view.trust(false)
      await r.ready()
      for (const pool of r.state.poolIds()) {
        if (this.#stopped) return
        await this.#repairPool(pool)
      }
      if (this.#stopped) return
      await this.#marker.repaired()
      this.#inLine = true
      this.#view.trust(true)
    })().finally(() => (this.#repairing = undefined))
    this.#view.hold(this.#repairing)
    return this.#repairing
  }

  /** At a clean close, once maintenance has run: the facts are left in line. */
  async closed(): Promise<void> {
    await this.#marker.close()
  }

  stop(): void {
    this.#stopped = true
    this.#marker.stop()
  }
}
