import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, readdir, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { resolveCapabilities, type Capability } from '../facts/capabilities.js'
import type { FactStore } from '../facts/types.js'
import { createMemory, type Memory } from '../memory.js'
import { fileStorage } from '../storage/file-adapter.js'
import type { StoragePort } from '../storage/port.js'
import type { WireStoreInfo } from './protocol.js'

/**
 * The GMP server's stores, by id. Without a directory they live in memory for the server's
 * lifetime; with one, each lives in `<dir>/stores/<id>/` (its `store.json` records the declared
 * capabilities, the rows are a file storage) and is reopened on first use after a restart.
 * Node only.
 */

const STORE_ID = /^[0-9a-f]{32}$/

export interface StoreRegistryOptions {
  readonly dir: string | null
  readonly identity: Identity
  /** Replaces the default storage (memory, or a file storage under `dir`). */
  readonly createStorage?: ((storeId: string) => StoragePort) | undefined
}

interface StoreFile {
  readonly version: 1
  readonly capabilities: readonly Capability[]
  readonly created_at: string
}

export class StoreRegistry {
  readonly #options: StoreRegistryOptions
  readonly #stores = new Map<string, Promise<Memory>>()
  #closed = false

  constructor(options: StoreRegistryOptions) {
    this.#options = options
  }

  #storeDir(id: string): string | null {
    return this.#options.dir === null ? null : join(this.#options.dir, 'stores', id)
  }

  async #open(id: string, capabilities: readonly Capability[]): Promise<Memory> {
    const dir = this.#storeDir(id)
    const storage = this.#options.createStorage?.(id) ?? (dir === null ? 'memory' : fileStorage({ dir }))
    return createMemory({ storage, identity: this.#options.identity, capabilities })
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
    const opening = this.#open(id, capabilities)
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
        opening = this.#open(id, file.capabilities)
        this.#track(id, opening)
      }
    }
    return (await opening).facts
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
      const memory = await opening.catch(() => null)
      if (memory) out.set(id, { store_id: id, capabilities: [...(await memory.facts.capabilities())].sort(), created_at: null })
    }
    return [...out.values()].sort((a, b) => a.store_id.localeCompare(b.store_id))
  }

  #track(id: string, opening: Promise<Memory>): void {
    this.#stores.set(id, opening)
    // A store that failed to open is forgotten, so a later request can try again.
    opening.catch(() => {
      if (this.#stores.get(id) === opening) this.#stores.delete(id)
    })
  }

  /** Flushes and closes every open store. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    const all = [...this.#stores.values()]
    this.#stores.clear()
    // A store that never opened has nothing to close; its error went to the request that opened it.
    const results = await Promise.allSettled(all.map((p) => p.then((m) => m.close(), () => undefined)))
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed) throw failed.reason
  }

  #assertOpen(): void {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'the GMP server is shutting down')
  }
}

async function readStoreFile(path: string): Promise<StoreFile | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  const file = JSON.parse(text) as StoreFile
  if (file?.version !== 1 || !Array.isArray(file.capabilities)) {
    throw new MemweaveError(ErrorCode.STORAGE, `${path} is not a memweave store description`)
  }
  return { ...file, capabilities: [...resolveCapabilities(file.capabilities)].sort() }
}

async function writeFileDurably(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`
  const file = await open(tmp, 'w', 0o600)
  try {
    await file.writeFile(text, 'utf8')
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(tmp, path)
}
