import type { ConformanceMemory, ConformanceRetrieveOptions, ConformanceStore, ConformanceWriteOptions } from '../../src/conformance/index.js'

/**
 * The negative-control stores of GMP §6.2-§6.3: each wraps an honest store and breaks exactly one
 * direction of one safety boundary, so the suite can show that it fails them where it should.
 */

const key = (ref: unknown): string => JSON.stringify(ref)

class Wrapper implements ConformanceStore {
  constructor(protected readonly inner: ConformanceStore) {}
  capabilities() { return this.inner.capabilities() }
  write(content: string, options?: ConformanceWriteOptions) { return this.inner.write(content, options) }
  supersede(oldRef: unknown, content: string, options?: ConformanceWriteOptions) { return this.inner.supersede(oldRef, content, options) }
  delete(ref: unknown) { return this.inner.delete(ref) }
  retrieve(query: string, options: ConformanceRetrieveOptions) { return this.inner.retrieve(query, options) }
  audit() { return this.inner.audit() }
  flush() { return this.inner.flush() }
}

/** F10: accepts the delete and reports success, but only marks a tombstone nobody reads. */
export class SoftDeleteStore extends Wrapper {
  readonly #tombstones = new Set<string>()
  override async delete(ref: unknown): Promise<boolean> {
    const known = (await this.inner.audit()).some((m) => key(m.ref) === key(ref))
    if (!known || this.#tombstones.has(key(ref))) return false
    this.#tombstones.add(key(ref))
    return true
  }
}

/** F11: deletes the target and also the fact written right after it. */
export class CoarseDeleteStore extends Wrapper {
  override async delete(ref: unknown): Promise<boolean> {
    const all = await this.inner.audit()
    const i = all.findIndex((m) => key(m.ref) === key(ref))
    if (i < 0) return false
    const neighbour = all[i + 1]
    const ok = await this.inner.delete(ref)
    if (neighbour) await this.inner.delete(neighbour.ref)
    return ok
  }
}

/** F12: accepts the tenant tag, keeps it as a label, and ignores it on the read path. */
export class LeakyTenantStore extends Wrapper {
  override write(content: string, options: ConformanceWriteOptions = {}) {
    const { tenantId, ...rest } = options
    return this.inner.write(content, { ...rest, metadata: { ...(rest.metadata ?? {}), _tenant: tenantId ?? null } })
  }
  override async retrieve(query: string, options: ConformanceRetrieveOptions): Promise<ConformanceMemory[]> {
    const got = await this.inner.retrieve(query, { ...options, tenantId: null })
    return got.map((m) => ({ ...m, tenantId: ((m as { metadata?: Record<string, unknown> }).metadata?.['_tenant'] as string | null) ?? null }))
  }
}

/** F13: over-scopes: withholds a tenant's facts whose text another tenant also holds. */
export class OverIsolatingStore extends Wrapper {
  readonly #tenantsByContent = new Map<string, Set<string | null>>()
  override write(content: string, options: ConformanceWriteOptions = {}) {
    let set = this.#tenantsByContent.get(content)
    if (!set) this.#tenantsByContent.set(content, (set = new Set()))
    set.add(options.tenantId ?? null)
    return this.inner.write(content, options)
  }
  override async retrieve(query: string, options: ConformanceRetrieveOptions): Promise<ConformanceMemory[]> {
    const got = await this.inner.retrieve(query, options)
    return got.filter((m) => (this.#tenantsByContent.get(m.content)?.size ?? 1) < 2)
  }
}
