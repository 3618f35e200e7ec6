import type { Identity } from '../core/identity.js'
import type { SignatureCache } from '../core/signature-cache.js'
import type { FactLookup, FactStore } from '../facts/types.js'
import type { PoolGate } from '../records/pool-gate.js'
import type { RecordLog } from '../records/log.js'
import type { StoragePort } from '../storage/port.js'
import { ConflictResolution } from './conflict-resolution.js'
import { FactView } from './fact-view.js'
import { ImportExport } from './import-export.js'
import { LivePoolViews } from './live-view.js'
import { Maintenance } from './maintenance.js'
import { MemoryReads } from './memory-reads.js'
import { MemoryWrites } from './memory-writes.js'
import { MergeForget } from './merge-forget.js'
import { Presenter } from './presenter.js'
import { PoolReplica } from './replica.js'
import { PoolSharing } from './sharing.js'
import type {
  ConflictDecision, ConflictGroupPage, ConflictListOptions, CreatePoolOptions, ForgetOptions, ForgottenMemory, ImportOptions, ImportResult, Lifecycle, MemoryId, MergeStrategy, PoolConflict,
  PoolExport, PoolId, PoolInfo, PoolMemory, PoolPolicies, PoolSnapshot, Pools, QueryOptions, Rights, ShareOptions, UpdateMemoryInput, WriteMemoryInput,
} from './types.js'

/**
 * LCS-004 memory pools on the storage port, translated from the spec's on-chain pseudocode into a
 * local-first library. Decisions where the spec is loose (each also documented where it lives):
 * - Identity: every operation acts as the memory's identity (`createMemory({identity})`); the pool
 *   owner is the identity that created it. Pools need an identity to act (PERMISSION_DENIED without one).
 * - Storage: everything is an immutable, signed record (kinds `pool-*`, records.ts) on the Memory's
 *   record log (src/records/), which brings every handle's records; the state is derived
 *   (state.ts). Hard deletes remove rows; a tombstone keeps only ids and chain links.
 * - Access (acl.ts): only the owner shares, revokes and configures; writers write, update, merge,
 *   forget and resolve; readers query, get, rate, export. PUBLIC memories are readable by anyone:
 *   `get(id)`, or `query(pool, {publicOnly: true})`; everything else is PERMISSION_DENIED.
 * - `shareMemory(memoryId, ...)` in the spec shares one memory; here the pool is the unit of
 *   sharing (one pool = one replicated document), and `share(poolId, did, {write, duration})`
 *   implements §9's example.
 * - Where each job lives: the replica on the record log (deriving, verifying, making records):
 *   replica.ts; pools and their members: sharing.ts; writes: memory-writes.ts; reads:
 *   memory-reads.ts; merge and forget: merge-forget.ts; conflicts: conflict-resolution.ts (rules
 *   in conflicts.ts); JSON format: import-export.ts and format.ts; what follows a commit (expiry,
 *   autoMerge, pruning, the fact view of fact-view.ts): maintenance.ts; lifecycle and importance:
 *   importance.ts; encryption: keyring.ts and key-wrap.ts. docs/pools.md sums it all up.
 * - Policies: `maxSize` caps stored memories; past it the least important non-permanent ones are
 *   pruned (forgotten) down to `pruningThreshold * maxSize`, the memory just written excepted;
 *   `deduplication` returns the existing memory for an exact duplicate; `autoMerge` merges a new
 *   memory with a near-duplicate (similarity.ts) using `mergeStrategy`, sources kept as provenance.
 * - Expiry: an expired memory is hidden at once (a pure function of the clock) and hard-deleted by
 *   the next operation of a writer (or `sweep()`), which writes an `expired` tombstone.
 * - EPHEMERAL: stored (so another agent can receive it), deleted by its first read by an agent
 *   other than its author, or by `close()` of the author's memory (session end); its TTL bounds
 *   the residue of a crash. It has no fact view and is never exported.
 * - Reads are counted: each query/get by a member writes one `pool-access` record listing what it
 *   returned (the access count and last access of §1), and the returned objects include that read.
 */

