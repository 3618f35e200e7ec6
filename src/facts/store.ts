import { capabilityNotSupported, invalidArgument } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { parseTime } from '../core/time.js'
import { LogAttachment } from '../records/attach.js'
import { MetaRows } from '../records/meta-rows.js'
import { logFor, type ItemForms, type RecordLog } from '../records/log.js'
import type { Deriver, Delivery, LogWriter } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'
import { Capability, resolveCapabilities } from './capabilities.js'
import { applyMutation } from './commit.js'
import { checkWrite, draftOf, draftsOf, type Draft, type FactMutation } from './draft.js'
import type { Embedder } from './embedder.js'
import { assertBudget, assertQuery, assertTopK, normalizeTenant } from './input.js'
import { verifyProvenance } from './provenance.js'
import { judgedConflicts } from './judged-conflicts.js'
import { LiveQueries, type LiveQueryCallback } from './live-query.js'
import { entryOf, toMemory } from './memory-view.js'
import { pack, rank } from './rank.js'
import { FactState } from './state.js'
import type { FactHost, LexicalRow, VectorRow } from './store-host.js'
import { FreeTextConflicts } from './free-text-conflicts.js'
import type { JudgeStage } from '../conflict-judge/stage.js'
import { DEFAULT_CONFLICT_THRESHOLD, KEEP_CONFIDENCE } from '../conflict/threshold.js'
import type {
  AssertInput, ConflictsOptions, FactConflict, FactEntry, FactLookup, FactRef, FactWrite, FactStore, FactStoreOptions, FactMemory, RankParams, RetrieveOptions, StorePolicy, WriteOptions,
} from './types.js'
import { compareVersions, normalizeKey } from './version.js'

export type { Draft, FactMutation } from './draft.js'

/** A fact write as an item of the store's one named write (`RecordLog.submitItem`): alone a put, joined a putMany. */
const PUT_FORMS: ItemForms = {
  one: (draft) => ({ type: 'put', draft: draft as Draft }) satisfies FactMutation,
  many: (drafts) => ({ type: 'putMany', drafts: drafts as Draft[] }) satisfies FactMutation,
}

/** `conflicts()` lists at most this many pairs by default, and never more than MAX_CONFLICTS (a slot of k objects holds k²/2). */
const DEFAULT_CONFLICTS = 10_000
const MAX_CONFLICTS = 100_000
const LEXICAL_FORMAT = 2
const LEXICAL_SNAPSHOT_MIN = 1000
/** An open that indexed more facts than this (no snapshot, or an old one) saves a fresh snapshot. */
const RESNAPSHOT_AFTER = 2000

/**
 * The GMP fact store on a storage port. State is materialized in memory from the records
 * (see FactState) and kept fresh against the storage log, so another handle's writes, supersessions
 * and deletes are seen on the next call (CROSS_SESSION_PROPAGATION).
 */
