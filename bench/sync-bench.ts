import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { createIdentity, type Identity } from '../src/core/identity.js'
import { createMemory, type Memory } from '../src/memory.js'
import type { PoolId, WriteMemoryInput } from '../src/pools/types.js'
import { createRelay, type Relay } from '../src/relay/relay.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import type { SyncStatus } from '../src/sync/types.js'
import { benchPort, memoryInputs, memoryRecords, percentile, plainClient, plainServer, recordValues, serverClock, storeRecords } from './sync-fixtures.js'

/**
 * The sync benchmark (issue 8): two devices in this process, each a `Memory` on in-memory storage,
 * replicating one pool through the memweave relay on loopback; every figure beside plain Yjs doing
 * the same transfer in the same run (two Y.Docs, y-websocket, `@y/websocket-server`).
 *
 * - latency: A `mem.pools.write`s one memory; the clock stops when B's API has it (`pools.info`
 *   counts it, checked on every `mem.sync.subscribe` notification). Baseline: A sets one Y.Map key
 *   to the same record value, B observes it. One write at a time, both sides settled in between.
 * - initial sync: A holds a pool of N factual memories (built directly as signed records: the setup
 *   is not measured) and is connected; a fresh B connects; the clock stops when B's `pools.info`
 *   counts N and its sync status is `synced` (its fact view is written by then: B then checks that
 *   `mem.facts` holds N facts of the pool). Baseline: a new Y.Doc fetching a document with the
 *   same N values from a plain server until its map has N entries (the fastest of three runs), once
 *   with the values as JSON objects and once as JSON strings (issue 31's floor).
 * - then, in the synced pool of N: writes from A timed as in the latency bench, which shows how a
 *   write's cost grows with the pool (the plain-Yjs latency is the reference: a Y.Map set costs the
 *   same at any size).
 *
 * Both devices share this process's one thread, as both clients of the baseline do.
 * How to read the output and the last figures: docs/benchmarks.md, "Sync".
 */
export interface SyncBenchOptions {
  /** Measured writes per side in the latency bench. Default 100. */
  readonly writes?: number
  /** Unmeasured writes first. Default 10. */
  readonly warmup?: number
  /** Pool sizes for the initial sync. Default [10_000, 100_000]. */
  readonly sizes?: readonly number[]
  /** Per size: stop waiting for memweave's B after this long. Default 600 s. */
  readonly budgetMs?: number
  /** Per size, once B is synced: measured writes into the big pool (after one unmeasured). Default 20. */
  readonly poolWrites?: number
  /**
   * Then measured forgets of the pool's memories on A (after one unmeasured). Default 20: with 5, the
   * 100k p50 ranged 31 to 148 ms over four quiet runs (issue 31, fifth round).
   */
  readonly poolForgets?: number
  readonly log?: (line: string) => void
}

export interface LatencyRow {
  readonly target: 'memweave' | 'plain Yjs'
  readonly writes: number
  readonly p50Ms: number
  readonly p95Ms: number
  readonly meanMs: number
}

export interface InitialSyncRow {
  readonly size: number
  /** B's connect until its API has every memory and it reports `synced`; null when out of time. */
  readonly memweaveMs: number | null
  /**
   * B's connect until `mem.facts` answers with the pool's fact view complete (a read waits for a
   * view written in the background after a big join: docs/sync.md); null when out of time.
   */
  readonly factViewMs: number | null
  /** What B had when the clock stopped (N, or less when out of time). */
  readonly memweaveGot: number
  /** Plain Yjs, the records as JSON objects: a new client until its map has N entries (fastest of three). */
  readonly baselineMs: number
  /** The same with each record as one JSON string (the floor a pool of encoded values can approach; issue 31). */
  readonly stringBaselineMs: number
  /** Bytes of the baseline's document as its server sends it (`Y.encodeStateAsUpdate` of the values as objects). */
  readonly docBytes: number
  /** The same, values as strings. */
  readonly stringDocBytes: number
  /** A's setup: building, signing and storing N records, then pushing them to the relay. */
  readonly setupMs: number
  /** Then, in the synced pool of N: A writes one memory at a time until B's API has it (as in the latency bench). */
  readonly poolWrites: { readonly writes: number; readonly p50Ms: number; readonly p95Ms: number } | null
  /** Then: A forgets one memory at a time (a tombstone and a hard delete) until B's API no longer counts it. */
  readonly poolForgets: { readonly forgets: number; readonly p50Ms: number; readonly p95Ms: number } | null
}