export interface PoolStoreOptions {
  /** The acting identity of a store alone on a storage port; on a Memory's record log, the log's identity acts. */
  readonly identity?: Identity | null
  /** The fact store that shows pool memories which are facts (looked up by metadata, FactLookup); null for none. */
  readonly facts?: (FactStore & FactLookup) | null
  /** Wall clock in ms, injected by tests. */
  readonly now?: () => number
  /** Signature verdicts shared with the sync layer (src/core/signature-cache.ts); a cache of its own by default. */
  readonly signatures?: SignatureCache
  /**
   * Other modules' record kinds that travel in a pool (src/sync/content.ts CONTENT_KINDS): a
   * revocation's cutoff lists the member's records of these kinds too, so they stay valid.
   */
  readonly sharedKinds?: readonly string[]
}

/** The LCS-004 pool store (`mem.pools`): the API, each operation handed to the module of its job. */
export class PoolStore implements Pools {
  readonly #r: PoolReplica
  readonly #upkeep: Maintenance
  readonly #sharing: PoolSharing
  readonly #writes: MemoryWrites
  readonly #reads: MemoryReads
  readonly #forgetting: MergeForget
  readonly #conflicts: ConflictResolution
  readonly #transfer: ImportExport
  readonly #live: LivePoolViews
  #closing: Promise<void> | undefined
  /** The gate other modules' pooled writes pass (src/records/pool-gate.ts): the record log hands it to them. */
  readonly gate: PoolGate

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: PoolStoreOptions = {}) {
    const r = new PoolReplica(source, { identity: options.identity ?? null, now: options.now ?? Date.now, signatures: options.signatures })
    const factView = new FactView(options.facts ?? null)
    const show = new Presenter(r, factView)
    const upkeep = new Maintenance(r, factView, show)
    const parts = { r, show, upkeep }
    this.#r = r
    this.#upkeep = upkeep
    this.#sharing = new PoolSharing(parts, options.sharedKinds ?? [])
    this.#writes = new MemoryWrites(parts)
    this.#reads = new MemoryReads(parts)
    this.#forgetting = new MergeForget(parts)
    this.#conflicts = new ConflictResolution(parts)
    this.#transfer = new ImportExport(parts, this.#sharing)
    this.#live = new LivePoolViews(r.log)
    this.gate = this.#sharing.gate
  }

  /** A mutation, remembered from the moment it is called so that flush() and close() wait for it. */
  #mutate<T>(run: () => Promise<T>): Promise<T> {
    return this.#r.log.track(run)
  }

  /**
   * Creates a pool owned by this memory's identity.
   * @throws MemweaveError PERMISSION_DENIED without an identity; INVALID_ARGUMENT for bad options.
   * @example
   * const pool = await mem.pools.create({ name: 'user prefs', privacy: ['ENCRYPTED', 'NO_TRAINING'] })
   */
  create(options: CreatePoolOptions = {}): Promise<PoolInfo> {
    return this.#mutate(() => this.#sharing.create(options))
  }

  /** The pool's header, members and size. @throws NOT_FOUND; PERMISSION_DENIED for a non-reader. */
  info(poolId: string): Promise<PoolInfo> {
    return this.#sharing.info(poolId)
  }

  /** LCS-004 §9 discovery: the pools this identity can read. */
  list(): Promise<PoolInfo[]> {
    return this.#sharing.list()
  }

  /** The rights of an agent (default: this identity) in a pool right now. @throws NOT_FOUND */
  access(poolId: string, agentDid?: string): Promise<Rights> {
    return this.#sharing.access(poolId, agentDid)
  }

  /**
   * Grants an agent read access (and write with `{write: true}`), optionally for `duration` seconds.
   * In an encrypted pool every key of the pool is wrapped for the new member.
   * @throws PERMISSION_DENIED unless called by the owner; NOT_FOUND; INVALID_ARGUMENT.
   * @example
   * await mem.pools.share(pool.id, specialist.did, { write: false, duration: 3600 })
   */
  share(poolId: string, agentDid: string, options: ShareOptions = {}): Promise<void> {
    return this.#mutate(() => this.#sharing.share(poolId, agentDid, options))
  }

  /**
   * Revokes every right of an agent. In an encrypted pool the content key is rotated: a new epoch,
   * wrapped for the remaining members only, seals everything written from now on.
   * @throws PERMISSION_DENIED unless called by the owner; INVALID_ARGUMENT for the owner itself.
   */
  revoke(poolId: string, agentDid: string): Promise<void> {
    return this.#mutate(() => this.#sharing.revoke(poolId, agentDid))
  }

  /** Replaces some policies. @throws PERMISSION_DENIED unless called by the owner; INVALID_ARGUMENT. */
  configure(poolId: string, policies: Partial<PoolPolicies>): Promise<PoolInfo> {
    return this.#mutate(() => this.#sharing.configure(poolId, policies))
  }

  /**
   * LCS-004 §4.1: writes a memory into a pool. With deduplication an exact duplicate of a current
   * memory returns that memory; with autoMerge a near-duplicate is merged and the merge is returned.
   * @throws PERMISSION_DENIED for a non-writer; NOT_FOUND for an unknown pool; INVALID_ARGUMENT;
   *   QUOTA_EXCEEDED when the pool is at maxSize with only permanent memories.
   * @example
   * await mem.pools.write(pool.id, { type: 'PREFERENCE', content: { subject: 'meeting_style', predicate: 'prefers',
   *   object: 'video_off', context: 'morning_meetings' }, confidence: 0.9, ttl: 30 * 24 * 3600, privacy: 'AUTHORIZED' })
   */
  write(poolId: string, input: WriteMemoryInput): Promise<PoolMemory> {
    return this.#mutate(() => this.#writes.write(poolId, input))
  }

  /**
   * Replaces a current memory with a new version (it supersedes the old one, which stays as history;
   * its fact view is superseded in `mem.facts` the same way).
   * @throws NOT_FOUND; PERMISSION_DENIED; CONFLICT when the memory is no longer current.
   */
  update(memoryId: string, changes: UpdateMemoryInput): Promise<PoolMemory> {
    return this.#mutate(() => this.#writes.update(memoryId, changes))
  }

  /**
   * One memory, counted as a read (an EPHEMERAL memory written by another agent is consumed by it).
   * Null when unknown, forgotten or expired.
   * @throws PERMISSION_DENIED when it is not PUBLIC and this identity cannot read its pool.
   */
  get(memoryId: string): Promise<PoolMemory | null> {
    return this.#reads.get(memoryId)
  }

  /** The lifecycle state of a memory, `'forgotten'` once it was hard-deleted, null when never seen. Not a read. */
  status(memoryId: string): Promise<Lifecycle | null> {
    return this.#reads.status(memoryId)
  }

  /**
   * LCS-004 §4.3: current memories of a pool, most important first, counted as reads (a member's).
   * An agent without read access may ask for `publicOnly` memories; otherwise it is denied.
   * @throws PERMISSION_DENIED for a non-reader without `publicOnly`; NOT_FOUND for an unknown pool; INVALID_ARGUMENT.
   * @example
   * const prefs = await mem.pools.query(pool.id, { type: 'PREFERENCE', minConfidence: 0.7, limit: 10 })
   */
  query(poolId: string, options: QueryOptions = {}): Promise<PoolMemory[]> {
    return this.#reads.query(poolId, options)
  }

  /**
   * A live view of a pool: `callback` gets its header (`info()`) and its memories (what
   * `query(poolId, options)` lists) now, and again each time a change of the pool's records (a
   * write, a share, a merge, a sync, another tab) changes them. Watching is not reading: the
   * deliveries count no read and consume no EPHEMERAL memory (`query` does both). Each change of
   * the pool re-reads the view, so it costs what one `query()` of it costs. Returns the
   * unsubscribe function.
   * @throws MemweaveError as info() and query() do (NOT_FOUND, PERMISSION_DENIED, INVALID_ARGUMENT),
   *   and nothing is registered.
   * @example
   * const stop = await mem.pools.subscribe(pool.id, { limit: 20 }, ({ info, memories }) => render(info, memories))
   */
  subscribe(poolId: string, options: QueryOptions, callback: (snapshot: PoolSnapshot) => void): Promise<() => void> {
    const o = options ?? {}
    return this.#live.add(async () => ({ info: await this.#sharing.info(poolId), memories: await this.#reads.view(poolId, o) }), callback)
  }

  /**
   * LCS-004 §4.4: merges current memories of one pool into a new memory that supersedes them and
   * records them as its provenance (`merged.from`).
   * @throws INVALID_ARGUMENT (fewer than two, different types or pools, EPHEMERAL); NOT_FOUND;
   *   CONFLICT when one is no longer current; PERMISSION_DENIED.
   */
  merge(memoryIds: readonly string[], strategy: MergeStrategy = 'average'): Promise<PoolMemory> {
    return this.#mutate(() => this.#forgetting.merge(memoryIds, strategy))
  }

  /**
   * LCS-004 §4.5: hard-deletes a memory (its record leaves storage; a tombstone keeps only its id),
   * and with `cascade` every memory that rests on it through supporting evidence or as a merge of it,
   * transitively. Its fact views are hard-deleted too. Returns the ids forgotten ([] if already gone).
   * Only the memory's author or the pool's owner may forget it, or any writer when the pool's policy
   * says `forgetBy: 'writers'` (docs/pools.md, "Forget"); with `cascade`, every memory reached.
   * @throws PERMISSION_DENIED for a non-writer, or for a memory (or one reached by `cascade`) this
   * identity may not forget (`details.ids`); nothing is written then.
   */
  forget(memoryId: string, options: ForgetOptions = {}): Promise<MemoryId[]> {
    return this.#mutate(() => this.#forgetting.forget(memoryId, options))
  }

  /**
   * Who forgot what in a pool: one entry per hard-deleted memory, with the signer of the tombstone
   * that forgot it, its reason and time, oldest first. Not a read (no access record).
   * @throws PERMISSION_DENIED for a non-reader; NOT_FOUND.
   * @example
   * for (const f of await mem.pools.forgotten(pool.id)) console.log(`${f.by} forgot ${f.memory} (${f.reason})`)
   */
  forgotten(poolId: string): Promise<ForgottenMemory[]> {
    return this.#forgetting.forgotten(poolId)
  }

  /** LCS-004 §8 `user_feedback`: rates a memory in [-1, 1] (the latest rating of each rater counts). */
  rate(memoryId: string, rating: number): Promise<void> {
    return this.#mutate(() => this.#writes.rate(memoryId, rating))
  }

  /**
   * Conflicting pairs among the pool's current memories, each with LCS-004 §6's suggestion: at most
   * `limit` (default 1,000, at most 10,000), contradictions first. A slot of k values holds up to
   * k²/2 pairs; `conflictGroups()` lists each conflict once with all its members. Not a read.
   * @throws PERMISSION_DENIED; INVALID_ARGUMENT for a bad limit.
   * @example
   * for (const c of await mem.pools.conflicts(pool.id, { limit: 50 })) console.log(c.memories, c.suggestion.reason)
   */
  conflicts(poolId: string, options?: ConflictListOptions): Promise<PoolConflict[]> {
    return this.#conflicts.conflicts(poolId, options)
  }

  /**
   * Each conflict among the pool's current memories once, as a group: a slot (subject, predicate,
   * context) whose values contradict, with every current memory in it, or the current memories
   * replacing one memory; with LCS-004 §6's suggestion over the group and the total. Not a read.
   * @throws PERMISSION_DENIED; INVALID_ARGUMENT for a bad limit or offset.
   * @example
   * const { total, groups } = await mem.pools.conflictGroups(pool.id, { limit: 20 })
   * if (groups[0]) await mem.pools.resolve(groups[0].id) // settles the whole slot
   */
  conflictGroups(poolId: string, options?: ConflictListOptions): Promise<ConflictGroupPage> {
    return this.#conflicts.conflictGroups(poolId, options)
  }

  /**
   * Settles a conflict, a pair from `conflicts()` or a group from `conflictGroups()` (a group of two
   * has its pair's id): `{winner}` supersedes every other member with the winner (nothing is
   * deleted), `{strategy}` merges them (at most 1,000), `'suggested'` (default) follows the suggestion.
   * Returns the memory that is current afterwards.
   * @throws NOT_FOUND for an unknown (or already settled) conflict; PERMISSION_DENIED; INVALID_ARGUMENT.
   */
  resolve(conflictId: string, decision: ConflictDecision = 'suggested'): Promise<PoolMemory> {
    return this.#mutate(() => this.#conflicts.resolve(conflictId, decision))
  }

  /** Hard-deletes expired memories and prunes past maxSize now; returns what was removed. @throws PERMISSION_DENIED */
  sweep(poolId: string): Promise<MemoryId[]> {
    return this.#mutate(() => this.#forgetting.sweep(poolId))
  }

  /**
   * The pool in LCS-004's JSON content format: every live memory (current and superseded, so
   * provenance survives), NO_TRAINING flags included. Plaintext, even for an encrypted pool: the
   * caller is a member holding the key. Not counted as reads.
   * @throws PERMISSION_DENIED for a non-reader; NOT_FOUND.
   */
  export(poolId: string): Promise<PoolExport> {
    return this.#transfer.export(poolId)
  }

  /**
   * Imports a pool export (or an array of LCS-004 memory objects) into a new pool owned by this
   * identity, or into `options.poolId`. References between memories of the file are mapped to the
   * new ids; references to memories not in the file are dropped; expired memories are skipped;
   * duplicates of current memories map to them. One transaction: all of it lands or none.
   * @throws INVALID_ARGUMENT naming the path in the file; PERMISSION_DENIED.
   */
  import(data: unknown, options: ImportOptions = {}): Promise<ImportResult> {
    return this.#mutate(() => this.#transfer.import(data, options))
  }

  // ---- replication ------------------------------------------------------------------------------

  /**
   * @internal Awaited by sync before it stores records another replica sent: the fact view's marker
   * row (fact-view-marker.ts) is written first, so a handle killed between those records and their
   * facts is caught by the next open.
   */
  _beforeSynced(): Promise<void> {
    return this.#r.beforeChange?.() ?? Promise.resolve()
  }

  /**
   * @internal The sync layer stored records of `poolId` that came from another replica, or
   * hard-deleted forgotten ones (`ids`): catch up and bring the pool's fact view in line. No
   * autoMerge, pruning or expiry sweep here: those are decisions of the replica that writes, or
   * every replica would make its own, divergent merge of the same pair.
   */
  _synced(poolId: PoolId, ids: readonly string[], options: { background?: boolean } = {}): Promise<void> {
    return this.#upkeep.synced(poolId, ids, options)
  }

  // ---- lifecycle of the store -------------------------------------------------------------------

  /** Resolves once every mutation called before it has committed (or failed), maintenance included. */
  async flush(): Promise<void> {
    await this.#r.flush()
    await this.#upkeep.idle()
    await this.#r.flush()
  }

  /**
   * Ends the session: EPHEMERAL memories this handle wrote and nobody consumed are forgotten, pending
   * writes commit, and (for a standalone store) storage closes. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.flush()
      try {
        await this.#writes.endSession()
        // Only a close that got this far says the facts are in line (fact-view-marker.ts).
        await this.flush()
        await this.#upkeep.closed()
      } finally {
        this.#live.clear()
        this.#upkeep.stop()
        await this.#r.close()
      }
    })()
    return this.#closing
  }
}
