import { HybridClock, decodeHlc, encodeHlc, hlcMicros } from '../core/clock.js'
import { ErrorCode, MemweaveError, capabilityNotSupported, invalidArgument } from '../core/errors.js'
import { contentFactId, recordId, structuredFactId, type FactObject } from '../core/ids.js'
import { publicKeyFromSeed, sign } from '../core/ed25519.js'
import { didFromPublicKey, isIdentity, type Identity } from '../core/identity.js'
import { toHex } from '../core/bytes.js'
import { formatTime, parseOptionalTime, parseTime } from '../core/time.js'
import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'
import type { LogRow, StoredRecord } from '../storage/schema.js'
import { WriteBatcher, type BatchOp } from '../storage/batcher.js'
import { BufferedTx } from '../storage/buffered-tx.js'
import { SCHEMA } from '../storage/schema.js'
import { Capability, resolveCapabilities } from './capabilities.js'
import type { Embedder } from './embedder.js'
import {
  assertBudget, assertContent, assertMetadata, assertQuery, assertTopK, normalizeTenant, parseSigningKey,
} from './input.js'
import { verifyProvenance } from './provenance.js'
import { LiveQueries, type LiveQueryCallback } from './live-query.js'
import { pack, rank } from './rank.js'
import { FactState } from './state.js'
import { FreeTextConflicts } from './free-text-conflicts.js'
import type {
  AssertInput, FactConflict, FactEntry, FactLookup, FactRef, FactStore, FactStoreOptions, Memory, RankParams, RetrieveOptions, StorePolicy, WriteOptions,
} from './types.js'
import { compareVersions, normalizeKey, type FactBody, type TombstoneBody, type Version } from './version.js'

const TABLES = ['records', 'log', 'meta', 'vectors', 'requests'] as const
/** Keep this many log rows; a handle further behind reloads from the records instead. */
const LOG_KEEP = 20_000

/** A prepared write: validated, hashed, signed and stamped; committing it needs no secret. */
export interface Draft {
  /** Whether the caller gave validFrom; an implicit one (the write time) does not distinguish re-assertions. */
  readonly explicitValidFrom: boolean
  readonly tenant: string | null
  readonly hlc: string
  readonly body: FactBody
  readonly author: string | null
  readonly vector: Float32Array | null
}

/**
 * A mutation ready to commit. In the browser runtime a follower tab prepares (and signs) it
 * locally and the leader tab commits it, so keys never leave the tab that owns them.
 */
export type FactMutation =
  | { readonly type: 'put'; readonly draft: Draft }
  | { readonly type: 'delete'; readonly ref: string; readonly author: string | null; readonly hlc: string }

/** Commits a mutation somewhere else (the leader) and resolves with its result. */
export type Committer = (mutation: FactMutation) => Promise<FactRef | boolean>

interface VectorRow {
  readonly ref: string
  readonly embedder: string
  readonly vec: Float32Array
}

/**
 * The GMP fact store on a storage port. State is materialized in memory from the records
 * (see FactState) and kept fresh against the storage log, so another handle's writes, supersessions
 * and deletes are seen on the next call (CROSS_SESSION_PROPAGATION).
 */
export class GmpFactStore implements FactStore, FactLookup {
  readonly #storage: StoragePort
  readonly #caps: ReadonlySet<Capability>
  readonly #identity: Identity | null
  readonly #embedder: Embedder | null
  readonly #ranking: Partial<RankParams> | undefined
  readonly #clock: HybridClock
  readonly #state: FactState
  readonly #freeText: FreeTextConflicts | null
  readonly #vectors = new Map<string, Float32Array>()
  readonly #batcher: WriteBatcher<WriteTx>
  #seq = 0
  #trimmedAt = 0
  #stale = true
  #opening: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  readonly #mutations = new Set<Promise<unknown>>()
  readonly #live: LiveQueries
  #committer: Committer | null = null
  #unwatch: (() => void) | undefined
  #closed = false

  constructor(storage: StoragePort, options: FactStoreOptions = {}) {
    this.#storage = storage
    this.#caps = resolveCapabilities(options.capabilities)
    this.#identity = options.identity ?? null
    this.#embedder = options.embedder ?? null
    this.#ranking = options.ranking
    this.#clock = new HybridClock(options.now)
    const freeText = options.freeTextConflicts === false ? null : new FreeTextConflicts()
    this.#freeText = freeText
    this.#state = new FactState(new Set((options.multiValuedPredicates ?? []).map(normalizeKey)), freeText)
    this.#batcher = new WriteBatcher((ops) => this.#commit(ops))
    this.#live = new LiveQueries((q, o) => this.retrieve(q, o))
  }

