import { afterEach, vi } from 'vitest'
import {
  createIdentity, createMemory, memoryStorage,
  type CreateMemoryOptions, type Identity, type Memory, type MemoryStorage, type PoolId,
} from '../../src/index.js'
import { InProcessNetwork, type InProcessNetworkOptions } from '../../src/sync/index.js'
import { T0 } from './pools-helpers.js'
import { mulberry32 } from '../../src/core/seeded-random.js'

/** Shared fixtures of the sync tests: devices (a Memory on its own storage each), a simulated network, seeded randomness. */

/** The one seeded generator (core/seeded-random.ts), under the name this file's users know. */
export const seeded = mulberry32

/**
 * Makes `crypto.getRandomValues` (pool nonces, clock node ids, AES keys and IVs) draw from a seeded
 * PRNG, so that a run's record ids repeat exactly. Returns the restore function.
 */
export function seedCrypto(seed: number): () => void {
  const random = seeded(seed ^ 0x5eed)
  const spy = vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    if (array) {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256)
    }
    return array
  })
  return () => spy.mockRestore()
}

export interface Clock {
  now(): number
  advance(ms: number): void
}

export function clock(start = T0): Clock {
  let t = start
  return { now: () => t, advance: (ms) => void (t += ms) }
}

export interface Device {
  readonly name: string
  readonly mem: Memory
  readonly storage: MemoryStorage
  readonly id: Identity & { exportSeed(): Uint8Array }
}

/** A fixed identity per name: the same DIDs in every run. */
export async function identityFor(name: string): Promise<Identity & { exportSeed(): Uint8Array }> {
  const seed = new Uint8Array(32)
  const text = new TextEncoder().encode(`memweave-sync-test:${name}`)
  seed.set(text.subarray(0, 32))
  for (let i = 32; i < text.length; i++) seed[i % 32] = seed[i % 32]! ^ text[i]!
  return createIdentity({ seed })
}

/** Devices, each a Memory on its own in-memory storage, with one shared clock. */
export async function devices<N extends string>(
  names: readonly N[],
  options: { clock?: Clock; identities?: Partial<Record<N, string>>; extra?: Partial<CreateMemoryOptions>; clientIdBase?: number } = {},
): Promise<Record<N, Device>> {
  const c = options.clock ?? clock()
  const out = {} as Record<N, Device>
  let n = 0
  for (const name of names) {
    const storage = memoryStorage()
    const id = await identityFor(options.identities?.[name] ?? name)
    let next = (options.clientIdBase ?? 1000) + 100_000 * ++n
    const mem = await createMemory({
      storage, identity: id, now: c.now, ...options.extra,
      sync: { clientId: () => next++, ...options.extra?.sync },
    })
    out[name] = { name, mem, storage, id }
  }
  return out
}

/** A network in manual mode by default: the test decides deliveries. */
export function network(options: InProcessNetworkOptions = {}): InProcessNetwork {
  return new InProcessNetwork({ manual: true, ...options })
}

/** Delivers everything and lets every device apply it, until nothing moves any more. */
export async function settle(net: InProcessNetwork, mems: readonly Memory[], rounds = 50): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await Promise.all(mems.map((m) => m.sync.flush()))
    if (net.inFlight === 0) {
      // One more look: a flush may have produced messages (heals, local writes reaching the doc).
      await Promise.all(mems.map((m) => m.pools.flush()))
      await Promise.all(mems.map((m) => m.sync.flush()))
      if (net.inFlight === 0) return
    }
    await net.flush()
  }
  throw new Error(`the network did not settle in ${rounds} rounds (${net.inFlight} messages in flight)`)
}

/**
 * What a device shows of a pool, without reading it (reads write access records): the LCS-004
 * export minus when and by whom it was made, the conflicts, the members, the quarantine, and the
 * set of texts the pool currently asserts in `mem.facts`. (Fact views are local projections: two
 * memories with one text map to content-addressed GMP facts whose names and versions depend on
 * which arrived first on a device, so only the texts are compared.)
 */
export async function snapshot(mem: Memory, pool: PoolId, options: { facts?: boolean } = {}): Promise<unknown> {
  const exp = await mem.pools.export(pool)
  const { exported_at: _at, exported_by: _by, ...header } = exp.pool
  const info = await mem.pools.info(pool)
  const facts = [...new Set((await mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).map((f) => f.content))].sort()
  return {
    header,
    memories: exp.memories,
    conflicts: (await mem.pools.conflicts(pool)).map((c) => ({ kind: c.kind, memories: c.memories, suggestion: c.suggestion })),
    members: info.members,
    quarantine: (await mem.sync.quarantine(pool)).map((q) => `${q.key} ${q.reason}`),
    ...(options.facts === false ? {} : { facts }),
  }
}

/** Bytes as text, to search raw rows and encoded updates for content. */
export function bytesText(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1')
}

/** Every row of an in-memory storage as text, with byte arrays (Yjs updates) decoded so that strings inside them can be found. */
export function rawRows(storage: MemoryStorage): string {
  return JSON.stringify(storage.dump(), (_k, v) => (v instanceof Uint8Array ? bytesText(v) : ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v))
}

/**
 * Per-test devices: `setup(names, seed)` seeds crypto, makes the devices on one clock, and every
 * Memory it made is closed (and crypto restored) after the test. Call at the top of a test file.
 */
export function useDevices(defaultSeed = 1): <N extends string>(names: readonly N[], seed?: number) => Promise<{ d: Record<N, Device>; c: Clock }> {
  const open: Memory[] = []
  let restore: () => void = () => undefined
  afterEach(async () => {
    for (const m of open.splice(0)) await m.close()
    restore()
  })
  return async (names, seed = defaultSeed) => {
    restore = seedCrypto(seed)
    const c = clock()
    const d = await devices(names, { clock: c })
    open.push(...names.map((n) => d[n].mem))
    return { d, c }
  }
}
