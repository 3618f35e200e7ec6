import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setupWSConnection } from '@y/websocket-server/utils'
import { WebSocket, WebSocketServer } from 'ws'
import { WebsocketProvider } from 'y-websocket'
import * as Y from 'yjs'
import { createIdentity } from '../src/core/identity.js'
import { derivePoolId } from '../src/pools/records.js'
import { createRelay } from '../src/relay/relay.js'
import { createPoolToken } from '../src/sync/pool-token.js'

/**
 * Device-to-device latency through a relay on loopback: device A writes one small record into a
 * pool's Y.Doc, and the clock stops when device B's doc has it (A → relay → B), one update at a
 * time. The same run measures, with the same clients and the same updates:
 *
 * - `plain @y/websocket-server`: the reference y-websocket server (no auth, no caps, in memory);
 * - `memweave relay, in memory`: token-authenticated, every frame parsed and every update decoded
 *   and checked before it is applied;
 * - `memweave relay, --dir`: the same plus the fsync'd append log (group commit; forwarding does
 *   not wait for the disk).
 *
 * Call it from bench/run.ts:
 *
 *   const rows = await runRelayBench()
 *   console.log(formatRelayReport(rows))
 */
export interface RelayBenchOptions {
  /** Measured updates per target. Default 200. */
  readonly updates?: number
  /** Unmeasured updates first, per target. Default 20. */
  readonly warmup?: number
  /** Bytes of payload per update. Default 200 (a small signed record). */
  readonly payloadBytes?: number
}

export interface RelayBenchRow {
  readonly target: string
  readonly updates: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly meanMs: number
  /** p50 of this target / p50 of the plain server (1 for the plain server itself). */
  readonly ratioP50: number
}

interface Target {
  readonly name: string
  /** Starts a server; returns its URL, the token params for a client, and a stop function. */
  start(pool: string): Promise<{ url: string; params: (write: boolean) => Promise<Record<string, string>>; stop: () => Promise<void> }>
}

export async function runRelayBench(options: RelayBenchOptions = {}): Promise<RelayBenchRow[]> {
  const updates = options.updates ?? 200
  const warmup = options.warmup ?? 20
  const payload = 'x'.repeat(options.payloadBytes ?? 200)
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(7) })
  const member = await createIdentity({ seed: new Uint8Array(32).fill(8) })
  const relayTarget = (name: string, persist: boolean): Target => ({
    name,
    async start(pool) {
      const dir = persist ? await mkdtemp(join(tmpdir(), 'memweave-relay-bench-')) : null
      const relay = createRelay({ port: 0, dir })
      const { url } = await relay.listen()
      return {
        url,
        params: async (write) => ({
          token: await createPoolToken(owner, { pool, sub: write ? owner.did : member.did, write, expiresAt: Date.now() + 3_600_000 }),
        }),
        stop: async () => {
          await relay.close()
          if (dir) await rm(dir, { recursive: true, force: true })
        },
      }
    },
  })
  const targets: Target[] = [plainTarget(), relayTarget('memweave relay, in memory', false), relayTarget('memweave relay, --dir (fsync log)', true)]
  const running: Array<{ name: string; pair: Pair; stop: () => Promise<void>; samples: number[] }> = []
  try {
    for (const [i, target] of targets.entries()) {
      const pool = derivePoolId(owner.did, i.toString(16).padStart(32, '0'), null)
      const server = await target.start(pool)
      const entry = { name: target.name, stop: server.stop, samples: [] as number[], pair: undefined as unknown as Pair }
      running.push(entry)
      entry.pair = await pair(server.url, pool, server.params)
      for (let w = 0; w < warmup; w++) await entry.pair.roundTrip(payload)
    }
    // Rounds in rotating order, so drift on the machine (JIT, GC, other load) spreads over every target.
    const ROUNDS = 4
    for (let r = 0; r < ROUNDS; r++) {
      const share = Math.ceil(updates / ROUNDS)
      for (let k = 0; k < running.length; k++) {
        const entry = running[(r + k) % running.length]!
        for (let n = 0; n < share && entry.samples.length < updates; n++) entry.samples.push(await entry.pair.roundTrip(payload))
      }
    }
  } finally {
    for (const entry of running) {
      entry.pair?.close()
      await entry.stop()
    }
  }
  const baseP50 = percentile(running[0]!.samples, 50)
  return running.map(({ name, samples }) => ({
    target: name,
    updates: samples.length,
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
    ratioP50: percentile(samples, 50) / baseP50,
  }))
}

/** Device A (writer) and device B (reader) on one pool. */
interface Pair {
  /** Writes one record on A; resolves with the ms until B has it. */
  roundTrip(payload: string): Promise<number>
  close(): void
}

async function pair(url: string, pool: string, params: (write: boolean) => Promise<Record<string, string>>): Promise<Pair> {
  const a = client(url, pool, await params(true))
  const b = client(url, pool, await params(false))
  await Promise.all([a.synced, b.synced])
  const records = b.doc.getMap('records')
  let i = 0
  return {
    async roundTrip(payload) {
      const key = `r${i++}`
      const arrived = new Promise<number>((ok) => {
        const on = (): void => {
          if (records.has(key)) {
            b.doc.off('update', on)
            ok(performance.now())
          }
        }
        b.doc.on('update', on)
      })
      const start = performance.now()
      a.doc.getMap('records').set(key, { i, payload })
      return (await arrived) - start
    },
    close() {
      a.provider.destroy()
      b.provider.destroy()
    },
  }
}

function client(url: string, pool: string, params: Record<string, string>): { doc: Y.Doc; provider: WebsocketProvider; synced: Promise<void> } {
  const doc = new Y.Doc()
  const provider = new WebsocketProvider(url, pool, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params,
    disableBc: true,
  })
  const synced = new Promise<void>((ok) => {
    const on = (s: boolean): void => {
      if (s) {
        provider.off('sync', on)
        ok()
      }
    }
    provider.on('sync', on)
  })
  return { doc, provider, synced }
}

/** The reference server: @y/websocket-server's setupWSConnection on a ws server, nothing else. */
function plainTarget(): Target {
  return {
    name: 'plain @y/websocket-server',
    async start() {
      const wss = new WebSocketServer({ noServer: true })
      const server: Server = createServer()
      server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => setupWSConnection(ws, req)))
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
      const { port } = server.address() as AddressInfo
      return {
        url: `ws://127.0.0.1:${port}`,
        params: async () => ({}),
        stop: async () => {
          for (const ws of wss.clients) ws.terminate()
          wss.close()
          server.closeAllConnections()
          await new Promise<void>((ok) => server.close(() => ok()))
        },
      }
    },
  }
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** The rows as a pipe table (terminal and docs/benchmarks.md alike). */
export function formatRelayReport(rows: readonly RelayBenchRow[]): string {
  const fmt = (ms: number): string => `${ms.toFixed(2)} ms`
  const head = ['relay (loopback, A → relay → B)', 'updates', 'p50', 'p99', 'mean', 'p50 vs plain']
  const body = rows.map((r) => [r.target, String(r.updates), fmt(r.p50Ms), fmt(r.p99Ms), fmt(r.meanMs), `${r.ratioP50.toFixed(2)}x`])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [
    'Device-to-device latency: one small record written on A until B has it, one update at a time, both clients in this process.',
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
    '',
  ].join('\n')
}
