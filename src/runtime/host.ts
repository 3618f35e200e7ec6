import * as Comlink from 'comlink'
import { identityFromKeys, type IdentityKeys } from '../core/identity.js'
import type { Capability } from '../facts/capabilities.js'
import { openMemoryModules, type MemoryModules } from '../memory-loader.js'
import { MEMORY_MODULES, type MemoryModule } from '../memory-modules.js'
import { indexedDbStorage } from '../storage/dexie-adapter.js'
import type { TabElection } from './election.js'
import type { TabSync } from './tab-sync.js'
import { installErrorTransfer } from './error-transfer.js'
import { CALL_PROTOCOL, callTarget, type CallTarget } from './remote-call.js'
import { MODULE_SURFACES } from './module-surfaces.js'
import type { ConflictJudge, ConflictJudgeOptions, JudgeVerdict } from '../conflict-judge/types.js'
import type { BackupPages, BackupSink, RemoteExportOptions, RemoteImportOptions } from './backup-protocol.js'

/** What a page asks its worker to open. Plain data: it crosses postMessage. */
export interface WorkerOpenOptions {
  readonly name: string
  readonly identity: IdentityKeys | null
  readonly capabilities?: readonly Capability[]
  readonly multiValuedPredicates?: readonly string[]
  /** createMemory's `facts.freeTextConflicts`; absent: the default (on). */
  readonly freeTextConflicts?: boolean
  readonly small?: { readonly humans?: readonly string[]; readonly strict?: boolean }
  /** Dedicated-worker fallback: elect one worker of the origin to commit fact writes. */
  readonly election: boolean
  /** The page's conflict judge, without the judge: the function comes as open()'s second argument (a comlink proxy). */
  readonly conflictJudge?: JudgeSettings
}

/** The `conflictJudge` option as data: its judge's id and the bounds. */
export type JudgeSettings = Omit<ConflictJudgeOptions, 'judge'> & { readonly id: string }

/** A page's judge, called from the worker through a comlink proxy. */
export type PageJudge = (pairs: ReadonlyArray<readonly [string, string]>) => Promise<JudgeVerdict[]>

export interface HostedInfo {
  readonly did: string | null
  readonly publicKey: Uint8Array | null
  readonly leader: boolean | null
}

/** The worker-side object a page holds through comlink. */
export interface HostedMemory {
  /**
   * One module of the Memory (facts, pools, working, small, artifacts, sync), callable method by
   * method, its public API only (surfaces/); its code loads on first ask.
   */
  module(name: MemoryModule): Promise<CallTarget>
  info(): HostedInfo
  /** A backup of the Memory, read a page at a time (backup-protocol.ts). */
  exportBackup(options?: RemoteExportOptions): Promise<BackupPages & Comlink.ProxyMarked>
  /** An import into the Memory, fed chunk by chunk (backup-protocol.ts). */
  importBackup(options?: RemoteImportOptions): Promise<BackupSink & Comlink.ProxyMarked>
  close(): Promise<void>
}

export interface MemoryHost {
  /**
   * Answers once the worker's script and its imports have loaded (openMemory's WORKER_FAILED
   * check), with the version of the call protocol it speaks (remote-call.ts `CALL_PROTOCOL`; a
   * worker older than `callMany` answered `true`).
   */
  ping(): number | true
  /** `judge`: the page's conflict judge (with `options.conflictJudge`), as a comlink proxy. */
  open(options: WorkerOpenOptions, judge?: PageJudge): Promise<HostedMemory>
}

interface Entry {
  readonly memory: MemoryModules
  readonly election: TabElection | null
  readonly sync: TabSync | null
  readonly targets: Map<MemoryModule, Promise<CallTarget>>
  /** The judges of the pages holding this memory, newest last: the worker asks the newest. */
  readonly judges: PageJudge[]
  users: number
}

/**
 * The judge the worker's memory holds: it asks the newest page that gave one (in a SharedWorker,
 * the tabs that opened this memory with a judge); with none left, a call fails and the pairs stay
 * pending (src/conflict-judge/stage.ts asks again at a later read).
 */
function relayJudge(id: string, judges: readonly PageJudge[]): ConflictJudge {
  return {
    id,
    judge: (pairs) => {
      const page = judges.at(-1)
      if (!page) return Promise.reject(new Error('no open page has the conflict judge'))
      return page(pairs)
    },
  }
}

/**
 * The worker's side of the browser runtime: one Memory per (database, identity, options), built
 * by createMemory() on Dexie and shared by every connection that asks for the same one (all the
 * tabs of an origin, in a SharedWorker). Every module is reachable through the same generic call
 * path, so a module added to Memory needs no mirror here, only its allow-list in surfaces/.
 */