export interface SyncBenchResult {
  readonly latency: readonly LatencyRow[]
  readonly initial: readonly InitialSyncRow[]
}

const HOUR = 3_600_000
const ROUNDS = 4
/** Runs of the plain-Yjs initial sync per size; the fastest is the baseline. */
const BASELINE_RUNS = 3
/** The pool size whose write latency the others are compared with (issue 15: p50 at 100k ≤ 1.5× p50 at 1k). */
export const REFERENCE_SIZE = 1_000

export async function runSyncBench(options: SyncBenchOptions = {}): Promise<SyncBenchResult> {
  const log = options.log ?? (() => undefined)
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(21) })
  const member = await createIdentity({ seed: new Uint8Array(32).fill(22) })
  const latency = await runLatency(owner, member, options.writes ?? 100, options.warmup ?? 10, log)
  const initial: InitialSyncRow[] = []
  // A small pool first, always: the writes into it are the reference the big pools' write cost is compared with.
  const sizes = [...new Set([REFERENCE_SIZE, ...(options.sizes ?? [10_000, 100_000])])].sort((x, y) => x - y)
  for (const size of sizes) {
    initial.push(await runInitialSync(owner, member, size, {
      budgetMs: options.budgetMs ?? 600_000, poolWrites: options.poolWrites ?? 20, poolForgets: options.poolForgets ?? 20,
    }, log))
  }
  return { latency, initial }
}

// ---- latency ------------------------------------------------------------------------------------

/** One device pair; `write(i)` resolves with the ms from A's write until B has it. */
interface Pair {
  write(i: number): Promise<number>
  close(): Promise<void>
}

async function runLatency(owner: Identity, member: Identity, writes: number, warmup: number, log: (line: string) => void): Promise<LatencyRow[]> {
  const inputs = memoryInputs(warmup + writes + 1, 0x1a7e)
  const relay = createRelay({ port: benchPort(0), onError: (err) => log(`relay error: ${String(err)}`) })
  const { url } = await relay.listen()
  const server = await plainServer()
  const pairs: Array<{ target: LatencyRow['target']; pair: Pair; samples: number[] }> = []
  try {
    pairs.push({ target: 'memweave', pair: await memweavePair(url, owner, member, inputs), samples: [] })
    pairs.push({ target: 'plain Yjs', pair: await plainPair(server.url, owner, inputs), samples: [] })
    let next = 0
    for (const p of pairs) for (let w = 0; w < warmup; w++) await p.pair.write(w)
    next = warmup
    // Rounds in rotating order, so drift on the machine (JIT, GC, other load) spreads over both.
    const share = Math.ceil(writes / ROUNDS)
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < pairs.length; k++) {
        const p = pairs[(r + k) % pairs.length]!
        const from = next + r * share
        for (let n = 0; n < share && p.samples.length < writes; n++) p.samples.push(await p.pair.write(from + n))
      }
      log(`sync latency: round ${r + 1}/${ROUNDS} done`)
    }
  } finally {
    for (const p of pairs) await p.pair.close()
    await server.stop()
    await relay.close()
  }
  return pairs.map(({ target, samples }) => ({
    target,
    writes: samples.length,
    p50Ms: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
  }))
}

async function device(identity: Identity): Promise<Memory> {
  return createMemory({ storage: memoryStorage(), identity, sync: { WebSocketPolyfill: WebSocket } })
}

const token = (owner: Identity, pool: PoolId, sub: Identity): Promise<string> =>
  createPoolToken(owner, { pool, sub: sub.did, write: true, expiresAt: Date.now() + HOUR })

/**
 * Resolves once `probe` holds, checked on every sync status notification of `mem` (and once now).
 * A timeout says what was waited for, the last status heard and the process's CPU time meanwhile:
 * a wait that ran out on a loaded machine used its time, a hang sat idle.
 */
