import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'
import { markStoreFormat, storageLabel } from '../records/format-marker.js'
import type { StoragePort } from '../storage/port.js'
import { structAt, writeDeleteSet, writeStructRun } from './yjs-structs.js'

/** A persisted Yjs update of one pool (`syncUpdates` table, schema v3). */
export interface UpdateRow {
  readonly seq?: number
  readonly pool: string
  readonly update: Uint8Array
  /**
   * What a compacted row holds: the structs of one client whose clocks start in one chunk
   * (`s:<client>:<chunk>`, and `s:<client>:<chunk>:<first clock>` for a run cut around a large
   * value) with the deletions among them, or the updates still waiting for what they depend on
   * (`pending`). A store compacted before 0.3.0 also holds the whole delete set in one row (`ds`):
   * the next compaction folds it into the chunks (`UpdateLog.load`). Absent on an appended update.
   */
  readonly part?: string
  /**
   * Clocks per chunk of an `s:` part: CHUNK_CLOCKS (store format 2). Absent on a part written
   * before it (memweave 0.2.0, store format 1): 4,096.
   */
  readonly clocks?: number
}

const TABLE = 'syncUpdates'

/**
 * Clocks per compacted chunk: a record set in the Y.Map is one clock, so about this many records
 * (about 200 kB) a row, and a forget rewrites one such row whatever the pool's size. 0.2.0 wrote
 * chunks of 4,096 clocks (3 MB at 100k records, four times the 1k pool's one chunk): the chunk
 * size is in the part names, so the change is store format 2 (docs/upgrading.md).
 */
export const CHUNK_CLOCKS = 256

/** Clocks per chunk of a part without `clocks` (store format 1, memweave 0.2.0). */
const FORMAT_1_CHUNK_CLOCKS = 4096

/** The whole delete set in one row, written by compactions before 0.3.0: read, and dropped by the next compaction. */
const DS_PART = 'ds'
const PENDING_PART = 'pending'
const structPart = (client: number, chunk: number): string => `s:${client}:${chunk}`

/**
 * A value of about this many bytes or more is a part of its own (`runsOf`). The owner's checkpoints
 * are such values (64 kB for each 2,000 records they cover, written one after the other; a pool
 * record is about 1 kB): in a chunk with them, every tombstone written after them rewrote them all
 * (320 kB at 10k records, 3.2 MB at 100k).
 */
export const LARGE_STRUCT_BYTES = 16 * 1024

/**
 * Chunks a step ahead writes (`compact` with `chunks`, the sync loop's): about 2 MB encoded, tens
 * of ms; and a log is `behind` when more than this many are due.
 */
export const AHEAD_CHUNKS = 8

/** About how many bytes `v` encodes to, counted up to `limit` (string lengths, 8 a scalar). */
function approxBytes(v: unknown, limit: number): number {
  if (typeof v === 'string') return v.length
  if (v instanceof Uint8Array) return v.length
  if (v === null || typeof v !== 'object') return 8
  let n = 0
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    n += approxBytes(x, limit - n) + 4
    if (n >= limit) break
  }
  return n
}

/**
 * `isLarge` of a `ContentAny`, by its values' array. Without it each compaction estimated again
 * every value of every chunk it rewrote (about 38% of a compaction at 100k records, issue 31), so a
 * chunk touched by one forget paid for its 256 values each time. Keyed by the array, not the
 * content: Yjs replaces `arr` whenever it splits or merges a content (`splice`, `mergeWith`), and a
 * value set in the document is never changed in place, so an array's answer holds while it lives.
 */
const largeAny = new WeakMap<readonly unknown[], boolean>()

function isLarge(struct: Y.Item | Y.GC): boolean {
  if (!(struct instanceof Y.Item)) return false
  const c = struct.content
  if (c instanceof Y.ContentAny) {
    let large = largeAny.get(c.arr)
    if (large === undefined) largeAny.set(c.arr, (large = approxBytes(c.arr, LARGE_STRUCT_BYTES) >= LARGE_STRUCT_BYTES))
    return large
  }
  if (c instanceof Y.ContentString) return c.str.length >= LARGE_STRUCT_BYTES
  if (c instanceof Y.ContentBinary) return c.content.length >= LARGE_STRUCT_BYTES
  return false
}

/** A run of one client's structs `structs[from..to)`, the first at `clock`: one part. */
interface Run {
  readonly part: string
  readonly from: number
  readonly to: number
  readonly clock: number
  /** One past the run's last clock. */
  readonly end: number
}