  // ---- lifecycle and freshness -------------------------------------------------------------

  async #open(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    this.#opening ??= this.#storage.open()
    await this.#opening
  }

  /** Opens, waits for the committing batch, and catches up with other handles' changes. */
  async #ready(): Promise<void> {
    await this.#open()
    // Read barrier: never observe a batch that is still committing.
    await this.#batcher.inflight
    // Calls in the same tick share one catch-up read.
    this.#refreshing ??= this.#storage
      .read(TABLES, (tx) => this.#catchUp(tx))
      .finally(() => {
        this.#refreshing = undefined
      })
    await this.#refreshing
    if (this.#embedder) await this.#embedMissing()
    if (this.#freeText?.waiting) await this.#freeText.ready()
  }

  /** Remembers a mutation from the moment it is called, so flush() waits for it even before it is queued. */
  #track<T>(mutation: Promise<T>): Promise<T> {
    this.#mutations.add(mutation)
    const done = (): void => {
      this.#mutations.delete(mutation)
    }
    mutation.then(done, done)
    return mutation
  }

  async #catchUp(tx: ReadTx): Promise<void> {
    if (this.#stale) return this.#reload(tx)
    const last = await tx.last<LogRow>('log')
    if (!last || last.seq === this.#seq) return
    const floor = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
    if (this.#seq < floor) return this.#reload(tx)
    const rows = await tx.after<LogRow>('log', this.#seq)
    const puts = rows.filter((r) => r.op === 'put').map((r) => r.ref)
    const records = await tx.getMany<StoredRecord>('records', puts)
    const vectors = this.#embedder ? await tx.getMany<VectorRow>('vectors', puts) : []
    for (const row of rows) {
      if (row.op === 'del') this.#state.forget(row.ref)
    }
    for (const r of records) if (r) this.#applyRecord(r)
    for (const v of vectors) if (v && v.embedder === this.#embedder?.id) this.#vectors.set(v.ref, v.vec)
    for (const row of rows) {
      if (row.op === 'del') {
        this.#state.forget(row.ref)
        this.#vectors.delete(row.ref)
      }
    }
    this.#seq = rows.at(-1)?.seq ?? this.#seq
    if (rows.length > 0) this.#live.schedule()
  }

  async #reload(tx: ReadTx): Promise<void> {
    this.#state.clear()
    this.#vectors.clear()
    // Only this module's kinds: other modules keep their records in the same table.
    // Tombstones first, so a fact deleted later never flickers into the derived state.
    for (const r of await tx.where<StoredRecord>('records', 'kind', 'tombstone')) this.#applyRecord(r)
    for (const r of await tx.where<StoredRecord>('records', 'kind', 'fact')) this.#applyRecord(r)
    if (this.#embedder) {
      for (const v of await tx.all<VectorRow>('vectors')) if (v.embedder === this.#embedder.id) this.#vectors.set(v.ref, v.vec)
    }
    this.#seq = (await tx.last<LogRow>('log'))?.seq ?? 0
    this.#stale = false
  }

  #applyRecord(r: StoredRecord): void {
    this.#clock.observe(decodeHlc(r.hlc))
    this.#state.apply(r)
  }

  async #embedMissing(): Promise<void> {
    const embedder = this.#embedder!
    const missing = [...this.#state.versions.values()].filter((v) => !this.#vectors.has(v.ref))
    if (missing.length === 0) return
    const vecs = await embedder.embed(missing.map((v) => v.body.content))
    await this.#storage.write(['vectors'], (tx) =>
      tx.put('vectors', missing.map((v, i) => ({ ref: v.ref, embedder: embedder.id, vec: vecs[i]! }))),
    )
    missing.forEach((v, i) => this.#vectors.set(v.ref, vecs[i]!))
  }

  /** Idempotent; pending writes are committed first. */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.flush()
    this.#closed = true
    this.#unwatch?.()
    this.#live.clear()
    await this.#storage.close()
  }

  // ---- writes --------------------------------------------------------------------------------

  async #commit(ops: ReadonlyArray<BatchOp<WriteTx, unknown>>): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    let results: unknown[]
    try {
      results = await this.#storage.write(TABLES, async (tx) => {
        await this.#catchUp(tx)
        const buffered = new BufferedTx(tx, SCHEMA)
        const out: unknown[] = []
        for (const op of ops) out.push(await op.run(buffered))
        const keys = (await buffered.flush()).get('log') ?? []
        for (const key of keys) this.#seq = Math.max(this.#seq, key as number)
        await this.#trimLog(tx)
        return out
      })
    } catch (err) {
      // State was updated optimistically inside the failed transaction: rebuild it from storage.
      this.#stale = true
      throw err
    }
    ops.forEach((op, i) => op.resolve(results[i]))
    this.#live.schedule()
  }

  /** Log rows are buffered with the batch; #commit learns their keys when it flushes. */
  async #log(tx: WriteTx, rows: LogRow[]): Promise<void> {
    await tx.put('log', rows)
  }

  async #trimLog(tx: WriteTx): Promise<void> {
    if (this.#seq - this.#trimmedAt < 1000 || this.#seq <= LOG_KEEP) return
    this.#trimmedAt = this.#seq
    const floor = this.#seq - LOG_KEEP
    const old = await tx.after<LogRow>('log', 0, 5000)
    const keys = old.filter((r) => r.seq! <= floor).map((r) => r.seq!)
    if (keys.length === 0) return
    await tx.delete('log', keys)
    await tx.put('meta', [{ key: 'logFloor', value: keys.at(-1)! }])
    // A request older than the kept log cannot be retried any more (its sender saw a leader change long ago).
    const oldRequests = (await tx.all<{ id: string; at: number }>('requests')).filter((r) => r.at <= floor)
    await tx.delete('requests', oldRequests.map((r) => r.id))
  }

  async #prepare(content: unknown, options: WriteOptions, supersedes: string | null): Promise<Draft> {
    const text = assertContent(content)
    const tenant = normalizeTenant(options.tenantId)
    if (tenant !== null && !this.#caps.has(Capability.MULTI_TENANT)) {
      throw capabilityNotSupported(Capability.MULTI_TENANT, supersedes === null ? 'write' : 'supersede')
    }
    const metadata = assertMetadata(options.metadata)
    const validFromInput = parseOptionalTime(options.validFrom, 'validFrom')
    const key = parseSigningKey(options.signingKey)
    if (key && !this.#caps.has(Capability.CRYPTOGRAPHIC_PROVENANCE)) {
      throw capabilityNotSupported(Capability.CRYPTOGRAPHIC_PROVENANCE, 'write with signingKey')
    }
    const factIdBytes = contentFactId(text, tenant)
    const { subject, predicate, object } = metadata as { subject?: string; predicate?: string; object?: FactObject }
    const signer = key ?? (this.#caps.has(Capability.CRYPTOGRAPHIC_PROVENANCE) ? this.#identity : null)
    let signature: string | null = null
    let publicKey: string | null = null
    let signerDid: string | null = null
    if (signer) {
      const [sig, pub] = isIdentity(signer)
        ? [await signer.sign(factIdBytes), signer.publicKey]
        : await Promise.all([sign(factIdBytes, signer), publicKeyFromSeed(signer)])
      signature = toHex(sig)
      publicKey = toHex(pub)
      signerDid = didFromPublicKey(pub)
    }
    const vector = this.#embedder ? ((await this.#embedder.embed([text]))[0] ?? null) : null
    // The clock ticks last, just before the op is queued, so sequence order is commit order.
    const hlc = this.#clock.tick()
    const writtenAt = hlcMicros(hlc)
    const validFrom = this.#caps.has(Capability.BI_TEMPORAL) && validFromInput !== null ? validFromInput : writtenAt
    const structuredId =
      typeof subject === 'string' && typeof predicate === 'string' && object !== undefined
        ? toHex(structuredFactId({ tenantId: tenant, subject, predicate, object, validFrom: formatTime(validFrom) }))
        : null
    const writtenBy =
      (typeof metadata['session_id'] === 'string' ? (metadata['session_id'] as string) : null) ??
      (typeof metadata['agent_id'] === 'string' ? (metadata['agent_id'] as string) : null) ??
      // Who signed, as memweave names agents everywhere else: a did:key (it encodes the public key).
      signerDid
    return {
      explicitValidFrom: validFromInput !== null,
      tenant,
      hlc: encodeHlc(hlc),
      author: this.#identity?.did ?? null,
      vector,
      body: {
        content: text,
        factId: toHex(factIdBytes),
        structuredId,
        metadata,
        validFrom,
        writtenAt,
        supersedes,
        source: { writtenBy, signature, publicKey },
      },
    }
  }

  async #putFact(tx: WriteTx, draft: Draft): Promise<FactRef> {
    let body = draft.body
    if (body.supersedes !== null) {
      const old = this.#state.versions.get(body.supersedes)
      // GMP §3.1: an unknown ref makes supersede a fresh write. A ref of another tenant is unknown
      // here, because supersession must not reach across tenants (§6.5).
      if (!old || old.tenant !== draft.tenant) body = { ...body, supersedes: null }
    } else {
      const same = this.#state.headsWithFactId(draft.tenant, body.factId).find(
        (v) =>
          v.body.factId === body.factId && (!draft.explicitValidFrom || v.body.validFrom === body.validFrom) &&
          v.body.source.publicKey === body.source.publicKey,
      )
      // Re-asserting a current fact is idempotent (GMP §1.2): the existing version answers.
      if (same) return same.ref
    }
    const unsigned = { kind: 'fact', tenant: draft.tenant, body, author: draft.author, hlc: draft.hlc }
    const record: StoredRecord = { id: recordId(unsigned), ...unsigned }
    await tx.put('records', [record])
    if (draft.vector && this.#embedder) {
      await tx.put('vectors', [{ ref: record.id, embedder: this.#embedder.id, vec: draft.vector }])
      this.#vectors.set(record.id, draft.vector)
    }
    await this.#log(tx, [{ ref: record.id, op: 'put' }])
    this.#applyRecord(record)
    return record.id as FactRef
  }

  async #deleteFact(tx: WriteTx, ref: string, author: string | null, hlc: string): Promise<boolean> {
    const v = this.#state.versions.get(ref)
    if (!v) return false
    const body: TombstoneBody = { target: ref, supersedes: this.#state.predecessor(v) }
    const unsigned = { kind: 'tombstone', tenant: v.tenant, body, author, hlc }
    const tomb: StoredRecord = { id: recordId(unsigned), ...unsigned }
    await tx.delete('records', [ref])
    await tx.delete('vectors', [ref])
    await tx.put('records', [tomb])
    await this.#log(tx, [{ ref: tomb.id, op: 'put' }, { ref, op: 'del' }])
    this.#vectors.delete(ref)
    this.#applyRecord(tomb)
    return true
  }

  write(content: string, options: WriteOptions = {}): Promise<FactRef> {
    return this.#track(
      (async () => {
        await this.#open()
        const draft = await this.#prepare(content, options, null)
        return this.#submit({ type: 'put', draft }) as Promise<FactRef>
      })(),
    )
  }

  async assert(fact: AssertInput): Promise<FactRef> {
    if (typeof fact !== 'object' || fact === null) throw invalidArgument('fact', 'must be an object')
    for (const key of ['subject', 'predicate'] as const) {
      if (typeof fact[key] !== 'string' || fact[key].trim() === '') throw invalidArgument(key, 'must be a non-empty string')
    }
    const obj = fact.object as unknown
    if (!['string', 'number', 'boolean'].includes(typeof obj)) throw invalidArgument('object', 'must be a string, number or boolean')
    if (fact.importance !== undefined && (typeof fact.importance !== 'number' || !Number.isFinite(fact.importance))) {
      throw invalidArgument('importance', 'must be a finite number')
    }
    const content = fact.content ?? `${fact.subject} ${fact.predicate.replace(/_/g, ' ')} ${String(fact.object)}`
    const metadata: Record<string, unknown> = {
      ...(fact.metadata ?? {}),
      subject: fact.subject,
      predicate: fact.predicate,
      object: fact.object,
      ...(fact.importance === undefined ? {} : { importance: fact.importance }),
    }
    return this.write(content, { validFrom: fact.validFrom ?? null, tenantId: fact.tenantId ?? null, metadata, signingKey: fact.signingKey ?? null })
  }

  supersede(oldRef: FactRef | string, content: string, options: WriteOptions = {}): Promise<FactRef> {
    return this.#track(
      (async () => {
        if (!this.#caps.has(Capability.SUPERSESSION_CHAIN)) throw capabilityNotSupported(Capability.SUPERSESSION_CHAIN, 'supersede')
        await this.#open()
        // A non-string ref cannot be one of ours: GMP §3.1 makes that a fresh write.
        const draft = await this.#prepare(content, options, typeof oldRef === 'string' ? oldRef : null)
        return this.#submit({ type: 'put', draft }) as Promise<FactRef>
      })(),
    )
  }

  delete(ref: FactRef | string): Promise<boolean> {
    return this.#track(
      (async () => {
        if (!this.#caps.has(Capability.HARD_DELETE)) throw capabilityNotSupported(Capability.HARD_DELETE, 'delete')
        await this.#open()
        if (typeof ref !== 'string') return false
        const hlc = encodeHlc(this.#clock.tick())
        const author = this.#identity?.did ?? null
        return this.#submit({ type: 'delete', ref, author, hlc }) as Promise<boolean>
      })(),
    )
  }

  #applyMutation(tx: WriteTx, m: FactMutation): Promise<FactRef | boolean> {
    return m.type === 'put' ? this.#putFact(tx, m.draft) : this.#deleteFact(tx, m.ref, m.author, m.hlc)
  }

  async #submit(m: FactMutation): Promise<FactRef | boolean> {
    const committer = this.#committer
    if (!committer) return this.#batcher.enqueue((tx) => this.#applyMutation(tx, m))
    const result = await committer(m)
    await this.refresh() // read-your-writes: the leader's commit is in storage, catch up before resolving
    return result
  }

  /**
   * Commits a mutation prepared by another handle (the browser runtime's leader does this for
   * followers). `requestId` makes it exactly-once: a retry after a leader change returns the
   * first result instead of writing twice.
   * @internal
   */
  commitForwarded(mutation: FactMutation, requestId: string): Promise<FactRef | boolean> {
    return this.#track(
      (async () => {
        await this.#open()
        return this.#batcher.enqueue(async (tx) => {
          const done = await tx.get<{ result: FactRef | boolean }>('requests', requestId)
          if (done) return done.result
          const result = await this.#applyMutation(tx, mutation)
          await tx.put('requests', [{ id: requestId, result, at: this.#seq }])
          return result
        })
      })(),
    )
  }

  /**
   * Routes this store's mutations to another handle (null: commit locally again).
   * @internal
   */
  setCommitter(committer: Committer | null): void {
    this.#committer = committer
  }

  /** Catches up with changes other handles committed, and updates live queries. */
  async refresh(): Promise<void> {
    await this.#ready()
  }

  /**
   * A live query: `callback` gets the result of `retrieve(query, options)` now, and again each
   * time a write in this or any other handle on the same storage (another tab, another worker)
   * changes it. Returns the unsubscribe function.
   *
   * @throws MemweaveError as retrieve() does, for a bad query or options (nothing is registered).
   * @example
   * const stop = await mem.facts.subscribe('where does Aria live', { topK: 1 }, (hits) => render(hits))
   */
  async subscribe(query: string, options: RetrieveOptions, callback: LiveQueryCallback): Promise<() => void> {
    if (typeof callback !== 'function') throw invalidArgument('callback', 'must be a function')
    if (!this.#unwatch && this.#storage.watch) {
      this.#unwatch = this.#storage.watch(() => {
        if (this.#live.size > 0 && !this.#closed) this.refresh().catch(() => undefined)
      })
    }
    return this.#live.add(query, options ?? {}, callback)
  }

  /** GMP flush(): resolves once every mutation called before it has committed (or failed). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.#mutations])
    await this.#batcher.flush()
  }

  // ---- reads ---------------------------------------------------------------------------------

  async capabilities(): Promise<Capability[]> {
    return [...this.#caps].sort()
  }

  async policy(): Promise<StorePolicy> {
    return {
      tokenizer: 'characters',
      retention: {
        kind: 'unbounded',
        params: {},
        coverageGuarantee:
          'A fact remains retrievable until it is hard-deleted. Once superseded it leaves current answers but stays in audit() and in retrieve(asOf) within its valid interval.',
      },
    }
  }

  async retrieve(query: string, options: RetrieveOptions = {}): Promise<Memory[]> {
    const q = assertQuery(query)
    const o = options ?? {}
    const budget = assertBudget(o.budgetTokens)
    const topK = assertTopK(o.topK)
    const tenant = normalizeTenant(o.tenantId)
    if (tenant !== null && !this.#caps.has(Capability.MULTI_TENANT)) throw capabilityNotSupported(Capability.MULTI_TENANT, 'retrieve with tenantId')
    const asOf = o.asOf === undefined || o.asOf === null ? null : parseTime(o.asOf, 'asOf')
    if (asOf !== null && !this.#caps.has(Capability.BI_TEMPORAL)) throw capabilityNotSupported(Capability.BI_TEMPORAL, 'retrieve with asOf')
    await this.#ready()
    const candidates = asOf === null ? this.#state.current(tenant) : this.#state.validAt(tenant, asOf)
    const queryVector = this.#embedder ? (await this.#embedder.embed([q]))[0] : undefined
    const ordered = rank(q, candidates, { lexical: this.#state.lexical(tenant), queryVector, vectors: this.#vectors, params: this.#ranking })
    return pack(ordered, budget, topK).map((v) => this.#toMemory(v))
  }

  async audit(): Promise<Memory[]> {
    if (!this.#caps.has(Capability.AUDIT)) throw capabilityNotSupported(Capability.AUDIT, 'audit')
    await this.#ready()
    return this.#state.all().map((v) => this.#toMemory(v))
  }

  /** @internal See `FactLookup.versionsWhere`; the fields are what audit() would say of each version. */
  async versionsWhere(key: string, value: string): Promise<FactEntry[]> {
    if (!this.#caps.has(Capability.AUDIT)) throw capabilityNotSupported(Capability.AUDIT, 'versionsWhere')
    await this.#ready()
    const chain = this.#caps.has(Capability.SUPERSESSION_CHAIN)
    return this.#state.withMetadata(key, value).sort(compareVersions).map((v) => ({
      ref: v.ref,
      tenantId: v.tenant,
      metadata: v.body.metadata,
      sequence: v.hlc,
      supersededBy: chain ? this.#state.supersededBy(v.ref) : null,
    }))
  }

  async get(ref: FactRef | string): Promise<Memory | null> {
    await this.#ready()
    const v = typeof ref === 'string' ? this.#state.versions.get(ref) : undefined
    return v ? this.#toMemory(v) : null
  }

  async conflicts(options: { tenantId?: string | null } = {}): Promise<FactConflict[]> {
    if (!this.#caps.has(Capability.CONFLICT_DETECTION)) throw capabilityNotSupported(Capability.CONFLICT_DETECTION, 'conflicts')
    const tenant = options.tenantId === undefined ? undefined : normalizeTenant(options.tenantId)
    await this.#ready()
    return this.#state.conflicts(tenant)
  }

  verifyProvenance(memory: Memory, factId: string | Uint8Array): Promise<boolean> {
    return verifyProvenance(memory, factId)
  }

  #toMemory(v: Version): Memory {
    const caps = this.#caps
    const bi = caps.has(Capability.BI_TEMPORAL)
    const until = bi ? this.#state.validUntil(v.ref) : null
    const src = v.body.source
    return {
      ref: v.ref,
      content: v.body.content,
      writtenAt: formatTime(v.body.writtenAt),
      metadata: structuredClone(v.body.metadata),
      validFrom: bi ? formatTime(v.body.validFrom) : null,
      validUntil: until === null ? null : formatTime(until),
      tenantId: v.tenant,
      supersededBy: caps.has(Capability.SUPERSESSION_CHAIN) ? this.#state.supersededBy(v.ref) : null,
      source: caps.has(Capability.PROVENANCE)
        ? {
            writeId: v.ref,
            writtenAt: formatTime(v.body.writtenAt),
            writtenBy: src.writtenBy,
            signature: src.signature ? hexBytes(src.signature) : null,
            publicKey: src.publicKey ? hexBytes(src.publicKey) : null,
          }
        : null,
      factId: v.body.factId,
      structuredId: v.body.structuredId,
      sequence: v.hlc,
      conflictsWith: caps.has(Capability.CONFLICT_DETECTION) ? this.#state.conflictsWith(v) : [],
    }
  }
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}