async function untilStatus(mem: Memory, probe: (s: SyncStatus) => Promise<boolean> | boolean, timeoutMs = 60_000, what = 'a status'): Promise<void> {
  let stop: (() => void) | undefined
  const cpu = process.cpuUsage()
  try {
    await new Promise<void>((ok, fail) => {
      let busy = false
      let again = false
      let latest: SyncStatus | null = null
      const timer = setTimeout(() => {
        const used = process.cpuUsage(cpu)
        const text = (s: SyncStatus | null): string => s?.pools.map((p) => `${p.state} ${p.records} records, pending ${p.pending.incoming}/${p.pending.outgoing}`).join('; ') ?? 'none'
        // The status heard and the status now: they differ when a notification was lost (issue 31), not the loop.
        void mem.sync.status().catch(() => null).then((now) => {
          fail(new Error(`sync bench: ${what} not met within ${timeoutMs} ms (last status heard: ${text(latest)}; status now: ${text(now)}; process CPU meanwhile ${((used.user + used.system) / 1e6).toFixed(1)} s)`))
        })
      }, timeoutMs)
      const check = async (): Promise<void> => {
        if (busy) {
          again = true
          return
        }
        busy = true
        try {
          do {
            again = false
            if (latest && (await probe(latest))) {
              clearTimeout(timer)
              ok()
              return
            }
          } while (again)
        } catch (err) {
          clearTimeout(timer)
          fail(err)
        } finally {
          busy = false
        }
      }
      void mem.sync
        .subscribe((s) => {
          latest = s
          void check()
        })
        .then((unsubscribe) => {
          stop = unsubscribe
        })
    })
  } finally {
    stop?.()
  }
}

const sizeOf = async (mem: Memory, pool: PoolId): Promise<number> => (await mem.pools.info(pool).catch(() => null))?.size ?? 0

/** Both devices done with everything pending (A's post-write maintenance, both sync loops). */
async function settled(a: Memory, b: Memory): Promise<void> {
  await a.pools.flush()
  await Promise.all([untilStatus(a, (s) => s.state === 'synced', 60_000, 'A synced'), untilStatus(b, (s) => s.state === 'synced', 60_000, 'B synced')])
}

/** A forgets one memory; resolves with the ms until B's `pools.info` no longer counts it, once both devices settled again. */
async function timedForget(a: Memory, b: Memory, pool: PoolId, id: string): Promise<number> {
  const before = await sizeOf(b, pool)
  let stopped = 0
  const seen = untilStatus(b, async () => {
    if ((await sizeOf(b, pool)) >= before) return false
    stopped = performance.now()
    return true
  }, 60_000, `B's pools.info below ${before} after A's forget`)
  const start = performance.now()
  const forgotten = a.pools.forget(id)
  await seen
  await forgotten
  await settled(a, b)
  return stopped - start
}

/** A writes one memory; resolves with the ms until B's `pools.info` counts it, once both devices settled again. */
async function timedWrite(a: Memory, b: Memory, pool: PoolId, input: WriteMemoryInput): Promise<number> {
  const before = await sizeOf(b, pool)
  let stopped = 0
  const seen = untilStatus(b, async () => {
    if ((await sizeOf(b, pool)) <= before) return false
    stopped = performance.now()
    return true
  })
  const start = performance.now()
  const written = a.pools.write(pool, input)
  await seen
  await written
  await settled(a, b)
  return stopped - start
}

async function memweavePair(url: string, owner: Identity, member: Identity, inputs: readonly WriteMemoryInput[]): Promise<Pair> {
  const a = await device(owner)
  const b = await device(member)
  const pool = (await a.pools.create({ name: 'latency' })).id
  await a.pools.share(pool, member.did, { write: true })
  await a.sync.connect(pool, { url, token: await token(owner, pool, owner) })
  await b.sync.connect(pool, { url, token: await token(owner, pool, member) })
  await untilStatus(b, async () => (await b.pools.info(pool).catch(() => null)) !== null)
  await settled(a, b)
  return {
    write: (i) => timedWrite(a, b, pool, inputs[i]!),
    async close() {
      await a.close()
      await b.close()
    },
  }
}

