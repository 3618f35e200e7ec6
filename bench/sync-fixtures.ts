import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { docs, getYDoc, setupWSConnection } from '@y/websocket-server/utils'
import * as decoding from 'lib0/decoding'
import { WebSocket, WebSocketServer } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { HybridClock, encodeHlc } from '../src/core/clock.js'
import { createIdentity, type Identity } from '../src/core/identity.js'
import { createMemory, type Memory } from '../src/memory.js'
import { DEFAULT_POLICIES } from '../src/pools/input.js'
import { buildPayload } from '../src/pools/payload-input.js'
import { PoolKind, signRecord, type MemoryBody, type PoolRecord } from '../src/pools/records.js'
import type { Structure } from '../src/pools/structure.js'
import type { PoolId, WriteMemoryInput } from '../src/pools/types.js'
import { createRelay, type Relay } from '../src/relay/relay.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import type { StoragePort } from '../src/storage/port.js'
import type { RecordValue } from '../src/sync/codec.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import { factRows } from './fixtures.js'

/**
 * Data and plumbing of the sync benchmark (sync-bench.ts): pool memories that look like agent
 * memory, the signed records a writer would make of them, and the plain-Yjs baseline's server and
 * clients.
 */

/** The factual types (the pools' default `factTypes`): every memory becomes a GMP fact on the receiver. */
const TYPES = ['KNOWLEDGE', 'PREFERENCE', 'RELATIONSHIP', 'TEMPORAL'] as const

/**
 * `count` memory inputs from the fact bench's seeded rows: subject, predicate and object from the
 * row, its sentence as the context. The context makes every memory's text unique, so no two share
 * one content-addressed GMP fact and "B has all N" can be counted in `mem.facts` as well.
 */
export function memoryInputs(count: number, seed = 0x5eed, tag?: string): WriteMemoryInput[] {
  // A tag keeps inputs from another seed apart from the pool's own (the sentences repeat across seeds: deduplication would answer).
  return factRows(count, seed).map((row, i) => ({
    type: TYPES[i % TYPES.length]!,
    content: {
      subject: row.metadata.subject, predicate: row.metadata.predicate, object: row.metadata.object,
      context: tag === undefined ? row.content : `${row.content} (${tag} ${i})`,
    },
    confidence: 0.5 + row.metadata.importance / 2,
  }))
}

/**
 * The signed `pool-memory` records `author` would write for `inputs`, built with the pools module's
 * own helpers (`buildPayload`, `signRecord`), as `mem.pools.write` builds them but without its
 * per-write maintenance: the bench's setup must not take minutes at 100k. Signed in batches of 500.
 */
export async function memoryRecords(author: Identity, pool: PoolId, inputs: readonly WriteMemoryInput[], now = Date.now()): Promise<PoolRecord[]> {
  // What buildPayload reads of a pool: an unencrypted pool with the default policies.
  const s = { create: { body: { encrypted: false, noTraining: false, publicDefault: false } }, policies: DEFAULT_POLICIES } as unknown as Structure
  const clock = new HybridClock(() => now)
  const out: PoolRecord[] = []
  for (let i = 0; i < inputs.length; i += 500) {
    const batch = inputs.slice(i, i + 500).map((input) => {
      const body: MemoryBody = { payload: buildPayload(input, s, now) }
      return signRecord(author, { kind: PoolKind.MEMORY, pool, tenant: null, body, author: author.did, hlc: encodeHlc(clock.tick()) })
    })
    out.push(...((await Promise.all(batch)) as PoolRecord[]))
  }
  return out
}

/** Stores records in a Memory's storage as its own writes would (a `records` row and a `log` row each), 10,000 per transaction. */
export async function storeRecords(storage: StoragePort, records: readonly PoolRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 10_000) {
    const chunk = records.slice(i, i + 10_000)
    await storage.write(['records', 'log'], async (tx) => {
      await tx.put('records', chunk)
      await tx.put('log', chunk.map((r) => ({ ref: r.id, op: 'put' })))
    })
  }
}

/**
 * The records as plain JSON objects, one field each (what a pool's Y.Map held before its values were
 * encoded strings, codec.ts): the plain-Yjs baseline's values, kept apart from the codec so that the
 * baseline does not change when the pool's document format does.
 */
export function recordValues(records: readonly PoolRecord[]): RecordValue[] {
  return records.map(({ id, kind, pool, tenant, body, author, hlc, sig }) => ({ id, kind, pool, tenant, body, author, hlc, sig }))
}

export interface PlainServer {
  readonly url: string
  /** The server's document of a room, made now if it does not exist yet (to fill it before a client connects). */
  doc(room: string): Y.Doc
  stop(): Promise<void>
}

/**
 * The port a bench server listens on: `MEMWEAVE_BENCH_RELAY_PORT` plus `offset` (the relay at +0, the
 * plain server at +1), so that a shared machine's engineers each keep to their own ports; a free one when unset.
 */
export function benchPort(offset: number): number {
  const base = Number(process.env['MEMWEAVE_BENCH_RELAY_PORT'] ?? 0)
  return Number.isInteger(base) && base > 0 ? base + offset : 0
}

