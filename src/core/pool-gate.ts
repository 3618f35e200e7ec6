/**
 * How a protocol module asks whether it may put a record into a pool, without importing the pools
 * module (DESIGN.md layers): `createMemory` hands each module the pool store's gate. A module that
 * writes a pooled record signs it (src/core/signed-record.ts), names the pool, and uses the pool's
 * tenant, so the record means the same on every replica that receives it.
 */
export interface PoolWriteGrant {
  readonly pool: string
  readonly tenant: string | null
  /** Identities that act for people in the pool: its owner and its `humans` policy. */
  readonly humans: readonly string[]
  /**
   * A hybrid-logical-clock stamp later than every record of the pool seen here. The writer's clock
   * observes it before stamping, so the record is judged after the grant that allowed it: each
   * module keeps its own clock, and a grant that arrived through the pools module is not in it.
   */
  readonly after: string
}

export interface PoolGate {
  /**
   * @throws MemweaveError INVALID_ARGUMENT for a malformed id; NOT_FOUND for a pool not known here;
   *   PERMISSION_DENIED unless `author` (default: this memory's identity) may write it now; CAPABILITY_NOT_SUPPORTED for an
   *   encrypted pool (it carries only sealed pool memories: anything else would travel in the clear).
   */
  writable(pool: string, author?: string): Promise<PoolWriteGrant>
}
