import { HUB_MIN_FACTS, HUB_SHARE, subjectName } from '../conflict/store/subject-name.js'
import type { Version } from './version.js'

/** One name of one tenant and how many current facts open with it (null: facts that open with none, not counted). */
export interface Subject {
  readonly tenant: string
  readonly name: string | null
  count: number
}

/**
 * How many current free-text facts of each tenant open with each name (src/conflict/store/
 * hub-subject.ts weighs a flag by it). Kept as facts become current and stop being current, in
 * O(1) per change: never recounted over the store.
 */
export class SubjectTally {
  /**
   * ref -> its subject. Facts share one record per tenant and name (names28: a record and a name
   * string of its own per fact were about 60 B of heap a fact; now a fact costs its Map entry).
   */
  readonly #of = new Map<string, Subject>()
  /** tenant -> name -> the shared record; a counted name leaves when its count reaches 0. */
  readonly #subjects = new Map<string, Map<string | null, Subject>>()
  /**
   * tenant -> current free-text facts that open with a name. The share is of these, not of all
   * facts: notes that name no one ("rent is due on the 1st") say nothing about who the store is
   * about, and counting them made a two-person diary's hubs vanish when such notes were mixed in
   * (the eval's wide line, planted pairs in observations).
   */
  readonly #totals = new Map<string, number>()
  /**
   * tenant -> current free-text facts that open with a name or a noun ("the user", hub33). A noun's
   * share is of these; a name's stays of names, so "The library ..." notes do not dilute it.
   */
  readonly #all = new Map<string, number>()

  /** Counts a version (once, however often it is told); returns its name's record when this call counted it, else undefined. */
  add(v: Version): Subject | undefined {
    if (this.#of.has(v.ref)) return undefined
    const tenant = v.tenant ?? ''
    const name = subjectName(v.body.content)
    let names = this.#subjects.get(tenant)
    if (!names) this.#subjects.set(tenant, (names = new Map()))
    let s = names.get(name)
    if (!s) names.set(name, (s = { tenant, name, count: 0 }))
    this.#of.set(v.ref, s)
    if (name === null) return s
    s.count++
    bump(this.#all, tenant, 1)
    if (!name.includes(' ')) bump(this.#totals, tenant, 1)
    return s
  }

  /** Uncounts a version; a no-op when it is not counted. */
  delete(ref: string): void {
    const s = this.#of.get(ref)
    if (!s) return
    this.#of.delete(ref)
    if (s.name === null) return
    bump(this.#all, s.tenant, -1)
    if (!s.name.includes(' ')) bump(this.#totals, s.tenant, -1)
    if (--s.count > 0) return
    // No fact holds the record now: a later fact of the name makes a new one.
    const names = this.#subjects.get(s.tenant)!
    names.delete(s.name)
    if (names.size === 0) this.#subjects.delete(s.tenant)
  }

  /** The record of the name a counted version opens with (shared by its tenant's facts of that name), undefined when it is not counted. */
  subjectOf(ref: string): Subject | undefined {
    return this.#of.get(ref)
  }

  /** The hub both versions open with (a name or noun at HUB_SHARE of their tenant's facts, HUB_MIN_FACTS at least), or null. */
  sharedHub(a: Version, b: Version): { readonly name: string; readonly share: number } | null {
    const x = this.#of.get(a.ref)
    // One record per tenant and name: the same record is the same name in the same tenant.
    if (!x?.name || x !== this.#of.get(b.ref)) return null
    return this.#hub(x)
  }

  /**
   * The hub either version opens with, or null (hub37): the store's hub is a word every note
   * carries, whether or not the other note opens with it ("Lapwing is 62 feet long and the user ...").
   */
  hubOf(a: Version, b: Version): { readonly name: string; readonly share: number } | null {
    const x = this.#of.get(a.ref)
    return (x && this.#hub(x)) ?? (this.#of.get(b.ref) ? this.#hub(this.#of.get(b.ref)!) : null)
  }

  #hub(x: Subject): { readonly name: string; readonly share: number } | null {
    if (!x.name) return null
    const share = x.count / ((x.name.includes(' ') ? this.#all : this.#totals).get(x.tenant) ?? 1)
    return x.count >= HUB_MIN_FACTS && share >= HUB_SHARE ? { name: x.name, share } : null
  }

  clear(): void {
    this.#of.clear()
    this.#subjects.clear()
    this.#totals.clear()
    this.#all.clear()
  }
}

/** Adds d to a tenant's count; a count of 0 leaves the map. */
function bump(m: Map<string, number>, tenant: string, d: number): void {
  const n = (m.get(tenant) ?? 0) + d
  if (n > 0) m.set(tenant, n)
  else m.delete(tenant)
}
