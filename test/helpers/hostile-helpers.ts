import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import * as encoding from 'lib0/encoding'
import { afterEach, expect } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import type { Identity } from '../../src/core/identity.js'
import { encodeHlc } from '../../src/core/clock.js'
import { signRecord, type MemoryBody, type PoolBody, type PoolKind, type PoolRecord } from '../../src/pools/records.js'
import { createPoolToken } from '../../src/sync/pool-token.js'
import { rawClient, type RawClient } from '../../e2e/raw-client.js'
import { RelayProcess, killAllRelays, removeDir, tempDir } from '../../e2e/relay-process.js'
import { identityFor } from './sync-helpers.js'

/**
 * The attacker's side of issue 13 ("Hostile peers"): the real relay as a child process
 * (`node bin/memweave.js relay`, needs `npm run build`), honest replicas (Memories in this process
 * on their own storage, connected through y-websocket with owner-signed tokens), and a raw
 * y-websocket client holding a valid token that puts into the pool's document whatever it likes.
 */

const HOUR = 3_600_000
const REPLICA = new URL('../processes/replica.mjs', import.meta.url).pathname
const children: ChildProcess[] = []
const open: Memory[] = []
const raws: RawClient[] = []
const dirs: string[] = []
let relay: RelayProcess | null = null

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
  for (const r of raws.splice(0)) r.destroy()
  for (const m of open.splice(0)) await m.close()
  await relay?.stop().catch(() => undefined)
  relay = null
  await killAllRelays()
  await Promise.all(dirs.splice(0).map(removeDir))
})

export interface Replica {
  readonly mem: Memory
  readonly id: Identity
}

export interface Arena {
  readonly url: string
  readonly pool: PoolId
  /** The owner's replica; the owner signs every token. */
  readonly owner: Replica
  /** A token for `did` signed by the owner. */
  token(did: string, write: boolean): Promise<string>
  /** A replica of `name` connected to the pool through the relay. */
  replica(name: string): Promise<Replica>
  /** A raw y-websocket client on the pool with `did`'s token, synced with the relay. */
  raw(did: string, write?: boolean): Promise<RawClient>
}

export async function arena(): Promise<Arena> {
  const dir = await tempDir()
  dirs.push(dir)
  relay = await RelayProcess.start(dir)
  const url = relay.url
  const ownerId = await identityFor('alice')
  const ownerMem = await createMemory({ storage: 'memory', identity: ownerId, sync: { WebSocketPolyfill: WebSocket } })
  open.push(ownerMem)
  const pool = (await ownerMem.pools.create({ name: 'household' })).id
  const token = (did: string, write: boolean): Promise<string> => createPoolToken(ownerId, { pool, sub: did, write, expiresAt: Date.now() + HOUR })
  await ownerMem.sync.connect(pool, { url, token: await token(ownerId.did, true) })
  return {
    url, pool, owner: { mem: ownerMem, id: ownerId }, token,
    async replica(name) {
      const id = await identityFor(name)
      const mem = await createMemory({ storage: 'memory', identity: id, sync: { WebSocketPolyfill: WebSocket } })
      open.push(mem)
      await mem.sync.connect(pool, { url, token: await token(id.did, true) })
      return { mem, id }
    },
    async raw(did, write = true) {
      const c = rawClient(url, pool, await token(did, write))
      raws.push(c)
      await c.synced()
      return c
    },
  }
}

/**
 * The cast most attacks need: the owner's arena, bob's replica as an honest writer, and mallory's
 * identity shared as a writer (her client is the test's to open: raw or a replica).
 */
export async function writersArena(): Promise<{ a: Arena; bob: Replica; malloryId: Identity }> {
  const a = await arena()
  const bob = await a.replica('bob')
  const malloryId = await identityFor('mallory')
  await a.owner.mem.pools.share(a.pool, bob.id.did, { write: true })
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: true })
  return { a, bob, malloryId }
}

