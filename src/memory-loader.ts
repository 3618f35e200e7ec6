import { fastHashReady } from './core/blake2b.js'
import { ErrorCode, MemweaveError, invalidArgument } from './core/errors.js'
import type { Identity } from './core/identity.js'
import { SignatureCache } from './core/signature-cache.js'
import { GmpFactStore } from './facts/store.js'
import type { CreateMemoryOptions } from './memory-options.js'
import { MEMORY_MODULES, type MemoryModule } from './memory-modules.js'
import type { PoolGate } from './records/pool-gate.js'
import { RecordLog } from './records/log.js'
import type { SmpArtifactStore } from './artifacts/store.js'
import type { PoolStore } from './pools/store.js'
import type { SmallStore } from './small/store-api.js'
import { indexedDbStorage } from './storage/dexie-adapter.js'
import type { StoragePort } from './storage/port.js'
import type { SyncStore } from './sync/store.js'
import type { WorkingStore } from './working/store.js'
import type { JudgeStage } from './conflict-judge/stage.js'

/** The module objects behind a Memory, by property name. */
export interface ModuleStores {
  readonly facts: GmpFactStore
  readonly pools: PoolStore
  readonly working: WorkingStore
  readonly small: SmallStore
  readonly artifacts: SmpArtifactStore
  readonly sync: SyncStore
}

/** Closed in this order: sync stops first (links, last persisted updates); then the modules, facts, and the record log with the storage. */
const CLOSE_ORDER = ['sync', 'working', 'artifacts', 'small', 'pools'] as const

/**
 * The modules of one Memory over one storage, each loaded on first use. Every module but facts
 * sits behind a dynamic import, so a bundler splits it into its own chunk: the worker of a page
 * that only writes and retrieves facts never downloads pools, sync, SMALL, artifacts (yaml, ajv)
 * or the working memory. Dependencies between modules load what they need: sync loads pools; a
 * pooled write of another module asks the pool gate, which loads pools at that moment only.
 */
export class MemoryModules {
  readonly facts: GmpFactStore
  readonly identity: Identity | null
  /** The one engine under every module: catch-up, the tick's batch, the clock, trim, sealing. */
  readonly log: RecordLog
  /** The second-stage conflict judge facts and working memory share (the `conflictJudge` option), or null. */
  readonly judge: JudgeStage | null
  readonly #options: CreateMemoryOptions
  /** One set of signature verdicts for pools and sync: a synced record is verified once. */
  readonly #signatures = new SignatureCache()
  readonly #loading = new Map<MemoryModule, Promise<unknown>>()
  #closing: Promise<void> | null = null

  private constructor(log: RecordLog, facts: GmpFactStore, judge: JudgeStage | null, options: CreateMemoryOptions) {
    this.log = log
    this.facts = facts
    this.judge = judge
    log.gate = this.#gate
    // A leader tab asked to commit a write of a module it has not loaded yet loads it first.
    log.resolveNamed = async (name) => {
      const module = name.split('.')[0] as MemoryModule
      if ((MEMORY_MODULES as readonly string[]).includes(module)) await this.load(module)
    }
    this.identity = options.identity ?? null
    this.#options = options
  }

  /** Opens the storage through the record log and loads the facts' state, so errors surface here. */
  static async open(port: StoragePort, options: CreateMemoryOptions): Promise<MemoryModules> {
    const log = new RecordLog(port, { identity: options.identity ?? null, now: options.now })
    // Loaded only when asked for: a memory without a judge bundles none of it.
    const judge = options.conflictJudge ? await openJudge(log, options) : null
    const facts = new GmpFactStore(log, {
      capabilities: options.capabilities,
      identity: options.identity ?? null,
      multiValuedPredicates: options.facts?.multiValuedPredicates,
      embedder: options.facts?.embedder ?? null,
      ranking: options.facts?.ranking,
      ...(options.facts?.freeTextConflicts === false ? { freeTextConflicts: false } : {}),
      judge,
      now: options.now,
    })
    try {
      await facts.refresh()
    } catch (err) {
      await log.close().catch(() => undefined)
      throw err
    }
    return new MemoryModules(log, facts, judge, options)
  }

  /** Whether a module's code has been asked for (tests, and close()). */
  isLoaded(name: MemoryModule): boolean {
    return name === 'facts' || this.#loading.has(name)
  }

