import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as decoding from 'lib0/decoding'
import * as encoding from 'lib0/encoding'
import { afterEach, expect } from 'vitest'
import { WebSocket } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { createIdentity, type Identity } from '../../src/core/identity.js'
import { derivePoolId } from '../../src/pools/records.js'
import { createRelay, type Relay, type RelayOptions } from '../../src/relay/relay.js'
import { createPoolToken } from '../../src/sync/pool-token.js'

/** Shared by the relay tests: relays, directories and clients made here are closed after each test. */

const relays: Relay[] = []
const dirs: string[] = []
const clients: Array<{ destroy(): void }> = []

afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  await Promise.all(relays.splice(0).map((r) => r.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

export async function startRelay(options: RelayOptions = {}): Promise<{ relay: Relay; url: string }> {
  const relay = createRelay({ port: 0, onError: (err) => console.error('relay error', err), ...options })
  relays.push(relay)
  const { url } = await relay.listen()
  return { relay, url }
}

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'memweave-relay-'))
  dirs.push(dir)
  return dir
}

const SEEDS = { owner: 1, writer: 2, reader: 3, stranger: 4 } as const

/** Deterministic identities (the seed is the role's number repeated). */
export function identity(role: keyof typeof SEEDS): Promise<Identity> {
  return createIdentity({ seed: new Uint8Array(32).fill(SEEDS[role]) })
}

/** A pool id derived from `owner` as memweave derives them, with its nonce for ownership proofs. */
export function poolOf(owner: Identity, n = 0): { pool: string; nonce: string } {
  const nonce = n.toString(16).padStart(32, '0')
  return { pool: derivePoolId(owner.did, nonce, null), nonce }
}

export const HOUR = 3_600_000

export function token(owner: Identity, pool: string, sub: Identity, write: boolean, expiresAt = Date.now() + HOUR): Promise<string> {
  return createPoolToken(owner, { pool, sub: sub.did, write, expiresAt })
}

export interface Client {
  readonly doc: Y.Doc
  readonly provider: WebsocketProvider
  /** Reasons of "permission denied" messages received. */
  readonly denied: string[]
  /** Resolves with the server's close code and reason when the relay closes the connection for good (4400-4499). */
  readonly closed: Promise<{ code: number; reason: string }>
  synced(): Promise<void>
}

/** A stock y-websocket client in Node (the `ws` polyfill; BroadcastChannel off, so only the relay connects docs). */
export function connect(url: string, pool: string, tokenText: string | null, doc = new Y.Doc()): Client {
  const provider = new WebsocketProvider(url, pool, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: tokenText === null ? {} : { token: tokenText },
    disableBc: true,
    maxBackoffTime: 200,
  })
  const denied: string[] = []
  provider.messageHandlers[2] = (_encoder, decoder) => {
    if (decoding.readVarUint(decoder) === 0) denied.push(decoding.readVarString(decoder))
  }
  const closed = new Promise<{ code: number; reason: string }>((ok) => provider.once('closed', (event) => ok(event)))
  clients.push(provider)
  return {
    doc,
    provider,
    denied,
    closed,
    synced: () =>
      provider.synced
        ? Promise.resolve()
        : new Promise<void>((ok) => {
            const on = (s: boolean): void => {
              if (s) {
                provider.off('sync', on)
                ok()
              }
            }
            provider.on('sync', on)
          }),
  }
}

export interface RawClient {
  readonly ws: WebSocket
  readonly frames: Uint8Array[]
  readonly closed: Promise<{ code: number; reason: string }>
  readonly opened: Promise<void>
}

/** A bare websocket to the relay, for frames no y-websocket client would send. */
export function rawConnect(url: string, pool: string, tokenText: string | null): RawClient {
  const ws = new WebSocket(`${url}/${pool}${tokenText === null ? '' : `?token=${encodeURIComponent(tokenText)}`}`)
  const frames: Uint8Array[] = []
  ws.on('message', (data) => frames.push(new Uint8Array(data as Buffer)))
  ws.on('error', () => undefined)
  const closed = new Promise<{ code: number; reason: string }>((ok) => ws.once('close', (code, reason) => ok({ code, reason: reason.toString() })))
  const opened = new Promise<void>((ok, fail) => {
    ws.once('open', () => ok())
    ws.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)))
  })
  clients.push({ destroy: () => ws.terminate() })
  return { ws, frames, closed, opened }
}

/** A y-websocket "sync update" frame carrying `update`. */
export function updateMessage(update: Uint8Array, syncType = 2): Uint8Array {
  const e = encoding.createEncoder()
  encoding.writeVarUint(e, 0)
  encoding.writeVarUint(e, syncType)
  encoding.writeVarUint8Array(e, update)
  return encoding.toUint8Array(e)
}

/** Polls until `read()` equals `expected`. */
export async function eventually<T>(read: () => T | Promise<T>, expected: T, timeout = 5000): Promise<void> {
  await expect.poll(read, { timeout, interval: 10 }).toEqual(expected)
}

/** Every byte of every file under `dir`, concatenated (to look for content that must be gone). */
export async function allBytes(dir: string): Promise<Buffer> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())
  return Buffer.concat(await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name)))))
}

export const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms))