/** The objects of the pool's live memories on a replica ([] while the pool is not there yet). */
export async function objects(mem: Memory, pool: PoolId): Promise<string[]> {
  try {
    return (await mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()
  } catch {
    return []
  }
}

/** Polls until `read()` equals `expected` (the replicas work asynchronously). */
export async function eventually<T>(read: () => T | Promise<T>, expected: T, timeout = 10_000): Promise<void> {
  await expect.poll(read, { timeout, interval: 20 }).toEqual(expected)
}

/** A record signed by `author` by hand with the clock it chooses: what a hostile member can make. */
export function signedAt<B extends PoolBody>(author: Identity, pool: PoolId, kind: PoolKind, body: B, wallMs: number): Promise<PoolRecord<B>> {
  return signRecord(author, { kind, pool, tenant: null, body, author: author.did, hlc: encodeHlc({ wall: wallMs, counter: 0, node: 'mallory' }) })
}

/** A pool memory payload as a Memory would write it. */
export function memoryBody(subject: string, object: string, createdAt = Date.now()): MemoryBody {
  return {
    payload: {
      type: 'KNOWLEDGE', subject, predicate: 'is', object, context: null, confidence: 1, source: 'direct_statement', evidence: [],
      createdAt, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
    },
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms))

/** An honest replica in a child process (test/processes/replica.mjs): a device of its own. */
export interface ReplicaProcess {
  readonly did: string
  /** Sends a command; resolves with the next answer. */
  ask(cmd: Record<string, unknown>): Promise<Record<string, unknown>>
  close(): Promise<void>
}

/** `nodeArgs`: flags for the child's node (e.g. `--stack-size=N` for a device with a smaller stack, as a browser worker has). */
export async function replicaProcess(a: Arena, name: string, nodeArgs: readonly string[] = []): Promise<ReplicaProcess> {
  const id = await identityFor(name)
  const seed = Buffer.from(id.exportSeed()).toString('hex')
  const child = spawn(process.execPath, [...nodeArgs, REPLICA, a.url, a.pool, await a.token(id.did, true), seed], { stdio: ['pipe', 'pipe', 'inherit'] })
  children.push(child)
  const lines = createInterface({ input: child.stdout! })
  const waiting: Array<(o: Record<string, unknown>) => void> = []
  let ready: () => void = () => undefined
  const isReady = new Promise<void>((ok) => (ready = ok))
  lines.on('line', (line) => {
    const o = JSON.parse(line) as Record<string, unknown>
    if (o['ready']) ready()
    else waiting.shift()?.(o)
  })
  await isReady
  return {
    did: id.did,
    ask: (cmd) => new Promise((ok) => {
      waiting.push(ok)
      child.stdin!.write(`${JSON.stringify(cmd)}\n`)
    }),
    close: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((ok) => child.once('exit', ok))
      child.stdin!.end(`${JSON.stringify({ cmd: 'close' })}\n`)
      await exited
    },
  }
}

/**
 * Sends one update over a bare websocket, then a sync step 1: resolves with how the relay closed
 * the connection, or 'kept' when it answered the step 1 (it took the update).
 */
export async function pushUpdate(url: string, token: string, update: Uint8Array): Promise<string> {
  const ws = new WebSocket(`${url}?token=${encodeURIComponent(token)}`)
  await new Promise((ok, fail) => ws.once('open', ok).once('error', fail))
  const frame = (write: (e: encoding.Encoder) => void): Uint8Array => {
    const e = encoding.createEncoder()
    write(e)
    return encoding.toUint8Array(e)
  }
  const outcome = new Promise<string>((ok) => {
    ws.on('close', (code, reason) => ok(`${code} ${reason.toString()}`))
    // A sync step 2 (0, 1): the answer to our step 1, sent after the update was handled.
    ws.on('message', (data: Buffer) => {
      if (data[0] === 0 && data[1] === 1) ok('kept')
    })
  })
  ws.send(frame((e) => { encoding.writeVarUint(e, 0); encoding.writeVarUint(e, 2); encoding.writeVarUint8Array(e, update) }))
  ws.send(frame((e) => { encoding.writeVarUint(e, 0); encoding.writeVarUint(e, 0); encoding.writeVarUint8Array(e, new Uint8Array([0])) }))
  const result = await outcome
  ws.terminate()
  return result
}

const PLACEHOLDER = 'placeholder-for-the-deep-value'

/**
 * An update setting `key` of the records map to plain arrays `depth` levels deep, written by hand
 * (lib0's encoder recurses too, and gives out first in the attacker's own process past ~9,000).
 */
export function deepUpdate(key: string, depth: number): Uint8Array {
  const doc = new Y.Doc()
  doc.getMap('records').set(key, PLACEHOLDER)
  const plain = Y.encodeStateAsUpdate(doc)
  const e = encoding.createEncoder()
  encoding.writeAny(e, PLACEHOLDER)
  const marker = encoding.toUint8Array(e)
  const at = Buffer.from(plain).indexOf(Buffer.from(marker))
  const deep = new Uint8Array(depth * 2)
  for (let i = 0; i < depth; i++) deep.set([117, i === depth - 1 ? 0 : 1], i * 2)
  return Buffer.concat([plain.subarray(0, at), deep, plain.subarray(at + marker.length)])
}
