import { compareRecords, type PoolRecord } from '../pools/records.js'
import { compareQuarantined, type Plan } from './materialize.js'
import type { QuarantinedRecord } from './quarantine.js'

/**
 * What changed in the plan since the caller last asked (`Planner.takeDelta`): the records that
 * entered `accepted`, the ids that left it, and the quarantine entries that appeared, changed or
 * went, each as the plan now has it. Lets a caller keep storage in line in O(change) per pass.
 */
export interface PlanDelta {
  readonly accepted: readonly PoolRecord[]
  readonly unaccepted: readonly string[]
  readonly quarantined: readonly QuarantinedRecord[]
  /** Keys that no longer have a quarantine entry. */
  readonly released: readonly string[]
  /** Ids a tombstone judged in the pass forgets (the plan's `forgotten` only grows between full passes). */
  readonly forgotten: readonly string[]
}

/**
 * The planner's plan by id and by key, and what moved in it since the last `takeDelta`. Sorted only
 * when a plan's lists are read (a full pass, tests): kept sorted on every insertion they cost O(n)
 * each, which made a join of 100k quadratic.
 */
export class PlanBook {
  #acceptedById = new Map<string, PoolRecord>()
  #quarantinedByKey = new Map<string, QuarantinedRecord>()
  /** Ids and keys whose place may have changed since the last `takeDelta`, and ids newly forgotten; null after a full pass (everything may have). */
  #touched: { ids: Set<string>; keys: Set<string>; forgotten: string[] } | null = null
  /** Bumped by every finished pass: a plan's lists are read in the pass that made them. */
  #version = 0

  /** The accepted record under `id`. */
  accepted(id: string): PoolRecord | undefined {
    return this.#acceptedById.get(id)
  }

  /** The quarantine entry under `key`. */
  quarantined(key: string): QuarantinedRecord | undefined {
    return this.#quarantinedByKey.get(key)
  }

  /** A full pass's plan replaces everything: the next `takeDelta` answers null. */
  reset(accepted: readonly PoolRecord[], quarantined: readonly QuarantinedRecord[]): void {
    this.#acceptedById = new Map(accepted.map((r) => [r.id, r]))
    this.#quarantinedByKey = new Map(quarantined.map((q) => [q.key, q]))
    this.#touched = null
  }

  accept(r: PoolRecord): void {
    this.#acceptedById.set(r.id, r)
    this.#touched?.ids.add(r.id)
  }

  unaccept(r: PoolRecord): void {
    this.#acceptedById.delete(r.id)
    this.#touched?.ids.add(r.id)
  }

  quarantine(q: QuarantinedRecord): void {
    this.#quarantinedByKey.set(q.key, q)
    this.#touched?.keys.add(q.key)
  }

  release(q: QuarantinedRecord): void {
    this.#quarantinedByKey.delete(q.key)
    this.#touched?.keys.add(q.key)
  }

  /** Ids a tombstone judged in an incremental pass newly forgets. */
  forgot(ids: readonly string[]): void {
    this.#touched?.forgotten.push(...ids)
  }

  /**
   * What changed since the last call, or null when a full pass ran in between (or none was taken
   * yet): then the caller compares the whole plan with what it holds.
   */
  takeDelta(): PlanDelta | null {
    const touched = this.#touched
    this.#touched = { ids: new Set(), keys: new Set(), forgotten: [] }
    if (touched === null) return null
    const accepted: PoolRecord[] = []
    const unaccepted: string[] = []
    for (const id of touched.ids) {
      const r = this.#acceptedById.get(id)
      if (r) accepted.push(r)
      else unaccepted.push(id)
    }
    const quarantined: QuarantinedRecord[] = []
    const released: string[] = []
    for (const key of touched.keys) {
      const q = this.#quarantinedByKey.get(key)
      if (q) quarantined.push(q)
      else released.push(key)
    }
    return { accepted, unaccepted, quarantined, released, forgotten: touched.forgotten }
  }

  /** The plan of the pass that just finished, with `forgotten` as the planner holds it. */
  plan(forgotten: ReadonlySet<string>): Plan {
    // The lists are copied only when read (a pass that stores by `takeDelta` never reads them), and
    // only in the pass that made the plan: the next pass changes them.
    const version = ++this.#version
    const current = (): void => {
      if (this.#version !== version) throw new Error('a plan of the sync planner is read after the next pass began')
    }
    const acceptedById = this.#acceptedById
    const quarantinedByKey = this.#quarantinedByKey
    let accepted: PoolRecord[] | undefined
    let quarantined: QuarantinedRecord[] | undefined
    return {
      get accepted() {
        if (!accepted) current()
        return (accepted ??= [...acceptedById.values()].sort(compareRecords))
      },
      forgotten,
      get quarantined() {
        if (!quarantined) current()
        return (quarantined ??= [...quarantinedByKey.values()].sort(compareQuarantined))
      },
    }
  }
}
