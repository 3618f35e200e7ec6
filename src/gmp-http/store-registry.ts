import { randomBytes } from 'node:crypto'
import { mkdir, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import { formatTooNew, isTooNew } from '../core/format-version.js'
import type { Identity } from '../core/identity.js'
import type { ConflictJudgeOptions } from '../conflict-judge/types.js'
import { resolveCapabilities, type Capability } from '../facts/capabilities.js'
import type { FactStore, FactMemory as Fact } from '../facts/types.js'
import { createMemory, type Memory } from '../memory.js'
import { writeFileDurably } from '../node/durable-file.js'
import { fileStorage, type StorageBudget } from '../node/file-adapter.js'
import type { StoragePort } from '../storage/port.js'
import type { WireStoreInfo } from './protocol.js'
import { FactChecks } from './store-check.js'

/**
 * The GMP server's stores, by id. Without a directory they live in memory for the server's
 * lifetime; with one, each lives in `<dir>/stores/<id>/` (its `store.json` records the declared
 * capabilities, the rows are a file storage) and is reopened on first use after a restart.
 * A store's files are checked when it opens, each fact the first time it is served: a damaged
 * store is refused with DATA_DAMAGED (its files untouched) until `memweave gmp repair`, and
 * the others keep working. Node only.
 */

const STORE_ID = /^[0-9a-f]{32}$/

export interface StoreRegistryOptions {
  readonly dir: string | null
  readonly identity: Identity
  /** The most one file store may hold, in bytes of its rows' JSON (FileStorageOptions.maxBytes). */
  readonly maxStoreBytes?: number | undefined
  /** The most all open file stores may hold together (rows live in memory). Default 1 GiB. */
  readonly maxTotalStoreBytes?: number | undefined
  /** Replaces the default storage (memory, or a file storage under `dir`). */
  readonly createStorage?: ((storeId: string) => StoragePort) | undefined
  /** Each store's second-stage conflict judge (createMemory's `conflictJudge`). */
  readonly conflictJudge?: ConflictJudgeOptions | undefined
}

interface StoreFile {
  readonly version: 1
  readonly capabilities: readonly Capability[]
  readonly created_at: string
}

interface OpenStore {
  readonly memory: Memory
  /** The store as requests see it: every fact it serves is checked once (store-check.ts). */
  readonly facts: FactStore
  readonly checks: FactChecks | null
}

export class StoreRegistry {
  readonly #options: StoreRegistryOptions
  readonly #stores = new Map<string, Promise<OpenStore>>()
  readonly #budget: StorageBudget
  #closed = false

  constructor(options: StoreRegistryOptions) {
    this.#options = options
    this.#budget = { limit: options.maxTotalStoreBytes ?? 1024 * 1024 * 1024, used: 0 }
  }

  #storeDir(id: string): string | null {
    return this.#options.dir === null ? null : join(this.#options.dir, 'stores', id)
  }

  async #open(id: string, capabilities: readonly Capability[], existing: boolean): Promise<OpenStore> {
    const dir = this.#storeDir(id)
    const storage = this.#options.createStorage?.(id) ??
      (dir === null ? 'memory' : fileStorage({ dir, expectData: existing, maxBytes: this.#options.maxStoreBytes, budget: this.#budget }))
    if (storage !== 'memory') {
      try {
        await storage.open()
      } catch (err) {
        await storage.close().catch(() => undefined)
        throw this.#damaged(id, err)
      }
    }
    const judge = this.#options.conflictJudge
    const memory = await createMemory({ storage, identity: this.#options.identity, capabilities, ...(judge ? { conflictJudge: judge } : {}) })
    if (storage === 'memory') return { memory, facts: memory.facts, checks: null }
    const checks = new FactChecks(storage, `store ${id}`)
    return { memory, facts: checkedReads(memory.facts, checks, (err) => this.#damaged(id, err)), checks }
  }

  /** Names the store and the command that repairs it in a DATA_DAMAGED error. */
  #damaged(id: string, err: unknown): unknown {
    if (!isMemweaveError(err) || err.code !== ErrorCode.DATA_DAMAGED) return err
    const repair = this.#options.dir === null ? '' : ` Run: memweave gmp repair --dir ${this.#options.dir} --store ${id}`
    return new MemweaveError(ErrorCode.DATA_DAMAGED, `store ${id} is damaged: ${err.message}.${repair}`, { ...err.details, store: id }, { cause: err })
  }

  /**
   * Makes a fresh, empty store and returns its id (16 random bytes, hex).
   * @throws MemweaveError INVALID_ARGUMENT for unknown capability flags or a broken dependency.
   */
  async create(requested?: unknown): Promise<string> {
    this.#assertOpen()
    const capabilities = [...resolveCapabilities((requested ?? undefined) as readonly string[] | undefined)].sort()
    const id = randomBytes(16).toString('hex')
    const dir = this.#storeDir(id)
    if (dir !== null) {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const file: StoreFile = { version: 1, capabilities, created_at: new Date().toISOString() }
      await writeFileDurably(join(dir, 'store.json'), `${JSON.stringify(file, null, 2)}\n`)
    }
    const opening = this.#open(id, capabilities, false)
    this.#track(id, opening)
    await opening
    return id
  }

  /** The store with this id, reopened from disk when needed; undefined when there is none. */
  async get(id: string): Promise<FactStore | undefined> {
    this.#assertOpen()
    if (!STORE_ID.test(id)) return undefined
    let opening = this.#stores.get(id)
    if (!opening) {
      const dir = this.#storeDir(id)
      if (dir === null) return undefined
      const file = await readStoreFile(join(dir, 'store.json'))
      if (!file) return undefined
      // Another request may have started opening it while we read.
      opening = this.#stores.get(id)
      if (!opening) {
        opening = this.#open(id, file.capabilities, true)
        this.#track(id, opening)
      }
    }
    const open = await opening
    // A fact that failed its check refuses the whole store, as damaged files do.
    if (open.checks?.damage) throw this.#damaged(id, open.checks.damage)
    return open.facts
  }

  /** Every store: those on disk (with `dir`) and those open in memory, by id. */
  async list(): Promise<WireStoreInfo[]> {
    this.#assertOpen()
    const out = new Map<string, WireStoreInfo>()
    if (this.#options.dir !== null) {
      const root = join(this.#options.dir, 'stores')
      const ids = await readdir(root).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [] as string[]
        throw err
      })
      for (const id of ids.filter((x) => STORE_ID.test(x)).sort()) {
        const file = await readStoreFile(join(root, id, 'store.json')).catch(() => undefined)
        if (file) out.set(id, { store_id: id, capabilities: file.capabilities, created_at: file.created_at ?? null })
      }
    }
    for (const [id, opening] of this.#stores) {
      if (out.has(id)) continue
      const open = await opening.catch(() => null)
      if (open) out.set(id, { store_id: id, capabilities: [...(await open.memory.facts.capabilities())].sort(), created_at: null })
    }
    return [...out.values()].sort((a, b) => a.store_id.localeCompare(b.store_id))
  }

  #track(id: string, opening: Promise<OpenStore>): void {
    this.#stores.set(id, opening)
    // A store that failed to open is forgotten, so a later request can try again; except a
    // damaged one: only a repair (which needs the server stopped) changes its verdict, and
    // re-reading a large damaged store on every request would cost a full load each time.
    opening.catch((err: unknown) => {
      if (isMemweaveError(err) && err.code === ErrorCode.DATA_DAMAGED) return
      if (this.#stores.get(id) === opening) this.#stores.delete(id)
    })
  }

  /** Flushes and closes every open store. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    const all = [...this.#stores.values()]
    this.#stores.clear()
    // A store that never opened has nothing to close; its error went to the request that opened it.
    const results = await Promise.allSettled(all.map((p) => p.then((s) => s.memory.close(), () => undefined)))
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
  }

  #assertOpen(): void {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'the GMP server is shutting down')
  }
}

/** `facts` whose retrieve() and audit() check what they return before it is served. */
function checkedReads(facts: FactStore, checks: FactChecks, wrap: (err: unknown) => unknown): FactStore {
  const served = async (memories: Fact[]): Promise<Fact[]> => {
    try {
      await checks.assert(memories.map((m) => m.ref))
    } catch (err) {
      throw wrap(err)
    }
    return memories
  }
  return new Proxy(facts, {
    get(target, prop) {
      if (prop === 'retrieve') return async (...args: Parameters<FactStore['retrieve']>) => served(await target.retrieve(...args))
      if (prop === 'audit') return async () => served(await target.audit())
      const value = Reflect.get(target, prop, target) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

async function readStoreFile(path: string): Promise<StoreFile | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  let file: StoreFile
  try {
    file = JSON.parse(text) as StoreFile
  } catch {
    throw new MemweaveError(ErrorCode.DATA_DAMAGED, `${path} is not valid JSON`, { problems: [{ file: 'store.json', reason: 'not JSON' }] })
  }
  const found = (file as { version?: unknown } | null)?.version
  if (isTooNew('gmpStore', found)) throw formatTooNew('gmpStore', found, path, typeof (file as { writtenBy?: unknown }).writtenBy === 'string' ? (file as unknown as { writtenBy: string }).writtenBy : undefined)
  if (file?.version !== 1 || !Array.isArray(file.capabilities)) {
    throw new MemweaveError(ErrorCode.DATA_DAMAGED, `${path} is not a memweave store description`, { problems: [{ file: 'store.json', reason: 'not a store description' }] })
  }
  return { ...file, capabilities: [...resolveCapabilities(file.capabilities)].sort() }
}
