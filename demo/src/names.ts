import { shortDid } from './dom.js'

/**
 * Display names for agents. memweave knows agents only by DID; people know each other by name. A
 * name here is a local label kept in this browser profile's storage (never sent anywhere except
 * this agent's own name, which travels in the join links it makes so that members can label it).
 */

const KEY = 'memweave-demo:names'

export class Names {
  readonly me: string
  readonly #storage: Storage

  constructor(me: string, storage: Storage = localStorage) {
    this.me = me
    this.#storage = storage
  }

  #all(): Record<string, string> {
    try {
      const value = JSON.parse(this.#storage.getItem(KEY) ?? '{}') as unknown
      return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {}
    } catch {
      return {}
    }
  }

  /** The label given to `did`, or null. */
  label(did: string): string | null {
    const name = this.#all()[did]
    return typeof name === 'string' && name.trim() ? name.trim() : null
  }

  /** Sets (or, with an empty name, removes) the label of `did`. */
  set(did: string, name: string): void {
    const all = this.#all()
    if (name.trim()) all[did] = name.trim().slice(0, 40)
    else delete all[did]
    this.#storage.setItem(KEY, JSON.stringify(all))
  }

  /** Labels `did` unless it already has a label (a name that came with a join link). */
  suggest(did: string, name: string | null | undefined): void {
    if (name && !this.label(did)) this.set(did, name)
  }

  /** What the page calls `did`: "you", a label, or the shortened DID. */
  of(did: string): string {
    if (did === this.me) return 'you'
    return this.label(did) ?? shortDid(did)
  }
}
