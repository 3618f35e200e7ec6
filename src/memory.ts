import type { Identity } from './core/identity.js'
import { MEMORY_MODULES } from './memory-modules.js'
import { openMemoryModules, type MemoryModules } from './memory-loader.js'
import type { CreateMemoryOptions } from './memory-options.js'
export type { CreateMemoryOptions } from './memory-options.js'
export { MEMORY_MODULES, type MemoryModule } from './memory-modules.js'
import type { FactStore } from './facts/types.js'
import type { Pools } from './pools/types.js'
import type { SmallStore } from './small/store-api.js'
import type { WorkingMemory } from './working/types.js'
import type { ArtifactStore } from './artifacts/types.js'
import type { Sync } from './sync/types.js'
import type { BackupSource, BackupExportOptions, BackupImportOptions, BackupImportReport } from './backup/index.js'

/** An agent's memory: one object composing every protocol module. */
export interface Memory {
  /** GMP facts: write, supersede, retrieve, delete, audit, conflicts. */
  readonly facts: FactStore
  /** LCS-004 memory pools: create, share, revoke, write, query, merge, forget, conflicts, import/export. */
  readonly pools: Pools
  /** FR-001 shared working memory: `await mem.working.open(taskId, config)` returns one task's pool. */
  readonly working: WorkingMemory
  /** SMALL project state: the five `.small/` documents, validated, append-only progress, handoff with replayId. */
  readonly small: SmallStore
  /** SMP knowledge artifacts: create, commit, read, list, search, merge, log; versions kept, forks flagged. */
  readonly artifacts: ArtifactStore
  /** Replication of pools across tabs and devices: one Y.Doc per pool, materialized, links to relays. */
  readonly sync: Sync
  readonly identity: Identity | null
  /**
   * A backup of everything this memory holds (facts, pools with their ACL and key records,
   * artifacts, SMALL documents, working memory) as JSON lines, each string one line ending in
   * "\n": a header with the format and version, the signed records, an end line
   * (docs/upgrading.md). Hard-deleted memories are in no line. Never a private key unless
   * `includeIdentitySeed`.
   * @throws MemweaveError CAPABILITY_NOT_SUPPORTED for `includeIdentitySeed` without an exportable key.
   * @example
   * for await (const line of mem.export()) file.write(line)
   */
  export(options?: BackupExportOptions): AsyncIterable<string>
  /**
   * Restores a backup made by `export()` (here or elsewhere): every record's id and signature is
   * verified, records already here are skipped (importing twice changes nothing), a newer state is
   * never replaced by an older one, and what was refused is reported with its line and why.
   * @throws MemweaveError FORMAT_TOO_NEW for a backup a newer memweave wrote, INVALID_ARGUMENT for
   *   one that is not a memweave backup (nothing is written in either case).
   * @example
   * const report = await mem.import(createReadStream('backup.jsonl'))
   */
  import(lines: BackupSource, options?: BackupImportOptions): Promise<BackupImportReport>
  /** Commits pending writes and closes storage. Idempotent. */
  close(): Promise<void>
}

/**
 * Creates an agent memory in this thread, on IndexedDB (browser, worker) or in memory (Node, edge),
 * and loads its state.
 *
 * @throws MemweaveError INVALID_ARGUMENT for bad options; STORAGE / QUOTA_EXCEEDED when storage fails to open.
 * @example
 * const mem = await createMemory({ storage: 'memory' })
 * const ref = await mem.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
 * const hits = await mem.facts.retrieve('where does Aria live?', { budgetTokens: 200 })
 */
export async function createMemory(options: CreateMemoryOptions = {}): Promise<Memory> {
  const modules = await openMemoryModules(options)
  try {
    // In this thread every module is loaded at once: a caller of createMemory() holds them all.
    for (const name of MEMORY_MODULES) await modules.load(name)
  } catch (err) {
    await modules.close().catch(() => undefined)
    throw err
  }
  return new LoadedMemory(modules, await modules.load('pools'), await modules.load('working'), await modules.load('small'), await modules.load('artifacts'), await modules.load('sync'))
}

class LoadedMemory implements Memory {
  readonly facts: FactStore
  readonly identity: Identity | null
  readonly #modules: MemoryModules

  constructor(
    modules: MemoryModules,
    readonly pools: Pools,
    readonly working: WorkingMemory,
    readonly small: SmallStore,
    readonly artifacts: ArtifactStore,
    readonly sync: Sync,
  ) {
    this.#modules = modules
    this.facts = modules.facts
    this.identity = modules.identity
  }

  // The backup code loads on first use: a facts-only worker does not carry it (test/package/bundle-size.test.ts).
  async *export(options?: BackupExportOptions): AsyncGenerator<string> {
    const { exportLines } = await import('./backup/index.js')
    yield* exportLines(this.#modules.log, this.identity, options)
  }

  async import(lines: BackupSource, options?: BackupImportOptions): Promise<BackupImportReport> {
    const { importLines } = await import('./backup/index.js')
    return importLines(this.#modules.log, lines, options)
  }

  close(): Promise<void> {
    return this.#modules.close()
  }
}
