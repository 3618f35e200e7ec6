import { HUB_MIN_FACTS, HUB_SHARE, subjectName } from '../conflict/store/subject-name.js'
import type { Version } from './version.js'

/**
 * How many current free-text facts of each tenant open with each name (src/conflict/store/
 * hub-subject.ts weighs a flag by it). Kept as facts become current and stop being current, in
 * O(1) per change: never recounted over the store.
 */
export class SubjectTally {
  /** ref -> the tenant it counts in and the name it counts for (null: none; kept so a repeated add stays a no-op). */
  readonly #of = new Map<string, { readonly tenant: string; readonly name: string | null }>()
  /** tenant -> name -> count. */
  readonly #counts = new Map<string, Map<string, number>>()
  /**
   * tenant -> current free-text facts that open with a name. The share is of these, not of all
   * facts: notes that name no one ("rent is due on the 1st") say nothing about who the store is
   * about, and counting them made a two-person diary's hubs vanish when such notes were mixed in
   * (the eval's wide line, planted pairs in observations).
   */
  readonly #totals = new Map<string, number>()

  /** Counts a version (once, however often it is told). */
  add(v: Version): void {
    if (this.#of.has(v.ref)) return
    const tenant = v.tenant ?? ''
    const name = subjectName(v.body.content)
    this.#of.set(v.ref, { tenant, name })
    if (name === null) return
    this.#totals.set(tenant, (this.#totals.get(tenant) ?? 0) + 1)
    let names = this.#counts.get(tenant)
    if (!names) this.#counts.set(tenant, (names = new Map()))
    names.set(name, (names.get(name) ?? 0) + 1)
  }

  /** Uncounts a version; a no-op when it is not counted. */
  delete(ref: string): void {
    const known = this.#of.get(ref)
    if (!known) return
    this.#of.delete(ref)
    if (known.name === null) return
    const total = (this.#totals.get(known.tenant) ?? 1) - 1
    if (total > 0) this.#totals.set(known.tenant, total)
    else this.#totals.delete(known.tenant)
    const names = this.#counts.get(known.tenant)
    const n = (names?.get(known.name) ?? 1) - 1
    if (n > 0) names!.set(known.name, n)
    else names?.delete(known.name)
    if (names?.size === 0) this.#counts.delete(known.tenant)
  }

  /** The name a counted version opens with: null for none, undefined when it is not counted. */
  nameOf(ref: string): string | null | undefined {
    return this.#of.get(ref)?.name
  }

  /** The hub both versions open with (a name at HUB_SHARE of their tenant's facts, HUB_MIN_FACTS at least), or null. */
  sharedHub(a: Version, b: Version): { readonly name: string; readonly share: number } | null {
    const [x, y] = [this.#of.get(a.ref), this.#of.get(b.ref)]
    if (!x?.name || !y || x.name !== y.name || x.tenant !== y.tenant) return null
    const n = this.#counts.get(x.tenant)?.get(x.name) ?? 0
    const share = n / (this.#totals.get(x.tenant) ?? 1)
    return n >= HUB_MIN_FACTS && share >= HUB_SHARE ? { name: x.name, share } : null
  }

  clear(): void {
    this.#of.clear()
    this.#counts.clear()
    this.#totals.clear()
  }
}
