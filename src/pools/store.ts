import { toHex } from '../core/bytes.js'
import { decodeHlc } from '../core/clock.js'
import type { AgentDid } from '../core/identity.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import type { SignatureCache } from '../core/signature-cache.js'
import type { FactLookup, FactRef, FactStore } from '../facts/types.js'
import type { RecordLog } from '../records/log.js'
import type { StoragePort } from '../storage/port.js'
import { mayForget } from './authority.js'
import { findConflicts } from './conflicts.js'
import { randomBytes } from './crypto.js'
import { FactView } from './fact-view.js'
import { dependencyOrder, exportPool, parsePoolExport } from './format.js'
import {
  DEFAULT_POLICIES, assertDid, assertPrivacy, assertQueryOptions, assertSeconds, assertStrategy, assertText, mergePolicies,
  normalizeTenant, parseMemoryId, parsePoolId,
} from './input.js'
import { byRecency, mergePayloads } from './merge.js'
import { buildPayload } from './payload-input.js'
import { conflictIndex, importanceOf, poolInfo, toPoolMemory } from './present.js'
import type { PoolGate, PoolWriteGrant } from '../records/pool-gate.js'
import { PoolKind, derivePoolId, type AclBody, type CreateBody, type MemoryPayload, type PoolRecord, type TombstoneReason } from './records.js'
import { PoolReplica, type Ctx, type Put } from './replica.js'
import { duplicateKey, nearDuplicate, norm } from './similarity.js'
import { forgetLog, type LiveMemory, type Structure, type View } from './state.js'
import type {
  ConflictDecision, CreatePoolOptions, ForgetOptions, ForgottenMemory, ImportOptions, ImportResult, Lifecycle, MemoryId, MergeStrategy, PoolConflict,
  PoolExport, PoolId, PoolInfo, PoolMemory, PoolPolicies, Pools, QueryOptions, Rights, ShareOptions, UpdateMemoryInput, WriteMemoryInput,
} from './types.js'