  /**
   * The module, loading its code the first time.
   * @throws MemweaveError CLOSED after close().
   */
  load<K extends MemoryModule>(name: K): Promise<ModuleStores[K]> {
    if (this.#closing) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory is closed'))
    if (name === 'facts') return Promise.resolve(this.facts as ModuleStores[K])
    let pending = this.#loading.get(name)
    if (!pending) {
      pending = this.#build(name)
      this.#loading.set(name, pending)
      // A failed load (a chunk that did not download) may be retried by the next call.
      pending.catch(() => this.#loading.delete(name))
    }
    return pending as Promise<ModuleStores[K]>
  }

  /** What working memory, SMALL and artifacts ask before a pooled write; pools load only when one happens. */
  readonly #gate: PoolGate = {
    writable: async (pool, author) => (await this.load('pools')).gate.writable(pool, author),
  }

  async #build(name: Exclude<MemoryModule, 'facts'>): Promise<unknown> {
    const o = this.#options
    const identity = o.identity ?? null
    switch (name) {
      case 'pools': {
        // The kinds other modules put into pools: a revocation's cutoff lists the revoked member's records of those too.
        const [{ PoolStore }, { CONTENT_KINDS }] = await Promise.all([import('./pools/store.js'), import('./sync/content.js')])
        return new PoolStore(this.log, { facts: this.facts, now: o.now, signatures: this.#signatures, sharedKinds: CONTENT_KINDS })
      }
      case 'working': {
        const { WorkingStore } = await import('./working/store.js')
        return new WorkingStore(this.log, { embedder: o.working?.embedder ?? null, judge: this.judge })
      }
      case 'small': {
        const { createSmallStore } = await import('./small/store.js')
        return createSmallStore(this.log, { identity, humans: o.small?.humans, strict: o.small?.strict, now: o.now })
      }
      case 'artifacts': {
        const { SmpArtifactStore } = await import('./artifacts/store.js')
        return new SmpArtifactStore(this.log, { identity })
      }
      case 'sync': {
        const [{ SyncStore }, pools] = await Promise.all([import('./sync/store.js'), this.load('pools')])
        return new SyncStore(this.log, {
          onApplied: (pool, ids, options) => pools._synced(pool, ids, options),
          beforeApply: () => pools._beforeSynced(),
          WebSocketPolyfill: o.sync?.WebSocketPolyfill,
          compactEvery: o.sync?.compactEvery,
          clientId: o.sync?.clientId,
          checkpointEvery: o.sync?.checkpointEvery,
          backgroundFrom: o.sync?.backgroundFrom,
          trustCheckpoints: o.sync?.trustCheckpoints,
          signatures: this.#signatures,
        })
      }
    }
  }

  /** Closes every loaded module, then the fact store, then the record log and its storage. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      // The judge stops first: calls in flight are aborted, verdicts already answered are written.
      await this.judge?.close()
      for (const name of CLOSE_ORDER) {
        const pending = this.#loading.get(name)
        if (!pending) continue
        const module = await pending.catch(() => null)
        await (module as { close(): Promise<void> } | null)?.close()
      }
      await this.facts.close()
      await this.log.close()
    })()
    return this.#closing
  }
}

async function openJudge(log: RecordLog, options: CreateMemoryOptions): Promise<JudgeStage> {
  const [{ JudgeStage }, { logVerdictStorage }] = await Promise.all([import('./conflict-judge/stage.js'), import('./conflict-judge/verdict-rows.js')])
  return new JudgeStage(options.conflictJudge!, logVerdictStorage(log), options.now)
}

/**
 * Opens storage and the fact store, and returns the loader of the other modules: the worker runtime
 * loads a module's code on its first call, so a page that only uses facts never downloads SMALL,
 * ajv or yaml. createMemory() loads them all.
 */
export async function openMemoryModules(options: CreateMemoryOptions = {}): Promise<MemoryModules> {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
  // Loading replays records and the first writes hash: have the WebAssembly hasher in place first.
  await fastHashReady()
  return MemoryModules.open(await pickStorage(options), options)
}

async function pickStorage(options: CreateMemoryOptions): Promise<StoragePort> {
  const storage = options.storage ?? (options.indexedDB || typeof indexedDB !== 'undefined' ? 'indexeddb' : 'memory')
  if (typeof storage === 'object' && storage !== null) return storage
  // Loaded on use: a browser's worker stores in IndexedDB, and the in-memory adapter is 3 kB gz it
  // would otherwise download for nothing.
  if (storage === 'memory') return (await import('./storage/memory-adapter.js')).memoryStorage()
  if (storage === 'indexeddb') {
    const factory = options.indexedDB ?? (typeof indexedDB === 'undefined' ? undefined : indexedDB)
    if (!factory) {
      throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'storage: "indexeddb" needs IndexedDB; pass options.indexedDB (e.g. fake-indexeddb) in Node', { field: 'storage' })
    }
    return indexedDbStorage({
      name: options.name ?? 'memweave',
      indexedDB: factory,
      IDBKeyRange: options.IDBKeyRange ?? globalThis.IDBKeyRange,
    })
  }
  // 'file' is what people try in Node (issue 29); the file adapter lives in the Node entry, which this
  // browser-safe entry cannot import, so the refusal says where it is.
  throw invalidArgument('storage', `must be "memory", "indexeddb" or a StoragePort, got ${JSON.stringify(storage)} (files on disk in Node: storage: fileStorage({ dir }) from "memweave/node")`)
}
