import { hlcMicros } from '../core/clock.js'
import { capabilityNotSupported, invalidArgument } from '../core/errors.js'
import { contentFactId, structuredFactId, type FactObject } from '../core/ids.js'
import { publicKeyFromSeed, sign } from '../core/ed25519.js'
import { didFromPublicKey, isIdentity, type Identity } from '../core/identity.js'
import { toHex } from '../core/bytes.js'
import { formatStoredTime, formatTime, parseOptionalTime, parseTime } from '../core/time.js'
import { LogAttachment } from '../records/attach.js'
import { MetaRows } from '../records/meta-rows.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { Deriver, Delivery, LogWriter } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'
import { Capability, resolveCapabilities } from './capabilities.js'
import type { Embedder } from './embedder.js'
import {
  assertBudget, assertContent, assertMetadata, assertQuery, assertTopK, normalizeTenant, parseSigningKey,
} from './input.js'
import { verifyProvenance } from './provenance.js'
import { LiveQueries, type LiveQueryCallback } from './live-query.js'
import { pack, rank } from './rank.js'
import { FactState, tenantKey } from './state.js'
import type { LexicalSnapshot } from './lexical-index.js'
import { FreeTextConflicts } from './free-text-conflicts.js'
import { judgedReason } from '../conflict-judge/reason.js'
import type { JudgeStage } from '../conflict-judge/stage.js'
import { DEFAULT_CONFLICT_THRESHOLD, KEEP_CONFIDENCE } from '../conflict/threshold.js'
import type {
  AssertInput, ConflictsOptions, FactConflict, FactEntry, FactLookup, FactRef, FactWrite, FactStore, FactStoreOptions, Memory, RankParams, RetrieveOptions, StorePolicy, WriteOptions,
} from './types.js'
import { compareVersions, normalizeKey, type FactBody, type TombstoneBody, type Version } from './version.js'

/** A write's input, checked (see `#check`). */
interface Checked {
  readonly text: string
  readonly tenant: string | null
  readonly metadata: Record<string, unknown>
  readonly validFromInput: number | null
  readonly key: ReturnType<typeof parseSigningKey>
  readonly supersedes: string | null
}

/** A checked write with its content id and, where there is a signer, its signature. */
interface Signed extends Checked {
  readonly factIdBytes: Uint8Array
  readonly signature: string | null
  readonly publicKey: string | null
  readonly signerDid: string | null
}

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
  | { readonly type: 'putMany'; readonly drafts: readonly Draft[] }
  | { readonly type: 'delete'; readonly ref: string; readonly author: string | null; readonly hlc: string }

/**
 * A tenant's lexical index as a `meta` row (see LexicalIndex.snapshot): opening a store restores
 * it instead of tokenizing every fact again. Written when a store closes and after an open that
 * had to index many facts; deleted in the transaction of any hard delete of that tenant's facts,
 * so no stem of deleted content outlives it. `format` names the tokenizer and layout: a row of
 * another format is ignored and replaced.
 */
interface LexicalRow extends LexicalSnapshot {
  readonly key: string
  readonly tenantKey: string
  readonly format: number
}

