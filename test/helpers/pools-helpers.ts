import { expect } from 'vitest'
import {
  createIdentity, createMemory, isMemweaveError, memoryStorage,
  type CreateMemoryOptions, type Identity, type Memory, type StoragePort, type WriteMemoryInput,
} from '../../src/index.js'

/** Shared fixtures of the pool tests: agents on one database (like tabs or replicas), a settable clock. */

export const T0 = Date.UTC(2026, 0, 1)
export const DAY = 24 * 3600 * 1000

export interface Clock {
  now(): number
  advance(ms: number): void
}

export function clock(start = T0): Clock {
  let t = start
  return { now: () => t, advance: (ms) => void (t += ms) }
}

export interface Agents<N extends string> {
  readonly storage: StoragePort
  readonly clock: Clock
  readonly mem: Record<N, Memory>
  readonly id: Record<N, Identity & { exportSeed(): Uint8Array }>
  /** Another handle for an agent on the same database (a new session). */
  reopen(name: N): Promise<Memory>
  close(): Promise<void>
}

/** Each agent is its own Memory with its own identity, all on one storage, sharing one clock. */
export async function agents<N extends string>(
  names: readonly N[],
  options: { storage?: () => StoragePort; clock?: Clock; extra?: Partial<CreateMemoryOptions> } = {},
): Promise<Agents<N>> {
  const storage = options.storage ? options.storage() : memoryStorage()
  const c = options.clock ?? clock()
  const id = {} as Record<N, Identity & { exportSeed(): Uint8Array }>
  const mem = {} as Record<N, Memory>
  const open: Memory[] = []
  const make = async (n: N): Promise<Memory> => {
    const m = await createMemory({ storage, identity: id[n], now: c.now, ...options.extra })
    open.push(m)
    return m
  }
  for (const n of names) {
    id[n] = await createIdentity()
    mem[n] = await make(n)
  }
  return {
    storage, clock: c, mem, id,
    reopen: make,
    async close() {
      for (const m of open) await m.close()
    },
  }
}

export async function expectCode(p: Promise<unknown>, code: string, field?: string): Promise<void> {
  try {
    await p
  } catch (err) {
    if (!isMemweaveError(err)) throw err
    expect(err.code).toBe(code)
    if (field !== undefined) expect(err.details.field).toBe(field)
    return
  }
  throw new Error(`expected a ${code} error, but the call succeeded`)
}

/** A PREFERENCE in LCS-004 §3's example shape. */
export function pref(object: string, extra: Partial<WriteMemoryInput> = {}, context = 'technical_discussions'): WriteMemoryInput {
  return { type: 'PREFERENCE', content: { subject: 'communication_style', predicate: 'prefers', object, context }, confidence: 0.9, ...extra }
}

export function fact(subject: string, predicate: string, object: string, extra: Partial<WriteMemoryInput> = {}): WriteMemoryInput {
  return { type: 'KNOWLEDGE', content: { subject, predicate, object }, ...extra }
}

/** Every row of an in-memory storage as JSON text (what a hard delete must leave no trace in). */
export function rawMemory(storage: StoragePort): string {
  const dump = (storage as unknown as { dump(): unknown }).dump()
  return JSON.stringify(dump, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v))
}