export class GmpFactStore implements FactStore, FactLookup {
  readonly #log: RecordLog
  readonly #ownsLog: boolean
  readonly #caps: ReadonlySet<Capability>
  readonly #identity: Identity | null
  readonly #embedder: Embedder | null
  readonly #ranking: Partial<RankParams> | undefined
  readonly #lexicalSnapshotMin: number
  readonly #state: FactState
  readonly #freeText: FreeTextConflicts | null
  /** The second-stage judge of free-text conflicts, if the Memory has one (src/conflict-judge). */
  readonly #judge: JudgeStage | null
  readonly #vectors = new Map<string, Float32Array>()
  readonly #live: LiveQueries
  readonly #attachment: LogAttachment
  /** Writes and deletes called before the store was registered, still waiting for it: later ones queue behind them. */
  #waiting = 0
  /** The lexical rows storage holds (a save replaces them all). */
  readonly #lexicalRows = new MetaRows<LexicalRow>('facts.lexical\u001f')
  /** Work the public reads wait for (`hold`): the pools' fact view catching up after a join. */
  readonly #holds = new Set<Promise<void>>()
  /** What `holdWhenDue` registered: asked by each public read. */
  readonly #dues: Array<() => Promise<unknown> | undefined> = []
  /** What the store's parts (draft.ts, commit.ts, memory-view.ts, judged-conflicts.ts) share with it. */
  readonly #host: FactHost
  #unfollow: (() => void) | undefined
  #closed = false
  /** The lexical snapshot's restore a full load started (`preload`), awaited by its `receive`. */
  #restoring: Promise<void> | null = null

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: FactStoreOptions = {}) {
    this.#identity = options.identity ?? null
    const { log, owned } = logFor(source, { identity: this.#identity, now: options.now })
    this.#log = log
    this.#ownsLog = owned
    // Once registered: not awaited, the next open restores what this saves; this one has paid the indexing already.
    this.#attachment = new LogAttachment(log, this.#deriver, {
      onRegistered: () => {
        if (this.#state.lexicalChanges > RESNAPSHOT_AFTER && this.#worthSnapshot()) this.#log.write((w) => this.#saveLexical(w)).catch(() => undefined)
      },
    })
    this.#caps = resolveCapabilities(options.capabilities)
    this.#embedder = options.embedder ?? null
    this.#ranking = options.ranking
    this.#lexicalSnapshotMin = options.lexicalSnapshotMin ?? LEXICAL_SNAPSHOT_MIN
    const freeText = options.freeTextConflicts === false ? null : new FreeTextConflicts()
    this.#freeText = freeText
    this.#judge = freeText ? (options.judge ?? null) : null
    this.#state = new FactState(new Set((options.multiValuedPredicates ?? []).map(normalizeKey)), freeText)
    this.#live = new LiveQueries((q, o) => this.retrieve(q, o))
    this.#host = {
      log, caps: this.#caps, identity: this.#identity, embedder: this.#embedder, state: this.#state, vectors: this.#vectors,
      judge: this.#judge, freeText: this.#freeText, lexicalRows: this.#lexicalRows,
    }
    log.define('facts.mutate', (w, m: FactMutation) => applyMutation(this.#host, w, m))
  }

  // ---- what the store derives from the record log -------------------------------------------

  readonly #deriver: Deriver = {
    name: 'facts',
    // Tombstones first within each part of a full load. The state does not depend on the order
    // records arrive in (FactState), so the load is applied part by part as it is read (`loaded`).
    kinds: ['tombstone', 'fact'],
    reset: () => {
      this.#state.clear()
      this.#vectors.clear()
      this.#restoring = null
    },
    // The lexical snapshot is read and restored while the records are read, not after them.
    preload: (tx) => {
      this.#restoring = this.#restoreLexical(tx)
      this.#restoring.catch(() => undefined)
    },
    receive: (records, delivery) => this.#receive(records, delivery),
    loaded: (delivery) => this.#loaded(delivery),
    removed: (ids) => {
      for (const id of ids) {
        this.#state.forget(id)
        this.#vectors.delete(id)
      }
    },
    changed: () => this.#live.schedule(),
    settle: async () => {
      if (this.#embedder) await this.#embedMissing()
      if (this.#freeText?.waiting) await this.#freeText.ready()
    },
  }

  async #receive(records: readonly StoredRecord[], { tx, local, reload }: Delivery): Promise<void> {
    // A part of a full load: the snapshot restored first, once (`#loaded` ends the load).
    if (reload) await (this.#restoring ??= this.#restoreLexical(tx))
    for (const r of records) this.#state.apply(r)
    // A load that queued versions for the free-text comparison will await the detector (`settle`):
    // its code starts loading now, while the later parts are still read.
    if (reload && this.#freeText?.waiting) this.#freeText.ready().catch(() => undefined)
    // Vectors of this handle's own writes are already in memory; others' are read with their records (a load's in `#loaded`).
    const embedder = this.#embedder
    if (!embedder || local || reload) return
    const vectors = await tx.getMany<VectorRow>('vectors', records.filter((r) => r.kind === 'fact').map((r) => r.id))
    this.#keepVectors(vectors)
  }

  /** The end of a full load: every part applied. */
  async #loaded({ tx }: Delivery): Promise<void> {
    await (this.#restoring ??= this.#restoreLexical(tx))
    this.#restoring = null
    this.#state.checkLexical()
    this.#state.prepareOrders()
    // The free-text tallies the load left owed are counted in steps from here, after the open (open39).
    this.#freeText?.catchUpSoon()
    if (this.#embedder) this.#keepVectors(await tx.all<VectorRow>('vectors'))
  }

  #keepVectors(vectors: ReadonlyArray<VectorRow | undefined>): void {
    const embedder = this.#embedder!
    for (const v of vectors) if (v && v.embedder === embedder.id && this.#state.versions.has(v.ref)) this.#vectors.set(v.ref, v.vec)
  }

  /** Registers with the log once (loading every fact); later calls cost a resolved promise. */
  #register(): Promise<void> {
    return this.#attachment.register()
  }

  #worthSnapshot(): boolean {
    return this.#state.versions.size >= this.#lexicalSnapshotMin
  }

  /** Loads the lexical snapshots of the current format into the (just reset) state. */
  async #restoreLexical(tx: Delivery['tx']): Promise<void> {
    const rows = await this.#lexicalRows.load(tx)
    this.#state.restoreLexical(new Map(rows.filter((r) => r.format === LEXICAL_FORMAT).map((r) => [r.tenantKey, r])))
  }

  /** Replaces the stored lexical rows with snapshots of the indexes as they are in this batch. */
  async #saveLexical(w: LogWriter): Promise<void> {
    const rows: LexicalRow[] = [...this.#state.lexicalSnapshots()].map(([tk, snap]) => ({ key: this.#lexicalRows.key(tk), tenantKey: tk, format: LEXICAL_FORMAT, ...snap }))
    await this.#lexicalRows.replace(w.tx, rows)
  }

  /**
   * `#ready`, after the work held for readers (`hold`) has settled: what the public reads wait for.
   * The holder's own lookups and writes go by `#ready` alone, or they would wait for themselves.
   */
  async #readable(): Promise<void> {
    for (const due of this.#dues) {
      const work = due()
      if (work) this.hold(work)
    }
    while (this.#holds.size > 0) await Promise.all([...this.#holds])
    await this.#ready()
  }

  /**
   * @internal See `FactLookup.hold`. A failure of the work is its holder's to report: readers
   * only wait for it.
   */
  hold(work: Promise<unknown>): void {
    const settled: Promise<void> = work.then(() => undefined, () => undefined).finally(() => this.#holds.delete(settled))
    this.#holds.add(settled)
  }

  /** @internal See `FactLookup.holdWhenDue`. */
  holdWhenDue(due: () => Promise<unknown> | undefined): void {
    this.#dues.push(due)
  }

  /** @internal See `FactLookup.entry`. */
  async entry(ref: string): Promise<FactEntry | null> {
    await this.#ready()
    const v = this.#state.versions.get(ref)
    return v ? entryOf(this.#host, v) : null
  }

  /** Registered, and caught up with every handle's commits. */
  async #ready(): Promise<void> {
    await this.#attachment.ready()
  }

  async #embedMissing(): Promise<void> {
    const embedder = this.#embedder!
    const missing = [...this.#state.versions.values()].filter((v) => !this.#vectors.has(v.ref))
    if (missing.length === 0) return
    const vecs = await embedder.embed(missing.map((v) => v.body.content))
    await this.#log.write((w) => w.tx.put('vectors', missing.map((v, i) => ({ ref: v.ref, embedder: embedder.id, vec: vecs[i]! }))))
    missing.forEach((v, i) => this.#vectors.set(v.ref, vecs[i]!))
  }

  /** Idempotent; pending writes are committed first. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    this.#unfollow?.()
    this.#live.clear()
    this.#freeText?.stopSteps()
    // Whatever was indexed since the last snapshot is saved, so the next open restores it.
    if (this.#attachment.started && !this.#log.closed && (await this.#attachment.settled())) {
      if (this.#state.lexicalChanges > 0 && this.#worthSnapshot()) await this.#log.write((w) => this.#saveLexical(w)).catch(() => undefined)
    }
    if (this.#ownsLog) await this.#log.close()
    else await this.#log.flush()
  }

  // ---- writes --------------------------------------------------------------------------------

  /**
   * One write, checked, signed, embedded and stamped, into this tick's batch. Writes one after
   * another in a tick join one run of the batch (`RecordLog.submitItem`). A draft that needs no
   * await (unsigned, no embedder) is queued in the same step as its stamp is taken.
   */
  #put(content: unknown, options: WriteOptions, supersedes: string | null): Promise<FactRef> {
    return this.#afterRegister(() => {
      const prepared = draftOf(this.#host, checkWrite(this.#host, content, options, supersedes))
      return prepared instanceof Promise ? prepared.then((draft) => this.#submitPut(draft)) : this.#submitPut(prepared)
    })
  }

  #submitPut(draft: Draft): Promise<FactRef> {
    return this.#log.submitItem('facts.mutate', draft, PUT_FORMS) as Promise<FactRef>
  }

  /**
   * Runs `step` once the store is registered: in this call when it is and no write or delete
   * called before is still waiting for that, else after the registration, in call order. The
   * fast way has no async function's frame and no await of a resolved registration per write (a
   * tenth of what a burst allocated: issue 31, sixth round); `step` throwing is a rejection either way.
   */
  #afterRegister<T>(step: () => Promise<T>): Promise<T> {
    if (this.#attachment.registered && this.#waiting === 0) {
      try {
        return step()
      } catch (err) {
        return Promise.reject(err)
      }
    }
    this.#waiting++
    return this.#register().then(
      () => {
        this.#waiting--
        return step()
      },
      (err: unknown) => {
        this.#waiting--
        throw err
      },
    )
  }

  write(content: string, options: WriteOptions = {}): Promise<FactRef> {
    return this.#log.track(() => this.#put(content, options, null))
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
    return this.#log.track(
      async () => {
        if (!this.#caps.has(Capability.SUPERSESSION_CHAIN)) throw capabilityNotSupported(Capability.SUPERSESSION_CHAIN, 'supersede')
        // A non-string ref cannot be one of ours: GMP §3.1 makes that a fresh write.
        return this.#put(content, options, typeof oldRef === 'string' ? oldRef : null)
      },
    )
  }

  delete(ref: FactRef | string): Promise<boolean> {
    return this.#log.track(() => {
      if (!this.#caps.has(Capability.HARD_DELETE)) return Promise.reject(capabilityNotSupported(Capability.HARD_DELETE, 'delete'))
      // Through the same step as a write's draft: writes and deletes of a tick keep their call order.
      return this.#afterRegister(() =>
        typeof ref !== 'string' ? Promise.resolve(false) : (this.#submit({ type: 'delete', ref, author: this.#identity?.did ?? null, hlc: this.#log.tick() }) as Promise<boolean>),
      )
    })
  }

  /**
   * @internal See `FactLookup.writeMany`: every write is checked before any is signed or stored
   * (one bad input fails the batch and stores nothing), signed side by side, embedded in one call,
   * stamped in order, and committed as one mutation.
   */
  writeMany(writes: readonly FactWrite[]): Promise<FactRef[]> {
    return this.#log.track(async () => {
      if (!Array.isArray(writes)) throw invalidArgument('writes', 'must be an array')
      if (writes.some((x) => x?.supersedes != null) && !this.#caps.has(Capability.SUPERSESSION_CHAIN)) {
        throw capabilityNotSupported(Capability.SUPERSESSION_CHAIN, 'supersede')
      }
      await this.#register()
      if (writes.length === 0) return []
      // A non-string ref cannot be one of ours: GMP §3.1 makes that a fresh write.
      const drafts = await draftsOf(this.#host, writes.map((x) => checkWrite(this.#host, x.content, x.options ?? {}, typeof x.supersedes === 'string' ? x.supersedes : null)))
      return this.#submit({ type: 'putMany', drafts }) as Promise<FactRef[]>
    })
  }

  /** Into this tick's batch, or to the leader tab that commits for this one (the log decides). */
  #submit(m: FactMutation): Promise<FactRef | FactRef[] | boolean> {
    return this.#log.submit('facts.mutate', m) as Promise<FactRef | FactRef[] | boolean>
  }

  /** Catches up with changes other handles committed, and updates live queries. */
  async refresh(): Promise<void> {
    await this.#readable()
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
    // Another handle's commit reaches the live queries through the log's catch-up (deriver.changed).
    this.#unfollow ??= this.#log.follow()
    return this.#live.add(query, options ?? {}, callback)
  }

  /**
   * A live conflict listing: `callback` gets `conflicts(options)` now, and again each time a write
   * in this or any other handle on the same storage changes it (a new contradiction, one
   * superseded or deleted away). The listing is re-run after each change, so a change costs what
   * one `conflicts()` call costs (at most `limit` pairs); a judge's verdict shows with the next
   * change or call. Returns the unsubscribe function.
   *
   * @throws MemweaveError as conflicts() does, for bad options (nothing is registered);
   *   CAPABILITY_NOT_SUPPORTED without CONFLICT_DETECTION.
   * @example
   * const stop = await mem.facts.subscribeConflicts({}, (pairs) => render(pairs))
   */
  async subscribeConflicts(options: ConflictsOptions, callback: (conflicts: FactConflict[]) => void): Promise<() => void> {
    if (typeof callback !== 'function') throw invalidArgument('callback', 'must be a function')
    this.#unfollow ??= this.#log.follow()
    const o = options ?? {}
    return this.#live.watch(() => this.conflicts(o), (list) => JSON.stringify(list), callback)
  }

  /** GMP flush(): resolves once every mutation called before it has committed (or failed). */
  async flush(): Promise<void> {
    await this.#log.flush()
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

  async retrieve(query: string, options: RetrieveOptions = {}): Promise<FactMemory[]> {
    const q = assertQuery(query)
    const o = options ?? {}
    const budget = assertBudget(o.budgetTokens)
    const topK = assertTopK(o.topK)
    if (o.matchesOnly !== undefined && typeof o.matchesOnly !== 'boolean') throw invalidArgument('matchesOnly', 'must be a boolean')
    const tenant = normalizeTenant(o.tenantId)
    if (tenant !== null && !this.#caps.has(Capability.MULTI_TENANT)) throw capabilityNotSupported(Capability.MULTI_TENANT, 'retrieve with tenantId')
    const asOf = o.asOf === undefined || o.asOf === null ? null : parseTime(o.asOf, 'asOf')
    if (asOf !== null && !this.#caps.has(Capability.BI_TEMPORAL)) throw capabilityNotSupported(Capability.BI_TEMPORAL, 'retrieve with asOf')
    await this.#readable()
    const candidates = asOf === null ? this.#state.current(tenant) : this.#state.validAt(tenant, asOf)
    const queryVector = this.#embedder ? (await this.#embedder.embed([q]))[0] : undefined
    const ordered = rank(q, candidates, {
      lexical: this.#state.lexical(tenant), liveInIndex: asOf === null, queryVector, vectors: this.#vectors, params: this.#ranking,
      matchesOnly: o.matchesOnly === true,
    })
    return pack(ordered, budget, topK).map((v) => toMemory(this.#host, v))
  }

  async audit(): Promise<FactMemory[]> {
    if (!this.#caps.has(Capability.AUDIT)) throw capabilityNotSupported(Capability.AUDIT, 'audit')
    await this.#readable()
    return this.#state.all().map((v) => toMemory(this.#host, v))
  }

  /** @internal See `FactLookup.versionsWhere`; the fields are what audit() would say of each version. */
  async versionsWhere(key: string, value: string | readonly string[]): Promise<FactEntry[]> {
    if (!this.#caps.has(Capability.AUDIT)) throw capabilityNotSupported(Capability.AUDIT, 'versionsWhere')
    await this.#ready()
    const values = typeof value === 'string' ? [value] : [...new Set(value)]
    if (values.length === 0) this.#state.indexByMetadata(key)
    return values.flatMap((v) => this.#state.withMetadata(key, v)).sort(compareVersions).map((v) => entryOf(this.#host, v))
  }

  /** @internal See `FactLookup.indexWhere`. */
  indexWhere(key: string): void {
    this.#state.indexByMetadata(key)
    this.#state.indexHeadsWith(key)
  }

  async get(ref: FactRef | string): Promise<FactMemory | null> {
    await this.#readable()
    const v = typeof ref === 'string' ? this.#state.versions.get(ref) : undefined
    return v ? toMemory(this.#host, v) : null
  }

  async conflicts(options: ConflictsOptions = {}): Promise<FactConflict[]> {
    if (!this.#caps.has(Capability.CONFLICT_DETECTION)) throw capabilityNotSupported(Capability.CONFLICT_DETECTION, 'conflicts')
    const tenant = options.tenantId === undefined ? undefined : normalizeTenant(options.tenantId)
    const { limit = DEFAULT_CONFLICTS } = options
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CONFLICTS) throw invalidArgument('limit', `must be an integer in 1..${MAX_CONFLICTS}`)
    const min = options.minConfidence
    if (min !== undefined && (typeof min !== 'number' || !(min >= KEEP_CONFIDENCE && min <= 1))) {
      throw invalidArgument('minConfidence', `must be a number from ${KEEP_CONFIDENCE} to 1, got ${String(min)}`)
    }
    await this.#readable()
    const judge = this.#judge
    const listAt = min ?? DEFAULT_CONFLICT_THRESHOLD
    // With a judge asked below the listing threshold, the band between is read too: listed only on the judge's word.
    const floor = judge?.candidateFloor !== undefined && judge.candidateFloor < listAt ? judge.candidateFloor : listAt
    const list = this.#state.conflicts(tenant, limit, floor)
    return judge ? judgedConflicts(this.#host, judge, list, options.waitForJudge === true, listAt) : list
  }

  verifyProvenance(memory: FactMemory, factId: string | Uint8Array): Promise<boolean> {
    return verifyProvenance(memory, factId)
  }

}