/**
 * The parts of `client`'s structs whose first clock lies in `chunk`: runs cut before and after
 * each large value, so that a value of its own is rewritten only when it changes, not when a
 * neighbour of its chunk does. The first run is `s:<client>:<chunk>`, a later one
 * `s:<client>:<chunk>:<first clock>`. Empty when the chunk holds no struct.
 */
function runsOf(structs: ReadonlyArray<Y.Item | Y.GC>, client: number, chunk: number): Run[] {
  const from = chunk * CHUNK_CLOCKS
  let i = structAt(structs, from)
  if (structs[i]!.id.clock < from) i++
  let end = i
  while (end < structs.length && structs[end]!.id.clock < from + CHUNK_CLOCKS) end++
  const runs: Run[] = []
  const cut = (a: number, b: number): void => {
    if (a === b) return
    const clock = structs[a]!.id.clock
    const part = runs.length === 0 ? structPart(client, chunk) : `${structPart(client, chunk)}:${clock}`
    runs.push({ part, from: a, to: b, clock, end: structs[b - 1]!.id.clock + structs[b - 1]!.length })
  }
  let start = i
  for (let k = i; k < end; k++) {
    if (!isLarge(structs[k]!)) continue
    cut(start, k)
    cut(k, k + 1)
    start = k + 1
  }
  cut(start, end)
  return runs
}

/**
 * One run as a V1 update: its structs, and the deletions among them as its delete set. Each part
 * carries its own clocks' deletions, so a compaction writes what it rewrites and nothing more: a
 * delete set of the whole document in a row of its own (`ds`, before 0.3.0) was encoded from every
 * struct of the pool at each compaction (`Y.createDeleteSetFromStructStore`: 0.75 s of five forgets
 * at 100k records, issue 31). A deletion is a transaction that touches the deleted clocks
 * (`noteTransaction`), so the run holding them is rewritten with it.
 */
function encodeRun(structs: ReadonlyArray<Y.Item | Y.GC>, client: number, run: Run): Uint8Array {
  const encoder = new Y.UpdateEncoderV1()
  encoding.writeVarUint(encoder.restEncoder, 1)
  writeStructRun(encoder, client, structs, run.from, run.to, run.clock)
  const deleted: Array<{ clock: number; len: number }> = []
  for (let k = run.from; k < run.to; k++) {
    const s = structs[k]!
    if (!s.deleted) continue
    const last = deleted.at(-1)
    // Yjs merges neighbouring ranges when it writes a delete set: so does this.
    if (last && last.clock + last.len === s.id.clock) last.len += s.length
    else deleted.push({ clock: s.id.clock, len: s.length })
  }
  writeDeleteSet(encoder, { clients: deleted.length ? new Map([[client, deleted]]) : new Map() })
  return encoder.toUint8Array()
}

/** The chunk part a run's part belongs to (`s:<client>:<chunk>`). */
function chunkOf(part: string): string {
  const parts = part.split(':')
  return parts.length > 3 ? parts.slice(0, 3).join(':') : part
}

/** Parts in the order a load applies them: each client's chunks in clock order (no struct waits for an earlier one), then the rest. */
function partOrder(row: UpdateRow): [number, number, number] {
  if (row.part!.startsWith('s:')) {
    const [, client, chunk, clock] = row.part!.split(':')
    return [0, Number(client), clock === undefined ? Number(chunk) * (row.clocks ?? FORMAT_1_CHUNK_CLOCKS) : Number(clock)]
  }
  return [row.part === DS_PART ? 1 : 2, 0, 0]
}

/**
 * The persisted Yjs updates of one pool's document: updates appended as they come (one row per
 * batch), replayed on open, and compacted. Compaction is what makes a hard delete leave no byte on
 * disk (DESIGN.md "Runtime"): the forgotten record's key was deleted from the Y.Map and Yjs's
 * garbage collection (the documents are made with `gc: true`) replaced the deleted value by its
 * length, so rows written from the document afterwards no longer hold it, and the rows that did
 * are dropped in the same transaction.
 *
 * A compacted log is a set of parts written from the live document: each client's structs in
 * chunks of CHUNK_CLOCKS clocks, each with the deletions among its structs, and the pending
 * updates. A compaction rewrites
 * only the chunks that transactions touched since the last one (`noteTransaction`: new structs,
 * deleted ones, and the structs Yjs merged them with) and drops the appended rows, which those
 * chunks now hold. Writing the whole state instead (`Y.encodeStateAsUpdate`) was O(pool) per
 * forget: 1 to 4 s at 100k records on each device, for one forgotten memory.
 *
 * Why the live document and not a fresh one rebuilt from the live records: a fresh document gives
 * every record a new Yjs item under a new client id, so every peer would receive every record
 * again after each compaction, and the rows would no longer describe the document this replica
 * keeps syncing with its peers. test/sync/sync-hard-delete.test.ts scans the raw rows to hold it to
 * that; test/sync/sync-update-log.test.ts holds a reload from the parts to the live document.
 */