/** The reference server: @y/websocket-server's `setupWSConnection` on a `ws` server, in memory, nothing else. */
export async function plainServer(): Promise<PlainServer> {
  const wss = new WebSocketServer({ noServer: true })
  const server: Server = createServer()
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => setupWSConnection(ws, req)))
  await new Promise<void>((ok) => server.listen(benchPort(1), '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  // The module keeps its documents in one map for the whole process; each holds an awareness timer.
  const before = new Set(docs.keys())
  return {
    url: `ws://127.0.0.1:${port}`,
    doc: (room) => getYDoc(room),
    async stop() {
      for (const ws of wss.clients) ws.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((ok) => server.close(() => ok()))
      // Drop the documents made while this server ran (their timers would keep the process alive).
      for (const [room, doc] of [...docs]) {
        if (before.has(room)) continue
        doc.destroy()
        docs.delete(room)
      }
    },
  }
}

export interface PlainClient {
  readonly doc: Y.Doc
  readonly provider: WebsocketProvider
  /** Resolves at the provider's first `sync` (the exchange of states with the server is done). */
  readonly synced: Promise<void>
  close(): void
}

/** A plain Y.Doc with a y-websocket provider, as an application without memweave would connect. */
export function plainClient(url: string, room: string, params: Record<string, string> = {}, doc = new Y.Doc()): PlainClient {
  const provider = new WebsocketProvider(url, room, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params,
    disableBc: true,
  })
  const synced = new Promise<void>((ok) => {
    const on = (s: boolean): void => {
      if (!s) return
      provider.off('sync', on)
      ok()
    }
    provider.on('sync', on)
  })
  return {
    doc, provider, synced,
    close() {
      provider.destroy()
      doc.destroy()
    },
  }
}

/**
 * How many items the server's document of `room` has integrated, read from the sync step 1 it
 * sends every client on connect (the sum of its state vector's clocks: one per Y.Map value set).
 * A y-websocket client counts as synced once it received the server's state, while its own (the
 * whole pool, for a device that holds one) may still be on its way in: the bench waits on this
 * instead, so the server is idle when the measured device connects.
 */
export async function serverClock(url: string, room: string, params: Record<string, string> = {}): Promise<number> {
  const ws = new WebSocket(`${url}/${room}?${new URLSearchParams(params).toString()}`)
  ws.binaryType = 'nodebuffer'
  try {
    return await new Promise<number>((ok, fail) => {
      ws.on('error', fail)
      ws.on('close', (code) => fail(new Error(`server closed the probe (${code})`)))
      ws.on('message', (data: Buffer) => {
        const d = decoding.createDecoder(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
        // y-websocket message 0 (sync), sync message 0 (step 1): the server's state vector.
        if (decoding.readVarUint(d) !== 0 || decoding.readVarUint(d) !== 0) return
        let sum = 0
        for (const clock of Y.decodeStateVector(decoding.readVarUint8Array(d)).values()) sum += clock
        ok(sum)
      })
    })
  } finally {
    ws.terminate()
  }
}

/** The nearest-rank percentile. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** A pool of `size` memories written by device A and in step with a relay, and what a second device needs to join it. */
export interface PoolOnRelay {
  readonly owner: Identity
  readonly member: Identity
  readonly relay: Relay
  readonly url: string
  readonly a: Memory
  readonly pool: PoolId
  readonly records: readonly PoolRecord[]
  /** A write token of the pool for `sub`, valid for an hour. */
  readonly token: (sub: Identity) => Promise<string>
}

/**
 * The profiling scripts' setup (bench/sync-profile.ts, bench/forget-timeline.ts): A (seeded
 * identities, in-memory storage) holds a pool of `size` memories shared with a writing member,
 * stored directly (as the sync bench's A), connected to a relay on a free port, and the relay has
 * them all. `until` is the caller's own wait for a Memory to count `n` memories of the pool.
 */
export async function poolOnRelay(
  size: number, name: string, until: (mem: Memory, pool: PoolId, n: number) => Promise<void>,
): Promise<PoolOnRelay> {
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(21) })
  const member = await createIdentity({ seed: new Uint8Array(32).fill(22) })
  const relay = createRelay({ port: benchPort(0) })
  const { url } = await relay.listen()
  const storage = memoryStorage()
  const a = await createMemory({ storage, identity: owner, sync: { WebSocketPolyfill: WebSocket } })
  const pool = (await a.pools.create({ name })).id
  await a.pools.share(pool, member.did, { write: true })
  const records = await memoryRecords(owner, pool, memoryInputs(size))
  await storeRecords(storage, records)
  const token = (sub: Identity): Promise<string> => createPoolToken(owner, { pool, sub: sub.did, write: true, expiresAt: Date.now() + 3_600_000 })
  await a.sync.connect(pool, { url, token: await token(owner) })
  await until(a, pool, size)
  while ((await serverClock(url, pool, { token: await token(owner) })) < size) await new Promise((r) => setTimeout(r, 300))
  return { owner, member, relay, url, a, pool, records, token }
}