async function plainPair(url: string, owner: Identity, inputs: readonly WriteMemoryInput[]): Promise<Pair> {
  const room = 'sync-bench-latency'
  // The same JSON values memweave's A puts into its document (a signed pool-memory record each).
  const values = recordValues(await memoryRecords(owner, '0'.repeat(32) as PoolId, inputs))
  const a = plainClient(url, room)
  const b = plainClient(url, room)
  await Promise.all([a.synced, b.synced])
  const records = b.doc.getMap('records')
  return {
    async write(i) {
      const value = values[i]!
      const arrived = new Promise<number>((ok) => {
        const on = (): void => {
          if (!records.has(value.id)) return
          b.doc.off('update', on)
          ok(performance.now())
        }
        b.doc.on('update', on)
      })
      const start = performance.now()
      a.doc.getMap('records').set(value.id, value)
      return (await arrived) - start
    },
    async close() {
      a.close()
      b.close()
    },
  }
}

// ---- initial sync -------------------------------------------------------------------------------

async function runInitialSync(
  owner: Identity, member: Identity, size: number, { budgetMs, poolWrites, poolForgets }: { budgetMs: number; poolWrites: number; poolForgets: number },
  log: (line: string) => void,
): Promise<InitialSyncRow> {
  const label = `sync ${size.toLocaleString('en-US')}`
  let setupMs = 0
  let docBytes = 0
  let baselineMs = 0
  let stringDocBytes = 0
  let stringBaselineMs = 0
  let memweaveMs: number | null = null
  let factViewMs: number | null = null
  let got = 0
  let writes: InitialSyncRow['poolWrites'] = null
  let forgets: InitialSyncRow['poolForgets'] = null
  const relay: Relay = createRelay({ port: benchPort(0), onError: (err) => log(`relay error: ${String(err)}`) })
  const { url } = await relay.listen()
  const storage = memoryStorage()
  const a = await createMemory({ storage, identity: owner, sync: { WebSocketPolyfill: WebSocket } })
  let b: Memory | null = null
  try {
    // Device A holds the pool and is connected (not measured).
    let t = performance.now()
    const pool = (await a.pools.create({ name: `initial sync ${size}` })).id
    await a.pools.share(pool, member.did, { write: true })
    const records = await memoryRecords(owner, pool, memoryInputs(size))
    await storeRecords(storage, records)
    log(`${label}: A signed and stored ${size} records in ${Math.round(performance.now() - t)} ms`)
    await a.sync.connect(pool, { url, token: await token(owner, pool, owner) })
    await untilStatus(a, (s) => s.state === 'synced' && s.pools[0]!.records >= size, budgetMs)
    // A's link is in step once it has the relay's state; the relay may still be applying A's.
    while ((await serverClock(url, pool, { token: await token(owner, pool, owner) })) < size) await new Promise((r) => setTimeout(r, 500))
    setupMs = performance.now() - t
    log(`${label}: A holds the pool and is in step with the relay after ${Math.round(setupMs)} ms`)

    // The baseline first: the same values, a plain server, a new client (A's memweave links stay idle meanwhile).
    // Its fastest of three runs: one run swings with the machine's load (3.5 to 7 s at 100k), and a
    // slow baseline would flatter memweave's ratio.
    // Twice: the values as JSON objects (Yjs's ContentAny reads every field), and as the same JSON
    // in one string each (one string read a value): Yjs decodes the second about 3x faster (issue 31).
    const values = recordValues(records)
    const strings = values.map((v) => ({ id: v.id, value: JSON.stringify(v) }))
    const runs: number[] = []
    const stringRuns: number[] = []
    for (let run = 0; run < BASELINE_RUNS; run++) {
      runs.push(await plainInitialSync(values.map((v) => ({ id: v.id, value: v })), (bytes) => (docBytes = bytes)))
      stringRuns.push(await plainInitialSync(strings, (bytes) => (stringDocBytes = bytes)))
    }
    baselineMs = Math.min(...runs)
    stringBaselineMs = Math.min(...stringRuns)
    log(`${label}: plain Yjs new client has ${size} entries after ${runs.map((ms) => Math.round(ms)).join(' / ')} ms (fastest counts; ${(docBytes / 1e6).toFixed(1)} MB)`)
    log(`${label}: plain Yjs, values as strings, after ${stringRuns.map((ms) => Math.round(ms)).join(' / ')} ms (${(stringDocBytes / 1e6).toFixed(1)} MB)`)

    // Device B: fresh, connects; the clock runs until its API has every memory and it is synced.
    b = await device(member)
    const mem = b
    t = performance.now()
    await mem.sync.connect(pool, { url, token: await token(owner, pool, member) })
    try {
      await untilStatus(mem, async (s) => {
        if (s.state !== 'synced') return false
        got = await sizeOf(mem, pool)
        return got >= size
      }, budgetMs)
      memweaveMs = performance.now() - t
      log(`${label}: memweave B has ${got} memories, synced, after ${Math.round(memweaveMs)} ms`)
    } catch {
      got = await sizeOf(mem, pool)
      log(`${label}: memweave B out of time after ${Math.round(performance.now() - t)} ms with ${got} memories`)
    }
    if (memweaveMs !== null) {
      // A facts read waits for the fact view: the clock runs until one answers (a cheap read, so
      // that what is timed is the view, not the read).
      await mem.facts.retrieve('where', { topK: 1 })
      factViewMs = performance.now() - t
      log(`${label}: memweave B's fact view complete after ${Math.round(factViewMs)} ms`)
      // Counted, not timed.
      const facts = (await mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).length
      if (facts !== size) throw new Error(`sync bench: B holds ${size} memories but ${facts} facts of the pool`)
      if (poolWrites > 0) {
        // New memories (another seed), unlike the pool's own; the first write also loads A's pools state: not measured.
        const inputs = memoryInputs(poolWrites + 1, 0xb16, 'later write')
        const first = await timedWrite(a, mem, pool, inputs[0]!)
        const samples: number[] = []
        for (const input of inputs.slice(1)) samples.push(await timedWrite(a, mem, pool, input))
        writes = { writes: samples.length, p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) }
        log(`${label}: writes into the synced pool: first ${Math.round(first)} ms, then p50 ${writes.p50Ms.toFixed(1)} ms, p95 ${writes.p95Ms.toFixed(1)} ms`)
      }
      if (poolForgets > 0) {
        // A forgets memories of the pool it wrote (spread over it); the first also compacts the join's update rows: not measured.
        const ids = Array.from({ length: poolForgets + 1 }, (_, i) => records[Math.floor(((i + 0.5) * records.length) / (poolForgets + 1))]!.id)
        const first = await timedForget(a, mem, pool, ids[0]!)
        const samples: number[] = []
        for (const id of ids.slice(1)) samples.push(await timedForget(a, mem, pool, id))
        forgets = { forgets: samples.length, p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) }
        log(`${label}: forgets in the synced pool: first ${Math.round(first)} ms, then p50 ${forgets.p50Ms.toFixed(1)} ms, p95 ${forgets.p95Ms.toFixed(1)} ms (each: ${samples.map((x) => Math.round(x)).join(', ')})`)
      }
    }
  } finally {
    await b?.close()
    await a.close()
    await relay.close()
  }
  return { size, memweaveMs, factViewMs, memweaveGot: got, baselineMs, stringBaselineMs, docBytes, stringDocBytes, setupMs, poolWrites: writes, poolForgets: forgets }
}

/** Plain Yjs: a server document with each `value` under its `id`; a new client connects and fetches it. */
async function plainInitialSync(values: ReadonlyArray<{ readonly id: string; readonly value: unknown }>, noteBytes: (bytes: number) => void): Promise<number> {
  const server = await plainServer()
  const room = 'sync-bench-initial'
  try {
    const doc = server.doc(room)
    const map = doc.getMap('records')
    doc.transact(() => {
      for (const v of values) map.set(v.id, v.value)
    })
    noteBytes(Y.encodeStateAsUpdate(doc).byteLength)
    const t = performance.now()
    const b = plainClient(server.url, room)
    const records = b.doc.getMap('records')
    await new Promise<void>((ok) => {
      const on = (): void => {
        if (records.size < values.length) return
        b.doc.off('update', on)
        ok()
      }
      b.doc.on('update', on)
    })
    const ms = performance.now() - t
    b.close()
    return ms
  } finally {
    await server.stop()
  }
}
