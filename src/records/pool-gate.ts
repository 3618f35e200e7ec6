/**
 * How a protocol module asks whether it may put a record into a pool, without importing the pools
 * module (DESIGN.md layers): the record log hands every module the pool store's gate. A module that
 * writes a pooled record seals it with the grant (RecordLog.seal signs it), so it names the pool and
 * carries the pool's tenant, and means the same on every replica that receives it. The grant needs
 * no clock stamp: one clock per Memory has seen every record the pool module judged.
 */
export interface PoolWriteGrant {
  readonly pool: string
  readonly tenant: string | null
  /** Identities that act for people in the pool: its owner and its `humans` policy. */
  readonly humans: readonly string[]
}

export interface PoolGate {
  /**
   * @throws MemweaveError INVALID_ARGUMENT for a malformed id; NOT_FOUND for a pool not known here;
   *   PERMISSION_DENIED unless `author` (default: this memory's identity) may write it now; CAPABILITY_NOT_SUPPORTED for an
   *   encrypted pool (it carries only sealed pool memories: anything else would travel in the clear).
   */
  writable(pool: string, author?: string): Promise<PoolWriteGrant>
}