/** `conflicts()` lists at most this many pairs by default, and never more than MAX_CONFLICTS (a slot of k objects holds k²/2). */
const DEFAULT_CONFLICTS = 10_000
const MAX_CONFLICTS = 100_000
const LEXICAL_FORMAT = 2
const LEXICAL_SNAPSHOT_MIN = 1000
/** An open that indexed more facts than this (no snapshot, or an old one) saves a fresh snapshot. */
const RESNAPSHOT_AFTER = 2000

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
  /** The lexical rows storage holds (a save replaces them all). */
  readonly #lexicalRows = new MetaRows<LexicalRow>('facts.lexical\u001f')
  /** Work the public reads wait for (`hold`): the pools' fact view catching up after a join. */
  readonly #holds = new Set<Promise<void>>()
  #unfollow: (() => void) | undefined
  #closed = false

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
    log.define('facts.mutate', (w, m: FactMutation) => this.#applyMutation(w, m))
  }

  // ---- what the store derives from the record log -------------------------------------------

  readonly #deriver: Deriver = {
    name: 'facts',
    // Tombstones first on a full load, so a fact deleted later never flickers into the derived state.
    kinds: ['tombstone', 'fact'],
    reset: () => {
      this.#state.clear()
      this.#vectors.clear()
    },
    receive: (records, delivery) => this.#receive(records, delivery),
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
    if (reload) await this.#restoreLexical(tx)
    for (const r of records) this.#state.apply(r)
    if (reload) this.#state.checkLexical()
    // Vectors of this handle's own writes are already in memory; others' are read with their records.
    const embedder = this.#embedder
    if (!embedder || local) return
    const vectors = reload
      ? await tx.all<VectorRow>('vectors')
      : await tx.getMany<VectorRow>('vectors', records.filter((r) => r.kind === 'fact').map((r) => r.id))
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

  /** @internal See `FactLookup.entry`. */
  async entry(ref: string): Promise<FactEntry | null> {
    await this.#ready()
    const v = this.#state.versions.get(ref)
    return v ? this.#entry(v) : null
  }

  #entry(v: Version): FactEntry {
    return {
      ref: v.ref,
      tenantId: v.tenant,
      metadata: v.body.metadata,
      sequence: v.hlc,
      supersededBy: this.#caps.has(Capability.SUPERSESSION_CHAIN) ? this.#state.supersededBy(v.ref) : null,
    }
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
    // Whatever was indexed since the last snapshot is saved, so the next open restores it.
    if (this.#attachment.started && !this.#log.closed && (await this.#attachment.settled())) {
      if (this.#state.lexicalChanges > 0 && this.#worthSnapshot()) await this.#log.write((w) => this.#saveLexical(w)).catch(() => undefined)
    }
    if (this.#ownsLog) await this.#log.close()
    else await this.#log.flush()
  }

  // ---- writes --------------------------------------------------------------------------------

  /** One write's draft: checked, signed, embedded and stamped. */
  async #prepare(content: unknown, options: WriteOptions, supersedes: string | null): Promise<Draft> {
    return (await this.#drafts([this.#check(content, options, supersedes)]))[0]!
  }

  /** Drafts of checked writes: signed side by side, embedded in one call, then stamped in order. */
  async #drafts(checked: readonly Checked[]): Promise<Draft[]> {
    const signed = await this.#sign(checked)
    const vectors = this.#embedder ? await this.#embedder.embed(signed.map((x) => x.text)) : []
    // The clock ticks last, just before the op is queued, so sequence order is commit order.
    return signed.map((x, i) => this.#stamp(x, vectors[i] ?? null))
  }

  #check(content: unknown, options: WriteOptions, supersedes: string | null): Checked {
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
    return { text, tenant, metadata, validFromInput, key, supersedes }
  }

  /** Content ids and signatures of checked writes (signatures all at once: WebCrypto runs them side by side). */
  async #sign(checked: readonly Checked[]): Promise<Signed[]> {
    const identity = this.#caps.has(Capability.CRYPTOGRAPHIC_PROVENANCE) ? this.#identity : null
    // A signer's public key and did, once per batch (the did is a base58 encoding).
    const who = async (signer: Uint8Array | Identity): Promise<{ publicKey: string; did: string }> => {
      const pub = isIdentity(signer) ? signer.publicKey : await publicKeyFromSeed(signer)
      return { publicKey: toHex(pub), did: didFromPublicKey(pub) }
    }
    const ids = checked.map((c) => contentFactId(c.text, c.tenant))
    const signerOf = (c: Checked): Uint8Array | Identity | null => c.key ?? identity
    const sigs = await Promise.all(checked.map((c, i) => {
      const signer = signerOf(c)
      return signer === null ? null : isIdentity(signer) ? signer.sign(ids[i]!) : sign(ids[i]!, signer)
    }))
    const keys = new Map<Uint8Array | Identity, { publicKey: string; did: string }>()
    for (const c of checked) {
      const signer = signerOf(c)
      if (signer !== null && !keys.has(signer)) keys.set(signer, await who(signer))
    }
    return checked.map((c, i) => {
      const s = sigs[i]
      const k = s ? keys.get(signerOf(c)!)! : null
      return { ...c, factIdBytes: ids[i]!, signature: s ? toHex(s) : null, publicKey: k ? k.publicKey : null, signerDid: k ? k.did : null }
    })
  }

  /** The draft of a signed write, stamped now: sequence order is the order of `#stamp` calls. */
  #stamp(w: Signed, vector: Float32Array | null): Draft {
    const { metadata, tenant } = w
    const { stamp, hlc } = this.#log.tickDecoded()
    const writtenAt = hlcMicros(hlc)
    const validFrom = this.#caps.has(Capability.BI_TEMPORAL) && w.validFromInput !== null ? w.validFromInput : writtenAt
    const { subject, predicate, object } = metadata as { subject?: string; predicate?: string; object?: FactObject }
    const structuredId =
      typeof subject === 'string' && typeof predicate === 'string' && object !== undefined
        ? toHex(structuredFactId({ tenantId: tenant, subject, predicate, object, validFrom: formatTime(validFrom) }))
        : null
    const writtenBy =
      (typeof metadata['session_id'] === 'string' ? (metadata['session_id'] as string) : null) ??
      (typeof metadata['agent_id'] === 'string' ? (metadata['agent_id'] as string) : null) ??
      // Who signed, as memweave names agents everywhere else: a did:key (it encodes the public key).
      w.signerDid
    return {
      explicitValidFrom: w.validFromInput !== null,
      tenant,
      hlc: stamp,
      author: this.#identity?.did ?? null,
      vector,
      body: {
        content: w.text,
        factId: toHex(w.factIdBytes),
        structuredId,
        metadata,
        validFrom,
        writtenAt,
        supersedes: w.supersedes,
        source: { writtenBy, signature: w.signature, publicKey: w.publicKey },
      },
    }
  }

  /** The record a draft becomes, or the ref of the current version that answers it (an idempotent re-assertion). */
  #sealFact(draft: Draft): StoredRecord | FactRef {
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
    return this.#log.seal('fact', body, { tenant: draft.tenant, hlc: draft.hlc, author: draft.author })
  }

  /**
   * Drafts into the batch, in order. Records go to storage and the derived state together, a run
   * at a time: a draft whose fact id or superseded ref the run touches (a version of the run, or
   * one the run supersedes) waits until the run is delivered, so each draft sees every one before
   * it, as separate writes would.
   */
  async #putFacts(w: LogWriter, drafts: readonly Draft[]): Promise<FactRef[]> {
    const refs: FactRef[] = []
    let run: StoredRecord[] = []
    let vectors: VectorRow[] = []
    const inRun = new Set<string>()
    const deliver = async (): Promise<void> => {
      if (vectors.length) await w.tx.put('vectors', vectors)
      await w.append(run)
      run = []
      vectors = []
      inRun.clear()
    }
    for (const draft of drafts) {
      if (inRun.has(draft.body.factId) || (draft.body.supersedes !== null && inRun.has(draft.body.supersedes))) await deliver()
      const sealed = this.#sealFact(draft)
      if (typeof sealed === 'string') {
        refs.push(sealed)
        continue
      }
      if (draft.vector && this.#embedder) {
        vectors.push({ ref: sealed.id, embedder: this.#embedder.id, vec: draft.vector })
        this.#vectors.set(sealed.id, draft.vector)
      }
      run.push(sealed)
      inRun.add(sealed.id)
      inRun.add(draft.body.factId)
      // A version it supersedes stops being a head on delivery: a later re-assertion of its text must see that.
      const old = (sealed.body as FactBody).supersedes
      if (old !== null) inRun.add(this.#state.versions.get(old)!.body.factId)
      refs.push(sealed.id as FactRef)
    }
    if (run.length) await deliver()
    return refs
  }

  async #deleteFact(w: LogWriter, ref: string, author: string | null, hlc: string): Promise<boolean> {
    const v = this.#state.versions.get(ref)
    if (!v) return false
    const body: TombstoneBody = { target: ref, supersedes: this.#state.predecessor(v) }
    // The judge's verdicts on this fact's pairs name its content by hash: they go with it (read
    // before the tombstone takes the fact's pairs away).
    const judged = this.#judge && this.#freeText ? this.#judge.drop([...this.#freeText.partners(ref, 0)].map(([o]) => [v.body.content, this.#state.versions.get(o)?.body.content ?? ''] as const)) : []
    // The tombstone first: it removes the version with its chain links; the hard delete leaves no byte of it.
    await w.append([this.#log.seal('tombstone', body, { tenant: v.tenant, hlc, author })])
    await w.remove([ref])
    await w.tx.delete('vectors', [ref])
    if (judged.length) await w.tx.delete('meta', judged)
    // The tenant's lexical snapshot holds the stems of the deleted content: it goes in the same
    // transaction (the next close or open writes a fresh one).
    await this.#lexicalRows.remove(w.tx, [this.#lexicalRows.key(tenantKey(v.tenant))])
    return true
  }

  write(content: string, options: WriteOptions = {}): Promise<FactRef> {
    return this.#log.track(
      async () => {
        await this.#register()
        const draft = await this.#prepare(content, options, null)
        return this.#submit({ type: 'put', draft }) as Promise<FactRef>
      },
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
    return this.#log.track(
      async () => {
        if (!this.#caps.has(Capability.SUPERSESSION_CHAIN)) throw capabilityNotSupported(Capability.SUPERSESSION_CHAIN, 'supersede')
        await this.#register()
        // A non-string ref cannot be one of ours: GMP §3.1 makes that a fresh write.
        const draft = await this.#prepare(content, options, typeof oldRef === 'string' ? oldRef : null)
        return this.#submit({ type: 'put', draft }) as Promise<FactRef>
      },
    )
  }

  delete(ref: FactRef | string): Promise<boolean> {
    return this.#log.track(async () => {
      if (!this.#caps.has(Capability.HARD_DELETE)) throw capabilityNotSupported(Capability.HARD_DELETE, 'delete')
      await this.#register()
      if (typeof ref !== 'string') return false
      return this.#submit({ type: 'delete', ref, author: this.#identity?.did ?? null, hlc: this.#log.tick() }) as Promise<boolean>
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
      const drafts = await this.#drafts(writes.map((x) => this.#check(x.content, x.options ?? {}, typeof x.supersedes === 'string' ? x.supersedes : null)))
      return this.#submit({ type: 'putMany', drafts }) as Promise<FactRef[]>
    })
  }

  async #applyMutation(w: LogWriter, m: FactMutation): Promise<FactRef | FactRef[] | boolean> {
    if (m.type === 'put') return (await this.#putFacts(w, [m.draft]))[0]!
    if (m.type === 'putMany') return this.#putFacts(w, m.drafts)
    return this.#deleteFact(w, m.ref, m.author, m.hlc)
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

  async retrieve(query: string, options: RetrieveOptions = {}): Promise<Memory[]> {
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
    return pack(ordered, budget, topK).map((v) => this.#toMemory(v))
  }

  async audit(): Promise<Memory[]> {
    if (!this.#caps.has(Capability.AUDIT)) throw capabilityNotSupported(Capability.AUDIT, 'audit')
    await this.#readable()
    return this.#state.all().map((v) => this.#toMemory(v))
  }

  /** @internal See `FactLookup.versionsWhere`; the fields are what audit() would say of each version. */
  async versionsWhere(key: string, value: string | readonly string[]): Promise<FactEntry[]> {
    if (!this.#caps.has(Capability.AUDIT)) throw capabilityNotSupported(Capability.AUDIT, 'versionsWhere')
    await this.#ready()
    const values = typeof value === 'string' ? [value] : [...new Set(value)]
    return values.flatMap((v) => this.#state.withMetadata(key, v)).sort(compareVersions).map((v) => this.#entry(v))
  }

  async get(ref: FactRef | string): Promise<Memory | null> {
    await this.#readable()
    const v = typeof ref === 'string' ? this.#state.versions.get(ref) : undefined
    return v ? this.#toMemory(v) : null
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
    return judge ? this.#judged(judge, list, options.waitForJudge === true, listAt) : list
  }

  /**
   * The free-text pairs of a conflict list as the judge sees them: its contradictions listed with
   * its word, the pairs it cleared dropped, the others listed on the model-free verdict (pending or
   * unjudged). The newer fact of a pair is the write it counts against (`maxPairsPerWrite`).
   */
  async #judged(judge: JudgeStage, list: FactConflict[], wait: boolean, listAt: number): Promise<FactConflict[]> {
    // The surest pairs first: they take a write's share of judge calls before the band below the threshold.
    const free = list.filter((c) => c.kind === 'free-text').sort((x, y) => (y.confidence ?? 1) - (x.confidence ?? 1))
    if (free.length === 0) return list
    const text = (ref: string): string => this.#state.versions.get(ref)?.body.content ?? ''
    const candidates = free.map((c) => ({ a: text(c.refs[0]), b: text(c.refs[1]), writer: c.refs[1] }))
    let marks = await judge.review(candidates)
    if (wait) {
      await judge.idle()
      marks = judge.marks(candidates)
    }
    const markOf = new Map(free.map((c, i) => [c, marks[i]!] as const))
    const out: FactConflict[] = []
    for (const c of list) {
      const mark = markOf.get(c)
      if (mark === undefined) {
        out.push(c)
        continue
      }
      const reason = judgedReason(c.reason, mark)
      if (reason === null) continue
      // Below the listing threshold only the judge's contradiction lists a pair.
      if ((c.confidence ?? 1) < listAt && mark.status !== 'judged') continue
      out.push({ ...c, reason, judge: mark })
    }
    return out
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
      writtenAt: formatStoredTime(v.body.writtenAt),
      metadata: structuredClone(v.body.metadata),
      validFrom: bi ? formatStoredTime(v.body.validFrom) : null,
      validUntil: until === null ? null : formatStoredTime(until),
      tenantId: v.tenant,
      supersededBy: caps.has(Capability.SUPERSESSION_CHAIN) ? this.#state.supersededBy(v.ref) : null,
      source: caps.has(Capability.PROVENANCE)
        ? {
            writeId: v.ref,
            writtenAt: formatStoredTime(v.body.writtenAt),
            writtenBy: src.writtenBy,
            signature: src.signature ? hexBytes(src.signature) : null,
            publicKey: src.publicKey ? hexBytes(src.publicKey) : null,
          }
        : null,
      factId: v.body.factId,
      structuredId: v.body.structuredId,
      sequence: v.hlc,
      conflictsWith: caps.has(Capability.CONFLICT_DETECTION) ? this.#conflictsWith(v) : [],
    }
  }

  /** A fact's conflicts, without the free-text partners the judge has already cleared (no judge call here). */
  #conflictsWith(v: Version): FactRef[] {
    const refs = this.#state.conflictsWith(v)
    const judge = this.#judge
    if (!judge || !this.#freeText) return refs
    const partners = new Map(this.#freeText.partners(v.ref))
    return refs.filter((ref) => {
      const other = this.#state.versions.get(ref)
      if (!other || !partners.has(ref) || (v.slot !== null && v.slot === other.slot)) return true
      const verdict = judge.known(v.body.content, other.body.content)
      return !verdict || verdict.label === 'contradiction'
    })
  }
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}
