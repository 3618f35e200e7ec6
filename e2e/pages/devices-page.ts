import { createIdentity, isMemweaveError, openMemory, type RemoteMemory, type SyncState } from '../../src/index.js'

/**
 * The page side of e2e/devices.spec.ts: one device per browser context (its own IndexedDB, its own
 * SharedWorker), opened through the real worker as an application would. The spec drives it with
 * `page.evaluate(() => window.device...)`; everything that must watch or wait without a Playwright
 * round trip in between (arrival times, polling until converged) runs here.
 */

declare global {
  interface Window {
    device: DevicePage
  }
}

const WORKER = new URL('/worker/memory-worker.ts', location.href)

/** The page's clock: `performance.timeOrigin` is an epoch instant, so two pages of one machine read the same clock (sub-ms). */
export const now = (): number => performance.timeOrigin + performance.now()

const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms))

/** One memory of a pool reduced to what every replica must agree on (no importance: it depends on the time of the call). */
export interface CanonicalMemory {
  readonly id: string
  readonly type: string
  readonly content: unknown
  readonly confidence: number
  readonly source: string
  readonly author: string
  readonly timestamp: string
  readonly supersedes: readonly string[]
  readonly merged: unknown
  readonly privacy: unknown
}

/** A pool as one replica holds it, in a canonical order: two replicas converged when these are equal. */
export interface PoolSnapshot {
  readonly memories: readonly CanonicalMemory[]
  readonly conflicts: ReadonlyArray<{ id: string; kind: string; memories: readonly string[]; subject: string }>
  readonly members: ReadonlyArray<{ did: string; read: boolean; write: boolean; owner: boolean }>
  readonly quarantine: ReadonlyArray<{ key: string; reason: string }>
}

export class DevicePage {
  #mem: RemoteMemory | null = null
  #name = ''
  /** Every overall sync state this device reported, in order (repeats collapsed). */
  readonly states: SyncState[] = []
  /** When the pool's size (stored memories) first reached each value: `arrivals[n]` in page-clock ms. */
  readonly arrivals: number[] = []
  #watching = false
  /** Writes of `startWrites` that resolved. */
  acked = 0
  #writing: Promise<void> | null = null

