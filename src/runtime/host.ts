import * as Comlink from 'comlink'
import { identityFromKeys, type IdentityKeys } from '../core/identity.js'
import type { Capability } from '../facts/capabilities.js'
import { GmpFactStore } from '../facts/store.js'
import type { FactStore, Memory as FactMemory, RetrieveOptions } from '../facts/types.js'
import { PoolStore } from '../pools/store.js'
import { artifactStoreMethods } from '../artifacts/remote.js'
import { SmpArtifactStore } from '../artifacts/store.js'
import type { ArtifactStore } from '../artifacts/types.js'
import type { Pools } from '../pools/types.js'
import { indexedDbStorage } from '../storage/dexie-adapter.js'
import { TabElection } from './election.js'
import { installErrorTransfer } from './error-transfer.js'

/** What a page asks its worker to open. Plain data: it crosses postMessage. */
export interface WorkerOpenOptions {
  readonly name: string
  readonly identity: IdentityKeys | null
  readonly capabilities?: readonly Capability[]
  readonly multiValuedPredicates?: readonly string[]
  /** Dedicated-worker fallback: elect one worker of the origin to commit writes. */
  readonly election: boolean
}

export interface HostedInfo {
  readonly did: string | null
  readonly publicKey: Uint8Array | null
  readonly leader: boolean | null
}

/** The worker-side object a page holds through comlink. */
export interface HostedMemory {
  readonly facts: FactStore
  readonly pools: Pools
  readonly artifacts: ArtifactStore
  info(): HostedInfo
  close(): Promise<void>
}

export interface MemoryHost {
  open(options: WorkerOpenOptions): Promise<HostedMemory>
}

interface Entry {
  readonly store: GmpFactStore
  readonly pools: PoolStore
  readonly artifacts: SmpArtifactStore
  readonly election: TabElection | null
  readonly info: Omit<HostedInfo, 'leader'>
  users: number
}

/**
 * The worker's side of the browser runtime: one fact store per (database, identity, options),
 * shared by every connection that asks for the same one (all the tabs of an origin, in a
 * SharedWorker). Each store lives on Dexie in this worker; pages reach it through comlink.
 */
export function createMemoryHost(): MemoryHost {
  installErrorTransfer()
  const entries = new Map<string, Promise<Entry>>()

  async function build(o: WorkerOpenOptions): Promise<Entry> {
    const identity = o.identity ? await identityFromKeys(o.identity) : null
    const storage = indexedDbStorage({ name: o.name })
    const store = new GmpFactStore(storage, {
      capabilities: o.capabilities,
      identity,
      multiValuedPredicates: o.multiValuedPredicates,
    })
    await store.refresh() // open and load now, so errors surface at open time
    const election = o.election ? new TabElection(o.name, store) : null
    // Pools share the fact store's database (it opens and closes it) and show their facts through it.
    const pools = new PoolStore(storage, { identity, facts: store, ownsStorage: false })
    // Artifacts live in the same database; each worker commits its own (IndexedDB serializes them, and forks are flagged).
    const artifacts = new SmpArtifactStore(storage, { identity, ownsStorage: false })
    return { store, pools, artifacts, election, info: { did: identity?.did ?? null, publicKey: identity?.publicKey ?? null }, users: 0 }
  }

  return {
    async open(o: WorkerOpenOptions): Promise<HostedMemory> {
      const key = JSON.stringify([o.name, o.identity ? (await identityFromKeys(o.identity)).did : null, o.capabilities ?? null, o.multiValuedPredicates ?? null, o.election])
      let pending = entries.get(key)
      if (!pending) {
        pending = build(o)
        entries.set(key, pending)
        pending.catch(() => entries.delete(key))
      }
      const entry = await pending
      entry.users++
      let closed = false
      const facts = hostedFacts(entry.store)
      return Comlink.proxy({
        facts,
        pools: Comlink.proxy(entry.pools),
        artifacts: Comlink.proxy(artifactStoreMethods(entry.artifacts)),
        info: () => ({ ...entry.info, leader: entry.election ? entry.election.isLeader : null }),
        async close() {
          if (closed) return
          closed = true
          if (--entry.users > 0) return
          entries.delete(key)
          entry.election?.close()
          await entry.pools.close()
          await entry.artifacts.close()
          await entry.store.close()
        },
      })
    },
  }
}

/** The store's methods, with subscribe() returning a proxied unsubscribe function. */
function hostedFacts(store: GmpFactStore): FactStore {
  const facts: FactStore = {
    capabilities: () => store.capabilities(),
    policy: () => store.policy(),
    write: (c, o) => store.write(c, o),
    assert: (f) => store.assert(f),
    supersede: (r, c, o) => store.supersede(r, c, o),
    delete: (r) => store.delete(r),
    retrieve: (q, o) => store.retrieve(q, o),
    audit: () => store.audit(),
    get: (r) => store.get(r),
    conflicts: (o) => store.conflicts(o),
    flush: () => store.flush(),
    verifyProvenance: (m, id) => store.verifyProvenance(m, id),
    refresh: () => store.refresh(),
    async subscribe(query: string, options: RetrieveOptions, callback: (memories: FactMemory[]) => void) {
      const stop = await store.subscribe(query, options, (memories) => void callback(memories))
      return Comlink.proxy(stop)
    },
  }
  return Comlink.proxy(facts)
}