export class UpdateLog {
  readonly #storage: StoragePort
  readonly #pool: string
  #buffer: Uint8Array[] = []
  /** Seqs of the appended rows since the last compaction. */
  #appended: number[] = []
  /** Seq of each compacted part. */
  #parts = new Map<string, number>()
  /** The names of the `s:` parts held, by chunk (`s:<client>:<chunk>`): a chunk's runs without a look at every part. */
  #runs = new Map<string, Set<string>>()
  /**
   * Chunks touched since the last compaction, with the clock ranges touched in each (flat pairs),
   * or null: all of them, in one compaction (parts of another chunk size or a `ds` row, whose
   * rewrite cannot be split: a new part would replace an old one of the same name and other clocks).
   */
  #dirty: Map<string, number[]> | null = null
  /**
   * Chunks to rewrite whole before the appended rows can go (rows of unknown extent: a join's
   * exchange of states, an open's rows of an earlier session, nothing compacted yet): `'all'` until
   * the first `compact` lists them from the document, then those not written yet; null when none.
   * `compact` with a `chunks` limit writes some of them ahead (`behind`), so that the forget that
   * finally drops the rows rewrites only what is left (issue 31: the first forget after a join of
   * 100k records rewrote every chunk on each device, seconds).
   */
  #rest: Set<string> | 'all' | null = 'all'

  constructor(storage: StoragePort, pool: string) {
    this.#storage = storage
    this.#pool = pool
  }

  /**
   * Whether more than AHEAD_CHUNKS chunks wait for a rewrite before the appended rows can go (a
   * join's, an open's): `compact` with a `chunks` limit writes them ahead.
   */
  get behind(): boolean {
    const dirty = this.#dirty
    if (dirty === null || this.#rest === 'all') return dirty !== null
    return this.#due(this.#rest, dirty) > AHEAD_CHUNKS
  }

  /**
   * How many chunks a step ahead (`compact` with `chunks`) could write now: those to rewrite whole
   * and those touched since the last compaction; Infinity before the first compaction has listed
   * them (all of them are due); 0 for a log whose rewrite cannot be split (0.2.0's parts, a `ds`
   * row: one compaction rewrites it all).
   */
  get due(): number {
    const dirty = this.#dirty
    if (dirty === null) return 0
    return this.#rest === 'all' ? Infinity : this.#due(this.#rest, dirty)
  }

  /** How many chunks a compaction would write now: those to rewrite whole, and those touched. */
  #due(rest: ReadonlySet<string> | null, dirty: ReadonlyMap<string, number[]>): number {
    let n = rest?.size ?? 0
    for (const chunk of dirty.keys()) if (!rest?.has(chunk)) n++
    return n
  }

  /** Rows appended since the last compaction (what `compactEvery` is compared with). */
  get rows(): number {
    return this.#appended.length
  }

  get buffered(): number {
    return this.#buffer.length
  }

  /** Every persisted update of the pool, in an order that applies without waiting: compacted parts first, then appended rows oldest first. */
  async load(): Promise<Uint8Array[]> {
    const rows = await this.#storage.read([TABLE], (tx) => tx.where<UpdateRow>(TABLE, 'pool', this.#pool))
    const parts = rows.filter((r) => typeof r.part === 'string')
    const appended = rows.filter((r) => typeof r.part !== 'string').sort((a, b) => a.seq! - b.seq!)
    parts.sort((a, b) => {
      const [x, y] = [partOrder(a), partOrder(b)]
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
    })
    this.#parts = new Map()
    this.#runs = new Map()
    for (const r of parts) this.#setPart(r.part!, r.seq!)
    this.#appended = appended.map((r) => r.seq!)
    // Appended rows of an earlier session: what they touched is not known here, so the next
    // compaction rewrites every chunk. So it does for parts of another chunk size (0.2.0's): their
    // names mean other clocks, and the one rewrite replaces them all (the re-chunk of format 2).
    const rechunk = parts.some((r) => r.part!.startsWith('s:') && r.clocks !== CHUNK_CLOCKS)
    // And for a delete set in a row of its own (a compaction before 0.3.0, or by such a build after
    // a rollback): chunks it wrote carry no deletions, so the rewrite of every chunk folds them in
    // and drops that row.
    const separateDs = this.#parts.has(DS_PART)
    const whole = rechunk || separateDs
    this.#dirty = whole ? null : new Map()
    this.#rest = whole || (parts.length > 0 && appended.length === 0) ? null : 'all'
    return [...parts, ...appended].map((r) => r.update)
  }