/**
 * LCS-004 memory pools on the storage port, translated from the spec's on-chain pseudocode into a
 * local-first library. Decisions where the spec is loose (each also documented where it lives):
 * - Identity: every operation acts as the memory's identity (`createMemory({identity})`); the pool
 *   owner is the identity that created it. Pools need an identity to act (PERMISSION_DENIED without one).
 * - Storage: everything is an immutable, signed record in the `records` table (kinds `pool-*`,
 *   records.ts), logged in `log` so other handles catch up; the state is derived (state.ts).
 *   Hard deletes remove rows; a tombstone keeps only ids and chain links.
 * - Access (acl.ts): only the owner shares, revokes and configures; writers write, update, merge,
 *   forget and resolve; readers query, get, rate, export. PUBLIC memories are readable by anyone:
 *   `get(id)`, or `query(pool, {publicOnly: true})`; everything else is PERMISSION_DENIED.
 * - `shareMemory(memoryId, ...)` in the spec shares one memory; here the pool is the unit of
 *   sharing (one pool = one replicated document), and `share(poolId, did, {write, duration})`
 *   implements §9's example.
 * - Records, catch-up and the write path: replica.ts; lifecycle and importance: importance.ts;
 *   conflicts: conflicts.ts; merge: merge.ts; encryption: keyring.ts and key-wrap.ts; the fact
 *   view: fact-view.ts; JSON format: format.ts. docs/pools.md sums it all up.
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


const NONE: Rights = { read: false, write: false, owner: false }

const defer: (fn: () => void) => void =
  typeof setImmediate === 'function' ? (fn) => void setImmediate(fn) : (fn) => void setTimeout(fn, 0)

export interface PoolStoreOptions {
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

function denied(message: string, details: Record<string, unknown> = {}): MemweaveError {
  return new MemweaveError(ErrorCode.PERMISSION_DENIED, message, details)
}

function notFound(what: string, id: string): MemweaveError {
  return new MemweaveError(ErrorCode.NOT_FOUND, `${what} ${id} is not known here`, { id })
}

/** The LCS-004 pool store (`mem.pools`). */
export class PoolStore implements Pools {
  readonly #r: PoolReplica
  readonly #factView: FactView
  readonly #sharedKinds: readonly string[]
  readonly #names = new Map<string, string | null>()
  /** Duplicate key -> id of memories this handle wrote: same-batch deduplication without re-deriving the pool. */
  readonly #written = new Map<string, string>()
  /** Fact refs per pool, shared by the calls of one tick (each lookup walks every fact of the pool). */
  readonly #refs = new Map<string, Promise<Map<string, FactRef>>>()
  readonly #sessionEphemeral = new Set<string>()
  readonly #mutations = new Set<Promise<unknown>>()
  readonly #pendingMaintenance = new Map<string, { dirty: Set<string>; done: Promise<Map<string, string>> }>()
  #serial: Promise<unknown> = Promise.resolve()
  #closed = false

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: PoolStoreOptions = {}) {
    this.#r = new PoolReplica(source, { identity: options.identity ?? null, now: options.now ?? Date.now, signatures: options.signatures })
    this.#factView = new FactView(options.facts ?? null)
    this.#sharedKinds = options.sharedKinds ?? []
  }

  /**
   * The cutoff of a record that takes rights from `did` (AclBody `cutoff`): every record of the
   * member in the pool that this owner holds now, pool records and other modules' alike, sorted.
   * What the owner has not received by then is cut off with the rest (docs/pools.md, "Revocation").
   */
  async #cutoff(pool: PoolId, did: string): Promise<string[]> {
    const ids = this.#r.state.idsBy(pool, did)
    if (this.#sharedKinds.length) {
      const shared = await this.#r.log.storage.read(['records'], async (tx) => {
        const out: string[] = []
        for (const kind of this.#sharedKinds) {
          for (const r of await tx.where<{ id: string; pool?: unknown; author?: unknown }>('records', 'kind', kind)) if (r.pool === pool && r.author === did) out.push(r.id)
        }
        return out
      })
      ids.push(...shared)
    }
    return [...new Set(ids)].sort()
  }

  /** Opens, waits for committing writes, catches up with every handle's records. */
  #ready(): Promise<void> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory is closed'))
    return this.#r.ready()
  }

  #context(pool: PoolId): Ctx {
    return this.#r.context(pool)
  }

  #track<T>(mutation: Promise<T>): Promise<T> {
    this.#mutations.add(mutation)
    const done = (): void => {
      this.#mutations.delete(mutation)
    }
    mutation.then(done, done)
    return mutation
  }

  #writer(ctx: Ctx): void {
    if (!ctx.rights.write) throw denied(`${this.#r.identity?.did ?? 'this memory'} may not write pool ${ctx.s.id}`, { pool: ctx.s.id })
  }

  #owner(ctx: Ctx): void {
    if (!ctx.rights.owner) throw denied(`only the owner of pool ${ctx.s.id} may change who has access or its policies`, { pool: ctx.s.id })
  }

  #findLive(memoryId: string): { ctx: Ctx; m: LiveMemory } | null {
    const pool = this.#r.state.poolOf(memoryId)
    if (!pool || !this.#r.state.structure(pool)) return null
    const ctx = this.#context(pool)
    const m = ctx.view.live.get(memoryId)
    return m ? { ctx, m } : null
  }

  // ---- post-commit maintenance: autoMerge, expiry, pruning, fact view ---------------------------

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#serial.then(fn, fn)
    this.#serial = run.catch(() => undefined)
    return run
  }

  /** Runs maintenance once for everything committed in this tick; resolves to replacements (autoMerge). */
  #afterCommit(pool: PoolId, dirty: Iterable<string>): Promise<Map<string, string>> {
    let pending = this.#pendingMaintenance.get(pool)
    if (!pending) {
      const entry = { dirty: new Set<string>(), done: undefined as unknown as Promise<Map<string, string>> }
      entry.done = this.#exclusive(async () => {
        await new Promise<void>((r) => defer(r))
        this.#pendingMaintenance.delete(pool)
        return this.#maintain(pool, entry.dirty)
      })
      this.#pendingMaintenance.set(pool, (pending = entry))
    }
    for (const id of dirty) pending.dirty.add(id)
    return pending.done
  }

  async #maintain(pool: PoolId, dirty: Set<string>): Promise<Map<string, string>> {
    const replaced = new Map<string, string>()
    await this.#ready()
    let ctx = this.#context(pool)
    if (!ctx.rights.write) return replaced
    const expired = this.#forgettable(ctx, ctx.view.expired, 'expired')
    if (expired.length) {
      for (const id of this.#predecessors(ctx.s, expired)) dirty.add(id)
      await this.#r.tombstone(ctx.s, expired, 'expired')
      ctx = this.#context(pool)
    }
    if (ctx.s.policies.autoMerge) {
      for (const id of [...dirty]) {
        const m = ctx.view.current.find((c) => c.id === id)
        if (!m || m.payload.ephemeral) continue
        const twin = ctx.view.current
          .filter((c) => c.id !== id && !c.payload.ephemeral && nearDuplicate(c.payload, m.payload, ctx.s.policies.similarity))
          .sort((a, b) => byRecency({ id: a.id, hlc: a.record.hlc, payload: a.payload }, { id: b.id, hlc: b.record.hlc, payload: b.payload }))[0]
        if (!twin) continue
        const merged = await this.#doMerge(ctx, [twin, m], ctx.s.policies.mergeStrategy)
        replaced.set(id, merged)
        dirty.add(merged)
        ctx = this.#context(pool)
      }
    }
    const victims = this.#pruneVictims(ctx, new Set([...dirty, ...replaced.values()]))
    if (victims.length) {
      for (const id of this.#predecessors(ctx.s, victims)) dirty.add(id)
      await this.#r.tombstone(ctx.s, victims, 'pruned')
      ctx = this.#context(pool)
    }
    await this.#factView.reconcile(ctx.view, dirty, (m) => importanceOf(ctx.view, m))
    this.#refs.delete(pool)
    return replaced
  }

  /**
   * The ids among `memories` that this identity may forget for `reason` (authority.ts `mayForget`,
   * the rule every replica applies to the tombstone): a tombstone that would be ignored is not written.
   */
  #forgettable(ctx: Ctx, memories: readonly { readonly id: string; readonly record: PoolRecord }[], reason: TombstoneReason): string[] {
    const me = this.#r.identity?.did
    if (!me) return []
    return memories.filter((m) => mayForget(ctx.s, me, ctx.rights.write, reason, ctx.now, m.record)).map((m) => m.id)
  }

  /** Memories that may become current again when `removed` go (their supersession predecessors). */
  #predecessors(s: Structure, removed: readonly string[]): string[] {
    const gone = new Set(removed)
    const out = new Set<string>()
    const walk = (id: string): void => {
      for (const p of s.memories.get(id)?.payload?.supersedes ?? s.forgotten.get(id) ?? []) {
        if (gone.has(p)) walk(p)
        else out.add(p)
      }
    }
    removed.forEach(walk)
    return [...out]
  }

  #pruneVictims(ctx: Ctx, keep: ReadonlySet<string>): string[] {
    const max = ctx.s.policies.maxSize
    const stored = [...ctx.view.live.values()]
    if (max === null || stored.length <= max) return []
    const target = Math.floor(max * ctx.s.policies.pruningThreshold)
    // Only memories this identity may forget: another writer's pruned tombstone would be ignored everywhere.
    const mine = new Set(this.#forgettable(ctx, stored, 'pruned'))
    const ranked = stored
      .filter((m) => !m.payload.permanent && !keep.has(m.id) && mine.has(m.id))
      .map((m) => ({ m, imp: importanceOf(ctx.view, m) }))
      .sort((a, b) => a.imp - b.imp || a.m.payload.createdAt - b.m.payload.createdAt || (a.m.id < b.m.id ? -1 : 1))
    return ranked.slice(0, Math.max(0, stored.length - target)).map((x) => x.m.id)
  }

  // ---- presenting -------------------------------------------------------------------------------

  async #present(ctx: Ctx, memories: readonly LiveMemory[], readNow: boolean): Promise<PoolMemory[]> {
    const factRefs: Map<string, FactRef> = memories.length ? await this.#factRefs(ctx.view) : new Map()
    const conflicts = conflictIndex(this.#r.conflictsOf(ctx.view))
    return memories.map((m) => toPoolMemory(ctx.view, m, { factRefs, conflicts, readNow }))
  }

  #factRefs(view: View): Promise<Map<string, FactRef>> {
    let refs = this.#refs.get(view.s.id)
    if (!refs) {
      refs = this.#factView.refs(view)
      this.#refs.set(view.s.id, refs)
      defer(() => this.#refs.delete(view.s.id))
    }
    return refs
  }

  async #one(memoryId: string): Promise<PoolMemory> {
    await this.#ready()
    const found = this.#findLive(memoryId)
    if (!found) throw new MemweaveError(ErrorCode.INTERNAL, `memory ${memoryId} vanished right after it was written`)
    return (await this.#present(found.ctx, [found.m], false))[0]!
  }

  async #name(s: Structure): Promise<string | null> {
    const body = s.create.body
    if (!body.sealedName) return body.name
    if (!this.#names.has(s.id) || this.#names.get(s.id) === null) {
      this.#names.set(s.id, await this.#r.ring.openText(s.create, body.sealedName))
    }
    return this.#names.get(s.id) ?? null
  }

  async #info(ctx: Ctx): Promise<PoolInfo> {
    return poolInfo(ctx.view, ctx.rights, ctx.rights.read ? await this.#name(ctx.s) : null)
  }

  /**
   * Bookkeeping of a read by a member, committed before the read returns: one `pool-access` record,
   * the consumption of EPHEMERAL memories written by others, and (for a writer) expired memories swept.
   */
  async #noteReads(ctx: Ctx, read: readonly LiveMemory[]): Promise<void> {
    if (!ctx.rights.read) return
    const me = this.#r.me()
    const puts: Put[] = []
    if (read.length) puts.push({ record: await this.#r.sign(ctx.s, PoolKind.ACCESS, { reads: read.map((m) => m.id).sort(), at: ctx.now }) })
    const consumed = this.#forgettable(ctx, read.filter((m) => m.payload.ephemeral && m.record.author !== me.did), 'ephemeral')
    const expired = ctx.rights.write ? this.#forgettable(ctx, ctx.view.expired, 'expired') : []
    if (consumed.length) await this.#r.tombstone(ctx.s, consumed, 'ephemeral', puts.splice(0))
    if (expired.length) await this.#r.tombstone(ctx.s, expired, 'expired', puts.splice(0))
    if (puts.length) await this.#r.save(puts)
    if (consumed.length || expired.length) {
      const dirty = this.#predecessors(ctx.s, [...consumed, ...expired])
      if (ctx.rights.write) await this.#afterCommit(ctx.s.id, dirty)
    }
  }

  // ---- pools ------------------------------------------------------------------------------------

  /**
   * Creates a pool owned by this memory's identity.
   * @throws MemweaveError PERMISSION_DENIED without an identity; INVALID_ARGUMENT for bad options.
   * @example
   * const pool = await mem.pools.create({ name: 'user prefs', privacy: ['ENCRYPTED', 'NO_TRAINING'] })
   */
  create(options: CreatePoolOptions = {}): Promise<PoolInfo> {
    return this.#track(
      (async () => {
        if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
        const me = this.#r.me()
        const tenant = normalizeTenant(options.tenantId)
        const privacy = assertPrivacy(options.privacy)
        if (privacy.ephemeral) throw invalidArgument('privacy', 'EPHEMERAL is a property of a memory, not of a pool')
        if (privacy.encrypted && privacy.public) throw invalidArgument('privacy', 'an encrypted pool cannot be PUBLIC')
        const name = options.name === undefined || options.name === null ? null : assertText(options.name, 'name', 256)
        const policies = mergePolicies(DEFAULT_POLICIES, options.policies)
        await this.#ready()
        const nonce = toHex(randomBytes(16))
        const pool = derivePoolId(me.did, nonce, tenant)
        const hlc = this.#r.tick()
        const meta = { kind: PoolKind.CREATE, pool, tenant, author: me.did, hlc }
        let keyId: string | null = null
        if (privacy.encrypted) keyId = await this.#r.ring.generate(pool, 1)
        const body: CreateBody = {
          v: 1, nonce, encrypted: privacy.encrypted, noTraining: privacy.noTraining, publicDefault: privacy.public,
          name: privacy.encrypted ? null : name,
          sealedName: privacy.encrypted && name !== null ? await this.#r.ring.sealText(meta, name, pool, keyId!) : null,
          policies,
        }
        const puts: Put[] = [{ record: await this.#r.sign({ id: pool, tenant }, PoolKind.CREATE, body, hlc) }]
        if (keyId) {
          const key = this.#r.ring.keys(pool)[0]!
          puts.push({ record: await this.#r.sign({ id: pool, tenant }, PoolKind.KEY, await this.#r.ring.wrap(pool, key, me.did)) })
        }
        await this.#r.save(puts)
        if (name !== null) this.#names.set(pool, name)
        return this.#info(this.#context(pool))
      })(),
    )
  }

  /** The pool's header, members and size. @throws NOT_FOUND; PERMISSION_DENIED for a non-reader. */
  async info(poolId: string): Promise<PoolInfo> {
    const pool = parsePoolId(poolId)
    await this.#ready()
    const ctx = this.#context(pool)
    if (!ctx.rights.read) throw denied(`${this.#r.identity?.did ?? 'this memory'} may not read pool ${pool}`, { pool })
    return this.#info(ctx)
  }

  /** LCS-004 §9 discovery: the pools this identity can read. */
  async list(): Promise<PoolInfo[]> {
    await this.#ready()
    const out: PoolInfo[] = []
    for (const pool of this.#r.state.poolIds()) {
      if (!this.#r.state.structure(pool)) continue
      const ctx = this.#context(pool)
      if (ctx.rights.read) out.push(await this.#info(ctx))
    }
    return out.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
  }

  /** The gate other modules' pooled writes pass (src/core/pool-gate.ts). */
  readonly gate: PoolGate = {
    writable: async (poolId: string, author?: string): Promise<PoolWriteGrant> => {
      const pool = parsePoolId(poolId, 'pool')
      const who = author === undefined ? this.#r.identity?.did : assertDid(author)
      await this.#ready()
      const ctx = this.#context(pool)
      if (!who || !ctx.s.acl.at(who, null, ctx.now).write) throw denied(`${who ?? 'this memory (no identity)'} may not write pool ${pool}`, { pool })
      if (ctx.s.create.body.encrypted) {
        throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, `pool ${pool} is encrypted: it carries only sealed pool memories (mem.pools.write)`, { pool })
      }
      return { pool, tenant: ctx.s.tenant, humans: [ctx.s.owner, ...ctx.s.policies.humans] }
    },
  }

  /** The rights of an agent (default: this identity) in a pool right now. @throws NOT_FOUND */
  async access(poolId: string, agentDid?: string): Promise<Rights> {
    const pool = parsePoolId(poolId)
    const did = agentDid === undefined ? this.#r.identity?.did : assertDid(agentDid)
    await this.#ready()
    const ctx = this.#context(pool)
    return did ? ctx.s.acl.at(did, null, ctx.now) : NONE
  }

  /**
   * Grants an agent read access (and write with `{write: true}`), optionally for `duration` seconds.
   * In an encrypted pool every key of the pool is wrapped for the new member.
   * @throws PERMISSION_DENIED unless called by the owner; NOT_FOUND; INVALID_ARGUMENT.
   * @example
   * await mem.pools.share(pool.id, specialist.did, { write: false, duration: 3600 })
   */
  share(poolId: string, agentDid: string, options: ShareOptions = {}): Promise<void> {
    return this.#track(
      (async () => {
        const pool = parsePoolId(poolId)
        const did = assertDid(agentDid)
        if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
        if (options.write !== undefined && typeof options.write !== 'boolean') throw invalidArgument('write', 'must be a boolean')
        const duration = assertSeconds(options.duration, 'duration')
        await this.#ready()
        const ctx = this.#context(pool)
        this.#owner(ctx)
        if (did === ctx.s.owner) return
        const write = options.write === true
        const expiresAt = duration === null ? null : ctx.now + Math.round(duration * 1000)
        // A writer made a reader loses write access the way a revoked member loses all: with a cutoff.
        const downgrade = !write && ctx.s.acl.at(did, null, ctx.now).write
        const body: AclBody = downgrade
          ? { member: did, read: true, write, expiresAt, cutoff: await this.#cutoff(pool, did) }
          : { member: did, read: true, write, expiresAt }
        const puts: Put[] = [{ record: await this.#r.sign(ctx.s, PoolKind.ACL, body) }]
        if (ctx.s.create.body.encrypted) {
          const wrapped = new Set(ctx.s.keys.filter((k) => k.body.member === did).map((k) => k.body.keyId))
          for (const key of this.#r.ring.keys(pool)) {
            if (!wrapped.has(key.keyId)) puts.push({ record: await this.#r.sign(ctx.s, PoolKind.KEY, await this.#r.ring.wrap(pool, key, did)) })
          }
        }
        await this.#r.save(puts)
      })(),
    )
  }

  /**
   * Revokes every right of an agent. In an encrypted pool the content key is rotated: a new epoch,
   * wrapped for the remaining members only, seals everything written from now on.
   * @throws PERMISSION_DENIED unless called by the owner; INVALID_ARGUMENT for the owner itself.
   */
  revoke(poolId: string, agentDid: string): Promise<void> {
    return this.#track(
      (async () => {
        const pool = parsePoolId(poolId)
        const did = assertDid(agentDid)
        await this.#ready()
        const ctx = this.#context(pool)
        this.#owner(ctx)
        if (did === ctx.s.owner) throw invalidArgument('agentDid', 'the owner cannot be revoked')
        const cutoff = await this.#cutoff(pool, did)
        const puts: Put[] = [{ record: await this.#r.sign(ctx.s, PoolKind.ACL, { member: did, read: false, write: false, expiresAt: null, cutoff }) }]
        if (ctx.s.create.body.encrypted) {
          const epoch = ctx.s.epoch + 1
          const keyId = await this.#r.ring.generate(pool, epoch)
          const key = this.#r.ring.keys(pool).find((k) => k.keyId === keyId)!
          for (const member of ctx.s.acl.members(ctx.now)) {
            if (member.did === did) continue
            puts.push({ record: await this.#r.sign(ctx.s, PoolKind.KEY, await this.#r.ring.wrap(pool, key, member.did)) })
          }
        }
        await this.#r.save(puts)
      })(),
    )
  }

  /** Replaces some policies. @throws PERMISSION_DENIED unless called by the owner; INVALID_ARGUMENT. */
  configure(poolId: string, policies: Partial<PoolPolicies>): Promise<PoolInfo> {
    return this.#track(
      (async () => {
        const pool = parsePoolId(poolId)
        await this.#ready()
        const ctx = this.#context(pool)
        this.#owner(ctx)
        const next = mergePolicies(ctx.s.policies, policies)
        const record = await this.#r.sign(ctx.s, PoolKind.POLICY, { policies: next })
        await this.#r.save([{ record }])
        await this.#afterCommit(pool, [])
        return this.#info(this.#context(pool))
      })(),
    )
  }

  // ---- memories ---------------------------------------------------------------------------------

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
    return this.#track(
      (async () => {
        const pool = parsePoolId(poolId)
        await this.#ready()
        const ctx = this.#context(pool)
        this.#writer(ctx)
        const payload = buildPayload(input, ctx.s, ctx.now)
        this.#assertEvidence(ctx, payload.evidence)
        const max = ctx.s.policies.maxSize
        if (max !== null && ctx.view.live.size >= max && [...ctx.view.live.values()].every((m) => m.payload.permanent)) {
          throw new MemweaveError(ErrorCode.QUOTA_EXCEEDED, `pool ${pool} holds ${max} permanent memories (its maxSize): nothing can be pruned`, { pool })
        }
        const dup = this.#duplicateOf(ctx, payload)
        if (dup) return (await this.#present(ctx, [dup], false))[0]!
        const put = await this.#r.memoryRecord(ctx.s, payload)
        const key = `${pool}\u001f${duplicateKey(payload)}`
        const id = await this.#r.write([put], async (w) => {
          // Same-tick writes: a twin committed earlier in this batch answers instead.
          const twinId = ctx.s.policies.deduplication && !payload.ephemeral ? this.#written.get(key) : undefined
          if (twinId && this.#r.state.has(twinId) && this.#r.state.structure(pool) && this.#duplicateOf(this.#context(pool), payload)?.id === twinId) return twinId
          await w.append([put.record])
          if (this.#written.size > 10_000) this.#written.clear()
          this.#written.set(key, put.record.id)
          return put.record.id
        })
        if (payload.ephemeral && id === put.record.id) this.#sessionEphemeral.add(id)
        const replaced = await this.#afterCommit(pool, [id])
        return this.#one(replaced.get(id) ?? id)
      })(),
    )
  }

  #duplicateOf(ctx: Ctx, payload: MemoryPayload): LiveMemory | undefined {
    if (!ctx.s.policies.deduplication || payload.ephemeral) return undefined
    const key = duplicateKey(payload)
    return ctx.view.current.find((m) => !m.payload.ephemeral && duplicateKey(m.payload) === key)
  }

  #assertEvidence(ctx: Ctx, evidence: readonly string[]): void {
    evidence.forEach((id, i) => {
      if (!ctx.view.live.has(id)) throw invalidArgument(`evidence[${i}]`, `${id} is not a live memory of pool ${ctx.s.id}`)
    })
  }

  /**
   * Replaces a current memory with a new version (it supersedes the old one, which stays as history;
   * its fact view is superseded in `mem.facts` the same way).
   * @throws NOT_FOUND; PERMISSION_DENIED; CONFLICT when the memory is no longer current.
   */
  update(memoryId: string, changes: UpdateMemoryInput): Promise<PoolMemory> {
    return this.#track(
      (async () => {
        const id = parseMemoryId(memoryId)
        await this.#ready()
        const found = this.#findLive(id)
        if (!found) throw notFound('memory', id)
        const { ctx, m } = found
        this.#writer(ctx)
        if (ctx.view.supersededBy.has(id)) throw new MemweaveError(ErrorCode.CONFLICT, `memory ${id} is superseded by ${ctx.view.supersededBy.get(id)!.join(', ')}`, { id })
        if (m.payload.ephemeral) throw invalidArgument('memoryId', 'an EPHEMERAL memory cannot be updated')
        const payload = { ...buildPayload(changes ?? {}, ctx.s, ctx.now, m.payload), supersedes: [id] }
        this.#assertEvidence(ctx, payload.evidence)
        const put = await this.#r.memoryRecord(ctx.s, payload)
        await this.#r.save([put])
        await this.#afterCommit(ctx.s.id, [put.record.id])
        return this.#one(put.record.id)
      })(),
    )
  }

  /**
   * One memory, counted as a read (an EPHEMERAL memory written by another agent is consumed by it).
   * Null when unknown, forgotten or expired.
   * @throws PERMISSION_DENIED when it is not PUBLIC and this identity cannot read its pool.
   */
  async get(memoryId: string): Promise<PoolMemory | null> {
    const id = parseMemoryId(memoryId)
    await this.#ready()
    const found = this.#findLive(id)
    if (!found) return null
    const { ctx, m } = found
    if (!ctx.rights.read && m.payload.visibility !== 'PUBLIC') throw denied(`${this.#r.identity?.did ?? 'this memory'} may not read pool ${ctx.s.id}`, { pool: ctx.s.id })
    const [out] = await this.#present(ctx, [m], ctx.rights.read)
    await this.#noteReads(ctx, [m])
    return out!
  }

  /** The lifecycle state of a memory, `'forgotten'` once it was hard-deleted, null when never seen. Not a read. */
  async status(memoryId: string): Promise<Lifecycle | null> {
    const id = parseMemoryId(memoryId)
    await this.#ready()
    for (const pool of this.#r.state.poolIds()) {
      const s = this.#r.state.structure(pool)
      if (!s || !(s.memories.has(id) || s.forgotten.has(id))) continue
      const ctx = this.#context(pool)
      const m = ctx.view.live.get(id)
      if (!ctx.rights.read && m?.payload.visibility !== 'PUBLIC') throw denied(`may not read pool ${pool}`, { pool })
      if (!m) return s.forgotten.has(id) || s.memories.get(id)?.payload ? 'forgotten' : null
      return (await this.#present(ctx, [m], false))[0]!.lifecycle
    }
    return null
  }

  /**
   * LCS-004 §4.3: current memories of a pool, most important first, counted as reads (a member's).
   * An agent without read access may ask for `publicOnly` memories; otherwise it is denied.
   * @throws PERMISSION_DENIED for a non-reader without `publicOnly`; NOT_FOUND for an unknown pool; INVALID_ARGUMENT.
   * @example
   * const prefs = await mem.pools.query(pool.id, { type: 'PREFERENCE', minConfidence: 0.7, limit: 10 })
   */
  async query(poolId: string, options: QueryOptions = {}): Promise<PoolMemory[]> {
    const pool = parsePoolId(poolId)
    const q = assertQueryOptions(options)
    await this.#ready()
    const ctx = this.#context(pool)
    if (!ctx.rights.read && !q.publicOnly) {
      throw denied(`${this.#r.identity?.did ?? 'this memory'} may not read pool ${pool} (a non-member may query it with publicOnly)`, { pool })
    }
    const source = q.includeSuperseded ? [...ctx.view.live.values()] : ctx.view.current
    let hits = source.filter((m) => {
      const p = m.payload
      if (q.publicOnly && p.visibility !== 'PUBLIC') return false
      if (q.types && !q.types.has(p.type)) return false
      if (p.confidence < q.minConfidence) return false
      if (q.forTraining && p.noTraining) return false
      if (q.subject !== null && norm(p.subject) !== norm(q.subject)) return false
      if (q.predicate !== null && norm(p.predicate) !== norm(q.predicate)) return false
      return true
    })
    // A first pass without fact refs or conflicts: enough to filter by lifecycle and to sort.
    let presented = hits.map((m) => toPoolMemory(ctx.view, m, { factRefs: new Map(), conflicts: new Map() }))
    if (!q.includeArchived) {
      const keep = new Set<string>(presented.filter((m) => m.lifecycle !== 'archived' || (q.includeSuperseded && !m.current)).map((m) => m.id))
      hits = hits.filter((m) => keep.has(m.id))
      presented = presented.filter((m) => keep.has(m.id))
    }
    const order = presented.map((m, i) => ({ m, i }))
    order.sort(({ m: a }, { m: b }) => {
      const primary = q.orderBy === 'recent' ? b.createdAt - a.createdAt : q.orderBy === 'confidence' ? b.confidence - a.confidence : b.importance - a.importance
      return primary || b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1)
    })
    const chosen = (q.limit === null ? order : order.slice(0, q.limit)).map(({ i }) => hits[i]!)
    const out = await this.#present(ctx, chosen, ctx.rights.read)
    await this.#noteReads(ctx, chosen)
    return out
  }

  /**
   * LCS-004 §4.4: merges current memories of one pool into a new memory that supersedes them and
   * records them as its provenance (`merged.from`).
   * @throws INVALID_ARGUMENT (fewer than two, different types or pools, EPHEMERAL); NOT_FOUND;
   *   CONFLICT when one is no longer current; PERMISSION_DENIED.
   */
  merge(memoryIds: readonly string[], strategy: MergeStrategy = 'average'): Promise<PoolMemory> {
    return this.#track(
      (async () => {
        if (!Array.isArray(memoryIds)) throw invalidArgument('memoryIds', 'must be an array')
        const ids = [...new Set(memoryIds.map((id, i) => parseMemoryId(id, `memoryIds[${i}]`)))]
        if (ids.length < 2) throw invalidArgument('memoryIds', 'needs at least two distinct memories')
        const strat = assertStrategy(strategy)
        await this.#ready()
        const found = ids.map((id) => {
          const f = this.#findLive(id)
          if (!f) throw notFound('memory', id)
          return f
        })
        const ctx = found[0]!.ctx
        if (found.some((f) => f.ctx.s.id !== ctx.s.id)) throw invalidArgument('memoryIds', 'must all belong to one pool')
        this.#writer(ctx)
        const merged = await this.#doMerge(ctx, found.map((f) => f.m), strat)
        await this.#afterCommit(ctx.s.id, [merged])
        return this.#one(merged)
      })(),
    )
  }

  async #doMerge(ctx: Ctx, sources: readonly LiveMemory[], strategy: MergeStrategy): Promise<string> {
    for (const m of sources) {
      if (ctx.view.supersededBy.has(m.id)) throw new MemweaveError(ErrorCode.CONFLICT, `memory ${m.id} is already superseded`, { id: m.id })
      if (m.payload.ephemeral) throw invalidArgument('memoryIds', 'EPHEMERAL memories cannot be merged')
      if (m.payload.type !== sources[0]!.payload.type) throw invalidArgument('memoryIds', 'memories of different types cannot be merged')
    }
    const payload = mergePayloads(sources.map((m) => ({ id: m.id, hlc: m.record.hlc, payload: m.payload })), strategy, ctx.now)
    const put = await this.#r.memoryRecord(ctx.s, { ...payload, noTraining: payload.noTraining || ctx.s.create.body.noTraining })
    await this.#r.save([put])
    return put.record.id
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
    return this.#track(
      (async () => {
        const id = parseMemoryId(memoryId)
        if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
        await this.#ready()
        const pool = this.#r.state.poolOf(id)
        if (!pool || !this.#r.state.structure(pool)) return []
        const ctx = this.#context(pool)
        this.#writer(ctx)
        if (!ctx.s.memories.has(id)) return []
        const targets: string[] = [id]
        if (options.cascade === true) {
          for (let i = 0; i < targets.length; i++) {
            const t = targets[i]!
            for (const m of ctx.s.memories.values()) {
              const p = m.payload
              if (p && !targets.includes(m.id) && (p.evidence.includes(t) || p.merged?.from.includes(t))) targets.push(m.id)
            }
          }
        }
        const reason = options.cascade === true ? 'cascade' : 'forget'
        // Refused whole, before anything is written: a tombstone of another's memory would be ignored by every replica.
        const allowed = new Set(this.#forgettable(ctx, targets.map((t) => ctx.s.memories.get(t)!), reason))
        const refused = targets.filter((t) => !allowed.has(t))
        if (refused.length) {
          throw denied(`only a memory's author or the pool's owner may forget it (pool policy forgetBy: ${ctx.s.policies.forgetBy})`, { pool, ids: refused })
        }
        const dirty = this.#predecessors(ctx.s, targets)
        await this.#r.tombstone(ctx.s, targets, reason)
        await this.#afterCommit(pool, dirty)
        return targets as MemoryId[]
      })(),
    )
  }

  /**
   * Who forgot what in a pool: one entry per hard-deleted memory, with the signer of the tombstone
   * that forgot it, its reason and time, oldest first. Not a read (no access record).
   * @throws PERMISSION_DENIED for a non-reader; NOT_FOUND.
   * @example
   * for (const f of await mem.pools.forgotten(pool.id)) console.log(`${f.by} forgot ${f.memory} (${f.reason})`)
   */
  async forgotten(poolId: string): Promise<ForgottenMemory[]> {
    const pool = parsePoolId(poolId)
    await this.#ready()
    const ctx = this.#context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    return forgetLog(ctx.s, (id) => this.#r.state.record(id)).map(({ id, by }) => ({
      memory: id as MemoryId, by: by.author as AgentDid, reason: by.body.reason, at: decodeHlc(by.hlc).wall,
    }))
  }

  /** LCS-004 §8 `user_feedback`: rates a memory in [-1, 1] (the latest rating of each rater counts). */
  rate(memoryId: string, rating: number): Promise<void> {
    return this.#track(
      (async () => {
        const id = parseMemoryId(memoryId)
        if (typeof rating !== 'number' || !Number.isFinite(rating) || rating < -1 || rating > 1) throw invalidArgument('rating', 'must be a number in [-1, 1]')
        await this.#ready()
        const found = this.#findLive(id)
        if (!found) throw notFound('memory', id)
        if (!found.ctx.rights.read) throw denied(`may not read pool ${found.ctx.s.id}`, { pool: found.ctx.s.id })
        const record = await this.#r.sign(found.ctx.s, PoolKind.RATING, { memory: id, rating })
        await this.#r.save([{ record }])
      })(),
    )
  }

  /** Conflicts among the pool's current memories, each with LCS-004 §6's suggestion. Not a read. @throws PERMISSION_DENIED */
  async conflicts(poolId: string): Promise<PoolConflict[]> {
    const pool = parsePoolId(poolId)
    await this.#ready()
    const ctx = this.#context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    return findConflicts(ctx.view)
  }

  /**
   * Settles a conflict: `{winner}` supersedes the other memory with the winner (nothing is deleted),
   * `{strategy}` merges the two, `'suggested'` (default) follows the conflict's suggestion.
   * Returns the memory that is current afterwards.
   * @throws NOT_FOUND for an unknown (or already settled) conflict; PERMISSION_DENIED; INVALID_ARGUMENT.
   */
  resolve(conflictId: string, decision: ConflictDecision = 'suggested'): Promise<PoolMemory> {
    return this.#track(
      (async () => {
        if (typeof conflictId !== 'string') throw invalidArgument('conflictId', 'must be a string')
        await this.#ready()
        for (const pool of this.#r.state.poolIds()) {
          if (!this.#r.state.structure(pool)) continue
          const ctx = this.#context(pool)
          if (!ctx.rights.read) continue
          const conflict = findConflicts(ctx.view).find((c) => c.id === conflictId)
          if (!conflict) continue
          this.#writer(ctx)
          let winner: string | null = null
          let strategy: MergeStrategy | null = null
          if (decision === 'suggested') {
            winner = conflict.suggestion.winner
            strategy = conflict.suggestion.strategy ?? 'average'
          } else if (typeof decision === 'object' && decision !== null && 'winner' in decision) {
            winner = parseMemoryId(decision.winner, 'decision.winner')
            if (!conflict.memories.includes(winner as MemoryId)) throw invalidArgument('decision.winner', 'must be one of the conflicting memories')
          } else if (typeof decision === 'object' && decision !== null && 'strategy' in decision) {
            strategy = assertStrategy(decision.strategy, 'decision.strategy')
          } else throw invalidArgument('decision', 'must be {winner}, {strategy} or "suggested"')
          if (winner !== null) {
            const losers = conflict.memories.filter((m) => m !== winner)
            const record = await this.#r.sign(ctx.s, PoolKind.RESOLVE, { winner, losers })
            await this.#r.save([{ record }])
            await this.#afterCommit(pool, [])
            return this.#one(winner)
          }
          const merged = await this.#doMerge(ctx, conflict.memories.map((id) => ctx.view.live.get(id)!), strategy!)
          await this.#afterCommit(pool, [merged])
          return this.#one(merged)
        }
        throw notFound('conflict', conflictId)
      })(),
    )
  }

  /** Hard-deletes expired memories and prunes past maxSize now; returns what was removed. @throws PERMISSION_DENIED */
  sweep(poolId: string): Promise<MemoryId[]> {
    return this.#track(
      (async () => {
        const pool = parsePoolId(poolId)
        await this.#ready()
        const ctx = this.#context(pool)
        this.#writer(ctx)
        const before = new Set(ctx.s.memories.keys())
        await this.#afterCommit(pool, [])
        await this.#ready()
        const after = this.#context(pool).s.memories
        return [...before].filter((id) => !after.has(id)).sort() as MemoryId[]
      })(),
    )
  }

  // ---- import / export --------------------------------------------------------------------------

  /**
   * The pool in LCS-004's JSON content format: every live memory (current and superseded, so
   * provenance survives), NO_TRAINING flags included. Plaintext, even for an encrypted pool: the
   * caller is a member holding the key. Not counted as reads.
   * @throws PERMISSION_DENIED for a non-reader; NOT_FOUND.
   */
  async export(poolId: string): Promise<PoolExport> {
    const pool = parsePoolId(poolId)
    await this.#ready()
    const ctx = this.#context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    const live = [...ctx.view.live.values()].sort((a, b) => a.payload.createdAt - b.payload.createdAt || (a.id < b.id ? -1 : 1))
    return exportPool(await this.#info(ctx), await this.#present(ctx, live, false), this.#r.me().did, ctx.now)
  }

  /**
   * Imports a pool export (or an array of LCS-004 memory objects) into a new pool owned by this
   * identity, or into `options.poolId`. References between memories of the file are mapped to the
   * new ids; references to memories not in the file are dropped; expired memories are skipped;
   * duplicates of current memories map to them. One transaction: all of it lands or none.
   * @throws INVALID_ARGUMENT naming the path in the file; PERMISSION_DENIED.
   */
  import(data: unknown, options: ImportOptions = {}): Promise<ImportResult> {
    return this.#track(
      (async () => {
        const now = this.#r.now()
        const parsed = parsePoolExport(data, now)
        let pool: PoolId
        if (options.poolId !== undefined) {
          pool = parsePoolId(options.poolId)
          await this.#ready()
          this.#writer(this.#context(pool))
        } else {
          const privacy = [...(parsed.encrypted ? (['ENCRYPTED'] as const) : []), ...(parsed.noTraining ? (['NO_TRAINING'] as const) : [])]
          const policies = mergePolicies(DEFAULT_POLICIES, parsed.policies, 'data.pool.policies')
          pool = (await this.create({ name: parsed.name, tenantId: options.tenantId ?? null, privacy, policies })).id
        }
        const ctx = this.#context(pool)
        const ids = new Map<string, MemoryId>()
        const puts: Put[] = []
        const fresh: MemoryPayload[] = []
        for (const m of dependencyOrder(parsed.memories)) {
          if (!m.permanent && m.ttl !== null && m.createdAt + m.ttl * 1000 <= now) continue
          const map = (refs: readonly string[]): string[] =>
            [...new Set(refs.map((r) => ids.get(r) ?? (ctx.view.live.has(r) ? r : null)).filter((r): r is string => r !== null))].sort()
          const payload: MemoryPayload = {
            type: m.type, subject: m.subject, predicate: m.predicate, object: m.object, context: m.context, confidence: m.confidence,
            source: m.source, evidence: map(m.evidence), createdAt: m.createdAt, ttl: m.permanent ? null : m.ttl, permanent: m.permanent,
            visibility: ctx.s.create.body.encrypted ? 'AUTHORIZED' : m.visibility, ephemeral: false,
            noTraining: m.noTraining || ctx.s.create.body.noTraining, supersedes: map(m.supersedes),
            merged: m.merged ? { strategy: m.merged.strategy, from: map(m.merged.from) } : null,
          }
          const key = duplicateKey(payload)
          const dup = ctx.s.policies.deduplication && payload.supersedes.length === 0 && payload.merged === null
            ? (ctx.view.current.find((c) => duplicateKey(c.payload) === key) ??
              fresh.findIndex((f) => f.supersedes.length === 0 && f.merged === null && duplicateKey(f) === key))
            : undefined
          if (typeof dup === 'object') {
            ids.set(m.sourceId, dup.id as MemoryId)
            continue
          }
          if (typeof dup === 'number' && dup >= 0) {
            ids.set(m.sourceId, puts[dup]!.record.id as MemoryId)
            continue
          }
          const put = await this.#r.memoryRecord(ctx.s, payload)
          puts.push(put)
          fresh.push(payload)
          ids.set(m.sourceId, put.record.id as MemoryId)
        }
        if (puts.length) await this.#r.save(puts)
        await this.#afterCommit(pool, puts.map((p) => p.record.id))
        await this.#ready()
        return { pool: await this.#info(this.#context(pool)), ids }
      })(),
    )
  }

  // ---- replication ------------------------------------------------------------------------------

  /**
   * @internal The sync layer stored records of `poolId` that came from another replica, or
   * hard-deleted forgotten ones (`ids`): catch up and bring the pool's fact view in line. No
   * autoMerge, pruning or expiry sweep here: those are decisions of the replica that writes, or
   * every replica would make its own, divergent merge of the same pair.
   */
  _synced(poolId: PoolId, ids: readonly string[]): Promise<void> {
    return this.#exclusive(async () => {
      if (this.#closed) return
      await this.#ready()
      if (!this.#r.state.structure(poolId)) return
      // Reads and ratings of others (the bulk of what travels) change no memory's currency.
      const chatter: ReadonlySet<string> = new Set([PoolKind.ACCESS, PoolKind.RATING])
      if (ids.every((id) => chatter.has(this.#r.state.record(id)?.kind ?? ''))) return
      const ctx = this.#context(poolId)
      const dirty = new Set(ids.filter((id) => ctx.s.memories.has(id)))
      for (const id of this.#predecessors(ctx.s, ids.filter((id) => ctx.s.forgotten.has(id)))) dirty.add(id)
      await this.#factView.reconcile(ctx.view, dirty, (m) => importanceOf(ctx.view, m))
      this.#refs.delete(poolId)
    })
  }

  // ---- lifecycle of the store -------------------------------------------------------------------

  /** Resolves once every mutation called before it has committed (or failed), maintenance included. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.#mutations])
    await this.#r.flush()
    await this.#serial
    await this.#r.flush()
  }

  /**
   * Ends the session: EPHEMERAL memories this handle wrote and nobody consumed are forgotten, pending
   * writes commit, and (for a standalone store) storage closes. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.flush()
    try {
      if (this.#sessionEphemeral.size) {
        await this.#ready()
        const byPool = new Map<PoolId, string[]>()
        for (const id of this.#sessionEphemeral) {
          const pool = this.#r.state.poolOf(id)
          if (pool && this.#r.state.structure(pool)?.memories.has(id)) byPool.set(pool, [...(byPool.get(pool) ?? []), id])
        }
        for (const [pool, ids] of byPool) await this.#r.tombstone(this.#context(pool).s, ids, 'session-end')
        await this.#r.flush()
      }
    } finally {
      this.#closed = true
      await this.#r.close()
    }
  }
}