export function createMemoryHost(): MemoryHost {
  installErrorTransfer()
  const entries = new Map<string, Promise<Entry>>()

  async function build(o: WorkerOpenOptions): Promise<Entry> {
    // Fetched while the memory opens; a rejection is heard where it is awaited.
    const tabs = o.election ? import('./tab-fallback.js') : null
    tabs?.catch(() => undefined)
    const identity = o.identity ? await identityFromKeys(o.identity) : null
    const judges: PageJudge[] = []
    const { id: judgeId, ...bounds } = o.conflictJudge ?? { id: '' }
    const memory = await openMemoryModules({
      storage: indexedDbStorage({ name: o.name }),
      identity,
      capabilities: o.capabilities,
      facts: { multiValuedPredicates: o.multiValuedPredicates, ...(o.freeTextConflicts === undefined ? {} : { freeTextConflicts: o.freeTextConflicts }) },
      small: o.small,
      ...(o.conflictJudge ? { conflictJudge: { ...bounds, judge: relayJudge(judgeId, judges) } } : {}),
    })
    // In the dedicated fallback one elected worker commits the record log's forwardable writes for every tab.
    const fallback = tabs && (await tabs.catch(async (err: unknown) => {
      // Its code did not load: the memory opened for it is closed, not left without a handle.
      await memory.close()
      throw err
    }))
    const election = fallback ? new fallback.TabElection(o.name, memory.log) : null
    // One replica per origin: in the fallback only the leader runs sync; the others ask it.
    const sync = fallback && election ? new fallback.TabSync(() => memory.load('sync'), election) : null
    return { memory, election, sync, targets: new Map(), judges, users: 0 }
  }

  /** A module's call target; its code is loaded by the first page that calls it. */
  function target(entry: Entry, name: MemoryModule): Promise<CallTarget> {
    let pending = entry.targets.get(name)
    if (!pending) {
      const module: Promise<object> = name === 'sync' && entry.sync ? Promise.resolve(entry.sync) : entry.memory.load(name)
      const made = Promise.all([module, MODULE_SURFACES[name]()]).then(([m, surface]) => callTarget(m, surface))
      made.catch(() => entry.targets.delete(name))
      entry.targets.set(name, made)
      pending = made
    }
    return pending
  }

  return {
    ping: () => CALL_PROTOCOL,
    async open(o: WorkerOpenOptions, judge?: PageJudge): Promise<HostedMemory> {
      const did = o.identity ? (await identityFromKeys(o.identity)).did : null
      const key = JSON.stringify([o.name, did, o.capabilities ?? null, o.multiValuedPredicates ?? null, o.freeTextConflicts ?? null, o.small ?? null, o.election, o.conflictJudge ?? null])
      let pending = entries.get(key)
      if (!pending) {
        pending = build(o)
        entries.set(key, pending)
        pending.catch(() => entries.delete(key))
      }
      const entry = await pending
      entry.users++
      if (judge && o.conflictJudge) entry.judges.push(judge)
      let closed = false
      return Comlink.proxy({
        module: (name: MemoryModule) => {
          if (!MEMORY_MODULES.includes(name)) return Promise.reject(new TypeError(`no module "${String(name)}"`))
          return target(entry, name)
        },
        info: () => ({
          did: entry.memory.identity?.did ?? null,
          publicKey: entry.memory.identity?.publicKey ?? null,
          leader: entry.election ? entry.election.isLeader : null,
        }),
        // The backup code loads on first use: a facts-only worker does not carry it.
        exportBackup: async (options: RemoteExportOptions = {}) => {
          const { exportPages } = await import('../backup/export.js')
          const pages = exportPages(entry.memory.log, entry.memory.identity, { includeIdentitySeed: options.includeIdentitySeed === true })
          return Comlink.proxy({ next: async () => ((await pages.next()).value as string[] | undefined) ?? null })
        },
        importBackup: async (options: RemoteImportOptions = {}) => {
          const { BackupImporter } = await import('../backup/import.js')
          const importer = new BackupImporter(entry.memory.log, options.batch === undefined ? {} : { batch: options.batch })
          return Comlink.proxy({ push: (chunk: string | Uint8Array) => importer.push(chunk), finish: () => importer.finish() })
        },
        async close() {
          if (closed) return
          closed = true
          if (judge) {
            const at = entry.judges.indexOf(judge)
            if (at >= 0) entry.judges.splice(at, 1)
            ;(judge as Partial<Comlink.Remote<PageJudge>>)[Comlink.releaseProxy]?.()
          }
          if (--entry.users > 0) return
          entries.delete(key)
          entry.election?.close()
          await entry.memory.close()
        },
      })
    },
  }
}