  /** Queues an update; `flush()` writes the queue as one row. */
  append(update: Uint8Array): void {
    this.#buffer.push(update)
  }

  /**
   * A transaction of the document was cleaned up (new structs integrated, deleted ones collected
   * and merged): the chunks it touched are rewritten by the next compaction.
   */
  noteTransaction(tr: Y.Transaction): void {
    const dirty = this.#dirty
    if (dirty === null) return
    const store = tr.doc.store
    const touch = (client: number, from: number, to: number): void => {
      const structs = store.clients.get(client)
      if (!structs || structs.length === 0 || to <= from) return
      // These clocks, widened to the structs holding them now (a collected struct may have merged
      // with neighbours), in every chunk they reach.
      const first = structs[structAt(structs, from)]!
      const last = structs[structAt(structs, to - 1)]!
      const lo = Math.min(from, first.id.clock)
      const hi = Math.max(to, last.id.clock + last.length)
      for (let c = Math.floor(lo / CHUNK_CLOCKS); c <= Math.floor((hi - 1) / CHUNK_CLOCKS); c++) {
        const part = structPart(client, c)
        const ranges = dirty.get(part)
        if (ranges) ranges.push(lo, hi)
        else dirty.set(part, [lo, hi])
      }
    }
    tr.afterState.forEach((clock, client) => touch(client, tr.beforeState.get(client) ?? 0, clock))
    for (const [client, items] of tr.deleteSet.clients) for (const item of items) touch(client, item.clock, item.clock + item.len)
  }

