import type { WriteTx } from '../storage/port.js'
import type { LogRow, StoredRecord } from '../storage/schema.js'
import type { Analysis } from './conflict/detector.js'
import { chooseEvictions } from './eviction.js'
import { Kind, makeRecord, type BodyOf } from './records.js'
import type { TaskState } from './state.js'

export interface VectorRow {
  readonly ref: string
  readonly embedder: string
  readonly vec: Float32Array
}

/** What a Writer needs from the store it writes for. */
export interface WriterHost {
  stamp(): string
  readonly author: string | null
  readonly vectorId: string
  state(task: string): TaskState | undefined
  analysis(id: string): Analysis | undefined
  remember(id: string, text: string, vector: Float32Array): void
}

/**
 * The write side of one storage transaction: records are applied to the materialized state at
 * once (so later ops in the same batch see them) and written when the batch ends. Only the
 * transaction's own methods are awaited (port.ts).
 */
export class Writer {
  readonly tx: WriteTx
  readonly #host: WriterHost
  readonly #records: StoredRecord[] = []
  readonly #vectors: VectorRow[] = []
  readonly #deletedRecords: string[] = []
  readonly #deletedVectors: string[] = []
  readonly touched = new Set<string>()

  constructor(tx: WriteTx, host: WriterHost) {
    this.tx = tx
    this.#host = host
  }

  state(task: string): TaskState {
    const s = this.#host.state(task)
    if (!s) throw new Error(`working memory: task ${task} is not open`)
    return s
  }

  /** Makes, applies and queues one record; its stamp is later than every record seen so far. */
  put<K extends keyof BodyOf & string>(kind: K, body: BodyOf[K] & { task: string }): StoredRecord {
    const record = makeRecord(kind as never, body as never, this.#host.author, this.#host.stamp())
    this.state(body.task).apply(record)
    this.#records.push(record)
    this.touched.add(body.task)
    return record
  }

  /** Applies and queues a record made (and signed) before the transaction: a shared task's observation. */
  putMade(record: StoredRecord): StoredRecord {
    const task = (record.body as { task: string }).task
    this.state(task).apply(record)
    this.#records.push(record)
    this.touched.add(task)
    return record
  }

  putVector(id: string, analysis: Analysis): void {
    this.#vectors.push({ ref: id, embedder: this.#host.vectorId, vec: analysis.vector })
  }

  /** Makes sure the analyses of `ids` are in memory, reading stored topic vectors in this transaction. */
  async loadVectors(ids: readonly string[], task: string): Promise<void> {
    const missing = ids.filter((id) => !this.#host.analysis(id))
    if (missing.length === 0) return
    const rows = await this.tx.getMany<VectorRow>('vectors', missing)
    const state = this.state(task)
    rows.forEach((row, i) => {
      const obs = state.observations.get(missing[i]!)
      if (row && obs && row.embedder === this.#host.vectorId) this.#host.remember(obs.id, obs.body.content, row.vec)
    })
  }

  /** Evicts what capacity requires (eviction.ts), recording attention and access at eviction. */
  enforceCapacity(task: string, limits: { maxItemsPerAgent: number; maxTotalItems: number }): string[] {
    const state = this.state(task)
    const live = state.live().map((o) => ({ id: o.id, agent: o.body.agent, weight: state.weight(o.id), hlc: o.hlc }))
    const victims = chooseEvictions(live, limits)
    for (const { item, reason } of victims) {
      const access = state.access(item.id)
      this.put(Kind.EVICT, {
        task,
        target: item.id,
        reason,
        weight: item.weight,
        accessCount: access.count,
        accessedBy: [...access.by].sort(),
      })
      this.#deletedVectors.push(item.id)
    }
    return victims.map((v) => v.item.id)
  }

  /** Folds a task's attention and access records into one checkpoint and deletes them. */
  compact(task: string): void {
    const state = this.state(task)
    const old = state.ops.map((o) => o.id)
    this.put(Kind.CHECKPOINT, state.snapshot())
    for (const id of old) state.forget(id)
    this.#deletedRecords.push(...old)
  }

  /** Writes everything queued; returns the log rows written. */
  async finish(): Promise<number[]> {
    const tx = this.tx
    if (this.#records.length) await tx.put('records', this.#records)
    if (this.#vectors.length) await tx.put('vectors', this.#vectors)
    if (this.#deletedRecords.length) await tx.delete('records', this.#deletedRecords)
    if (this.#deletedVectors.length) await tx.delete('vectors', this.#deletedVectors)
    const rows: LogRow[] = [
      ...this.#records.map((r) => ({ ref: r.id, op: 'put' as const })),
      ...this.#deletedRecords.map((ref) => ({ ref, op: 'del' as const })),
    ]
    return rows.length ? ((await tx.put('log', rows)) as number[]) : []
  }
}