  get mem(): RemoteMemory {
    if (!this.#mem) throw new Error('no memory open: call device.open() first')
    return this.#mem
  }

  /** Opens the device's memory in the worker with a fixed identity (the seed byte repeated), as the Node side derives it too. */
  async open(name: string, seed: number): Promise<string> {
    const identity = await createIdentity({ seed: new Uint8Array(32).fill(seed) })
    this.#name = name
    this.#mem = await openMemory({ name, identity, worker: WORKER, mode: 'shared' })
    await this.#mem.sync.subscribe((s) => {
      if (this.states.at(-1) !== s.state) this.states.push(s.state)
    })
    return identity.did
  }

  async connect(pool: string, url: string, token: string): Promise<void> {
    await this.mem.sync.connect(pool, { url, token })
  }

  /** Polls `probe` until `ok` holds; throws with `what` and the last value after `ms`. */
  async until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
    const deadline = now() + ms
    for (;;) {
      let v: T | undefined
      let failure: unknown = null
      try {
        v = await probe()
        if (ok(v)) return v
      } catch (err) {
        failure = err
      }
      if (now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${failure ? String(failure) : JSON.stringify(v)?.slice(0, 500)}`)
      await sleep(10)
    }
  }

  /** Waits until this replica holds the pool (a pool shared by someone else appears once its records arrive). */
  async untilPoolKnown(pool: string): Promise<void> {
    await this.until(`pool ${pool} on ${this.#name}`, () => this.mem.pools.info(pool), () => true)
  }

  /** Stored memories of the pool (`PoolInfo.size`): not a read, so it writes no `pool-access` record. */
  async size(pool: string): Promise<number> {
    return (await this.mem.pools.info(pool)).size
  }

  async untilSize(pool: string, n: number, ms?: number): Promise<void> {
    await this.until(`${n} memories in ${pool} on ${this.#name}`, () => this.size(pool), (s) => s === n, ms)
  }

  /** Waits until the pool's link is in step with nothing pending either way. */
  async untilSynced(pool: string, ms?: number): Promise<void> {
    await this.until(
      `pool ${pool} synced on ${this.#name}`,
      async () => (await this.mem.sync.status()).pools.find((p) => p.pool === pool),
      (p) => p !== undefined && p.state === 'synced' && p.pending.outgoing === 0 && p.pending.incoming === 0,
      ms,
    )
  }

  /**
   * Records, in the background, when the pool's size first reaches each value. Polled every few ms
   * (a status subscription fires before the pool store has caught up, so polling `info` is the
   * honest probe): the resolution of an arrival time is one poll interval plus one worker round trip.
   */
  watchArrivals(pool: string): void {
    if (this.#watching) return
    this.#watching = true
    void (async () => {
      while (this.#watching) {
        const size = await this.size(pool)
        const t = now()
        for (let n = this.arrivals.length; n <= size; n++) this.arrivals[n] = t
        await sleep(2)
      }
    })()
  }

  stopWatching(): void {
    this.#watching = false
  }

  /** The page-clock time at which the pool first held `n` memories (waits for it). */
  async arrivalOf(n: number, ms = 30_000): Promise<number> {
    await this.until(`arrival #${n}`, async () => this.arrivals[n], (t) => t !== undefined, ms)
    return this.arrivals[n]!
  }

  /** Writes `n` CONTEXT memories one after the other in the background; `acked` counts the resolved ones. */
  startWrites(pool: string, prefix: string, n: number): void {
    this.acked = 0
    this.#writing = (async () => {
      for (let i = 0; i < n; i++) {
        await this.mem.pools.write(pool, { type: 'CONTEXT', content: { subject: `${prefix} ${i}`, predicate: 'noted', object: `${prefix} object ${i}` } })
        this.acked++
      }
    })()
  }

  async writesDone(): Promise<number> {
    await this.#writing
    return this.acked
  }

  /** The pool in canonical form (export is not a read, so this writes nothing). */
  async snapshot(pool: string): Promise<PoolSnapshot> {
    const [exported, conflicts, info, quarantine] = await Promise.all([
      this.mem.pools.export(pool), this.mem.pools.conflicts(pool), this.mem.pools.info(pool), this.mem.sync.quarantine(pool),
    ])
    const memories = exported.memories.map((m) => ({
      id: m.memory_id, type: m.type, content: m.content, confidence: m.metadata.confidence, source: m.metadata.source,
      author: m.metadata.creating_agent, timestamp: m.metadata.timestamp, supersedes: [...m.metadata.supersedes].sort(),
      merged: m.metadata.merged_from, privacy: m.privacy,
    }))
    return {
      memories: memories.sort((a, b) => (a.id < b.id ? -1 : 1)),
      conflicts: conflicts.map((c) => ({ id: c.id, kind: c.kind, memories: [...c.memories].sort(), subject: c.subject })).sort((a, b) => (a.id < b.id ? -1 : 1)),
      members: info.members.map((m) => ({ did: m.did, read: m.read, write: m.write, owner: m.owner })).sort((a, b) => (a.did < b.did ? -1 : 1)),
      quarantine: quarantine.map((q) => ({ key: q.key, reason: q.reason })).sort((a, b) => (a.key < b.key ? -1 : 1)),
    }
  }

  /** The objects of the pool's live memories, sorted. */
  async objects(pool: string): Promise<string[]> {
    return (await this.mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()
  }

  /** The code of the MemweaveError `action` rejects with (errors keep their code across the worker), or 'resolved'. */
  async errorCode(action: () => Promise<unknown>): Promise<string> {
    try {
      await action()
      return 'resolved'
    } catch (err) {
      return isMemweaveError(err) ? err.code : `not a MemweaveError: ${String(err)}`
    }
  }

  /** The pool-create record's nonce: the owner proof a pool token carries so the relay pins the pool to its real owner (docs/relay.md). */
  async poolNonce(pool: string): Promise<string> {
    return (await this.mem.pools.info(pool)).nonce
  }

  /**
   * Every value and key of every object store of every IndexedDB database of this origin, as one
   * text. Byte arrays (the persisted Yjs updates) are spelled out as Latin-1 text, so an ASCII
   * string inside a binary update is found by a plain substring search.
   */
  async rawDump(): Promise<string> {
    const out: Record<string, unknown> = {}
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue
      const db = await openDb(name)
      try {
        for (const store of Array.from(db.objectStoreNames)) {
          const tx = db.transaction(store, 'readonly')
          out[`${name}/${store}:values`] = await request(tx.objectStore(store).getAll())
          out[`${name}/${store}:keys`] = await request(tx.objectStore(store).getAllKeys())
        }
      } finally {
        db.close()
      }
    }
    return JSON.stringify(out, (_k, v: unknown) => {
      if (v instanceof ArrayBuffer) return { bytes: latin1(new Uint8Array(v)) }
      if (ArrayBuffer.isView(v)) return { bytes: latin1(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) }
      return v
    })
  }

  /** Whether any of this origin's IndexedDB holds `text` (searched here: a 10k-memory dump is too big to ship to the test). */
  async rawHas(text: string): Promise<boolean> {
    return (await this.rawDump()).includes(text)
  }

  async close(): Promise<void> {
    this.#watching = false
    await this.#mem?.close()
    this.#mem = null
  }
}

function latin1(bytes: Uint8Array): string {
  let s = ''
  // In chunks: String.fromCharCode(...all) overflows the stack on a large update.
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192))
  return s
}

function openDb(name: string): Promise<IDBDatabase> {
  return new Promise((ok, fail) => {
    const req = indexedDB.open(name)
    req.onsuccess = () => ok(req.result)
    req.onerror = () => fail(req.error)
  })
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((ok, fail) => {
    req.onsuccess = () => ok(req.result)
    req.onerror = () => fail(req.error)
  })
}

window.device = new DevicePage()