  async flush(): Promise<void> {
    if (this.#buffer.length === 0) return
    const batch = this.#buffer
    this.#buffer = []
    const update = batch.length === 1 ? batch[0]! : Y.mergeUpdates(batch)
    const [seq] = await this.#storage.write([TABLE], (tx) => tx.put(TABLE, [{ pool: this.#pool, update }]))
    this.#appended.push(seq as number)
  }

  /**
   * Rewrites the chunks touched since the last compaction (and those of `behind`: all of them the
   * first time), each with its deletions, and the pending updates from the document, and drops the
   * appended rows and the parts replaced, in one transaction. Drops the queue too: the document
   * covers it, and a queued update may still hold a value deleted since.
   *
   * With `chunks`, a step ahead: when more chunks than that are due (to be rewritten whole, or
   * touched since the last compaction), that many of them and nothing else: the appended rows stay
   * until the compaction that drops them, which then writes only what is still due. Nothing when no
   * more are due. A bounded step the sync loop takes when it has nothing else to do.
   */
  async compact(doc: Y.Doc, options: { readonly chunks?: number } = {}): Promise<void> {
    const dirty = this.#dirty
    const rest = this.#rest === 'all' ? (this.#rest = this.#allChunks(doc)) : this.#rest
    const ahead = options.chunks !== undefined
    if (ahead && (dirty === null || this.#due(rest, dirty) <= options.chunks!)) return
    if (!ahead) this.#buffer = []
    const chunks = new Set<string>()
    if (ahead) {
      for (const chunk of [...(rest ?? []), ...dirty!.keys()]) {
        if (chunks.size >= options.chunks!) break
        chunks.add(chunk)
      }
    } else {
      for (const chunk of dirty?.keys() ?? []) chunks.add(chunk)
      for (const chunk of rest ?? []) chunks.add(chunk)
    }
    const puts: UpdateRow[] = []
    const gone: string[] = []
    if (dirty === null) {
      for (const chunk of this.#allChunks(doc)) chunks.add(chunk)
      gone.push(DS_PART)
    }
    for (const chunk of chunks) {
      const [, client, index] = chunk.split(':')
      const structs = doc.store.clients.get(Number(client))
      const runs = structs && structs.length > 0 ? runsOf(structs, Number(client), Number(index)) : []
      const whole = dirty === null || rest?.has(chunk) === true
      const ranges = dirty?.get(chunk) ?? []
      const touched = (run: Run): boolean => {
        for (let r = 0; r < ranges.length; r += 2) if (ranges[r]! < run.end && ranges[r + 1]! > run.clock) return true
        return false
      }
      // A run no transaction touched, already a part under its name, holds what it held.
      for (const run of runs) {
        if (!whole && this.#parts.has(run.part) && !touched(run)) continue
        puts.push({ pool: this.#pool, update: encodeRun(structs!, Number(client), run), part: run.part, clocks: CHUNK_CLOCKS })
      }
      const names = new Set(runs.map((r) => r.part))
      for (const part of this.#runs.get(chunk) ?? []) if (!names.has(part)) gone.push(part)
    }
    if (ahead) {
      await this.#write(puts, gone, [])

      // Written from the document as it is now: what touched these chunks before is in them.
      for (const chunk of chunks) {
        rest?.delete(chunk)
        dirty!.delete(chunk)
      }
      return
    }
    const pending = [doc.store.pendingStructs?.update, doc.store.pendingDs].filter((u): u is Uint8Array => u instanceof Uint8Array)
    if (pending.length) puts.push({ pool: this.#pool, update: pending.length === 1 ? pending[0]! : Y.mergeUpdates(pending), part: PENDING_PART })
    else gone.push(PENDING_PART)
    await this.#write(puts, gone, this.#appended)
    this.#appended = []
    this.#dirty = new Map()
    this.#rest = null
  }

  /** Every chunk of the document's structs, and every chunk a part is held for (the document may have no structs there any more). */
  #allChunks(doc: Y.Doc): Set<string> {
    const chunks = new Set<string>()
    for (const [client, structs] of doc.store.clients) {
      if (structs.length === 0) continue
      const end = structs.at(-1)!.id.clock + structs.at(-1)!.length
      for (let c = 0; c * CHUNK_CLOCKS < end; c++) chunks.add(structPart(client, c))
    }
    for (const chunk of this.#runs.keys()) chunks.add(chunk)
    return chunks
  }

  /** Puts `puts`, dropping the parts they replace, the parts `gone` and the rows `appended`, in one transaction. */
  async #write(puts: UpdateRow[], gone: readonly string[], appended: readonly number[]): Promise<void> {
    const replaced = [...puts.map((p) => p.part!), ...gone].flatMap((part) => {
      const seq = this.#parts.get(part)
      return seq === undefined ? [] : [seq]
    })
    const drop = [...appended, ...replaced]
    // The store's format marker in the same transaction as the parts: a build that reads only
    // format 1 (4,096-clock names) refuses the store before it could read or rewrite them wrongly.
    const seqs = await this.#storage.write([TABLE, 'meta'], async (tx) => {
      await markStoreFormat(tx, storageLabel(this.#storage))
      if (drop.length) await tx.delete(TABLE, drop)
      return tx.put(TABLE, puts)
    })
    for (const part of gone) this.#deletePart(part)
    puts.forEach((p, i) => this.#setPart(p.part!, seqs[i] as number))
  }

  #setPart(part: string, seq: number): void {
    this.#parts.set(part, seq)
    if (!part.startsWith('s:')) return
    const chunk = chunkOf(part)
    const runs = this.#runs.get(chunk)
    if (runs) runs.add(part)
    else this.#runs.set(chunk, new Set([part]))
  }

  #deletePart(part: string): void {
    if (!this.#parts.delete(part) || !part.startsWith('s:')) return
    const chunk = chunkOf(part)
    const runs = this.#runs.get(chunk)
    runs?.delete(part)
    if (runs?.size === 0) this.#runs.delete(chunk)
  }

  /** Removes every row of the pool (the pool stops being replicated here). */
  async clear(): Promise<void> {
    this.#buffer = []
    await this.#storage.write([TABLE], async (tx) => {
      const old = await tx.where<UpdateRow>(TABLE, 'pool', this.#pool)
      await tx.delete(TABLE, old.map((r) => r.seq!))
    })
    this.#appended = []
    this.#parts.clear()
    this.#runs.clear()
    this.#dirty = new Map()
    this.#rest = 'all'
  }
}
