import type { LogWriter } from '../records/types.js'
import type { StoredRecord } from '../storage/schema.js'
import type { Analysis } from './conflict/detector.js'
import { chooseEvictions } from './eviction.js'
import { Kind, type BodyOf } from './records.js'
import type { TaskState } from './state.js'

/** Fold a task's attention and access records into a checkpoint once it has this many. */
const COMPACT_AT = 256

export interface VectorRow {
  readonly ref: string
  readonly embedder: string
  readonly vec: Float32Array
}

/** What a Writer needs from the store it writes for. */
export interface WriterHost {
  /** A new local record of this Memory, stamped by its one clock (RecordLog.seal). */
  seal(kind: string, body: unknown): StoredRecord
  readonly vectorId: string
  state(task: string): TaskState | undefined
  analysis(id: string): Analysis | undefined
  remember(id: string, text: string, vector: Float32Array): void
}

/**
 * Working memory's side of one write in the record log's batch: records go through `w.append`,
 * which applies them to the task's state at once (the store's deriver), so later steps of the same
 * write see them; topic vectors go into the batch's transaction. Await only `w` (records/types.ts).
 */
export class Writer {
  readonly #w: LogWriter
  readonly #host: WriterHost
  readonly #touched = new Set<string>()

  constructor(w: LogWriter, host: WriterHost) {
    this.#w = w
    this.#host = host
  }

  state(task: string): TaskState {
    const s = this.#host.state(task)
    if (!s) throw new Error(`working memory: task ${task} is not open`)
    return s
  }

  /** Makes and appends one record; its stamp is later than every record seen so far. */
  put<K extends keyof BodyOf & string>(kind: K, body: BodyOf[K] & { task: string }): Promise<StoredRecord> {
    return this.putMade(this.#host.seal(kind, body))
  }

  /** Appends a record made (and signed) before the write: a shared task's observation. */
  async putMade(record: StoredRecord): Promise<StoredRecord> {
    const task = (record.body as { task: string }).task
    this.state(task)
    await this.#w.append([record])
    this.#touched.add(task)
    return record
  }

  putVector(id: string, analysis: Analysis): Promise<unknown> {
    return this.#w.tx.put('vectors', [{ ref: id, embedder: this.#host.vectorId, vec: analysis.vector } satisfies VectorRow])
  }

  /** Makes sure the analyses of `ids` are in memory, reading stored topic vectors in this transaction. */
  async loadVectors(ids: readonly string[], task: string): Promise<void> {
    const missing = ids.filter((id) => !this.#host.analysis(id))
    if (missing.length === 0) return
    const rows = await this.#w.tx.getMany<VectorRow>('vectors', missing)
    const state = this.state(task)
    rows.forEach((row, i) => {
      const obs = state.observations.get(missing[i]!)
      if (row && obs && row.embedder === this.#host.vectorId) this.#host.remember(obs.id, obs.body.content, row.vec)
    })
  }

  /** Evicts what capacity requires (eviction.ts), recording attention and access at eviction. */
  async enforceCapacity(task: string, limits: { maxItemsPerAgent: number; maxTotalItems: number }): Promise<string[]> {
    const state = this.state(task)
    const live = state.live().map((o) => ({ id: o.id, agent: o.body.agent, weight: state.weight(o.id), hlc: o.hlc }))
    const victims = chooseEvictions(live, limits)
    for (const { item, reason } of victims) {
      const access = state.access(item.id)
      await this.put(Kind.EVICT, {
        task,
        target: item.id,
        reason,
        weight: item.weight,
        accessCount: access.count,
        accessedBy: [...access.by].sort(),
      })
    }
    if (victims.length) await this.#w.tx.delete('vectors', victims.map((v) => v.item.id))
    return victims.map((v) => v.item.id)
  }

  /** Ends the write: a task holding COMPACT_AT attention and access records has them folded into one checkpoint, deleted in the same transaction. */
  async finish(): Promise<void> {
    for (const task of this.#touched) {
      const state = this.state(task)
      if (state.ops.length < COMPACT_AT) continue
      const old = state.ops.map((o) => o.id)
      await this.put(Kind.CHECKPOINT, state.snapshot())
      await this.#w.remove(old)
    }
  }
}
