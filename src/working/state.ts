import type { StoredRecord } from '../storage/schema.js'
import {
  Kind, pairKey, type AccessBody, type AttentionBody, type CheckpointBody, type ConflictBody, type EvictBody,
  type ObservationBody, type ResolveBody,
} from './records.js'

export interface ObservationEntry {
  readonly id: string
  readonly hlc: string
  readonly body: ObservationBody
}

interface Stamped<B> {
  readonly id: string
  readonly hlc: string
  readonly body: B
}

type Op = Stamped<AttentionBody | AccessBody | CheckpointBody> & { readonly kind: string }

export interface Access {
  readonly count: number
  readonly by: ReadonlySet<string>
}

const before = (a: { hlc: string; id: string }, b: { hlc: string; id: string }): boolean =>
  a.hlc < b.hlc || (a.hlc === b.hlc && a.id < b.id)

/**
 * The materialized state of one task's pool: a pure function of its record set. Observations,
 * evictions, conflicts and resolutions are sets (duplicates keep the earliest stamp). Attention
 * and access are folds over the observation and op records in stamp (HLC) order: decay multiplies
 * every observation that existed before it, boost adds to one (capped at 1), a checkpoint sets
 * what it lists. The fold is kept incrementally while records arrive in order, and recomputed
 * from scratch when one arrives out of order, so the result never depends on arrival order.
 */
export class TaskState {
  readonly task: string
  readonly observations = new Map<string, ObservationEntry>()
  readonly evictions = new Map<string, Stamped<EvictBody>>()
  readonly conflicts = new Map<string, Stamped<ConflictBody>>()
  readonly resolutions = new Map<string, Stamped<ResolveBody>>()
  readonly #ops = new Map<string, Op>()
  #weights = new Map<string, number>()
  #access = new Map<string, { count: number; by: Set<string> }>()
  /** The stamp of the last observation or op folded; anything earlier forces a refold. */
  #folded: { hlc: string; id: string } = { hlc: '', id: '' }
  #dirty = false

  constructor(task: string) {
    this.task = task
  }

  clear(): void {
    this.observations.clear()
    this.evictions.clear()
    this.conflicts.clear()
    this.resolutions.clear()
    this.#ops.clear()
    this.#weights.clear()
    this.#access.clear()
    this.#folded = { hlc: '', id: '' }
    this.#dirty = false
  }

  /** Applies one record of this task; idempotent. */
  apply(r: StoredRecord): void {
    switch (r.kind) {
      case Kind.OBSERVATION: {
        if (this.observations.has(r.id)) return
        const e: ObservationEntry = { id: r.id, hlc: r.hlc, body: r.body as ObservationBody }
        this.observations.set(r.id, e)
        this.#fold(e, () => this.#initWeight(e))
        return
      }
      case Kind.EVICT:
        return keepEarliest(this.evictions, (r.body as EvictBody).target, r)
      case Kind.CONFLICT: {
        const b = r.body as ConflictBody
        return keepEarliest(this.conflicts, pairKey(b.a, b.b), r)
      }
      case Kind.RESOLVE: {
        const b = r.body as ResolveBody
        return keepEarliest(this.resolutions, pairKey(b.a, b.b), r)
      }
      case Kind.ATTENTION:
      case Kind.ACCESS:
      case Kind.CHECKPOINT: {
        if (this.#ops.has(r.id)) return
        const op: Op = { id: r.id, hlc: r.hlc, kind: r.kind, body: r.body as Op['body'] }
        this.#ops.set(r.id, op)
        this.#fold(op, () => this.#applyOp(op))
        return
      }
    }
  }

  /** A record of this task was deleted (folded into a checkpoint). */
  forget(id: string): void {
    if (this.#ops.delete(id)) this.#dirty = true
  }

  /** Op records (attention, access, checkpoints), for compaction. */
  get ops(): ReadonlyArray<{ readonly id: string; readonly hlc: string; readonly kind: string }> {
    return [...this.#ops.values()]
  }

  isLive(id: string): boolean {
    return this.observations.has(id) && !this.evictions.has(id)
  }

  live(): ObservationEntry[] {
    return [...this.observations.values()].filter((o) => !this.evictions.has(o.id))
  }

  weight(id: string): number {
    this.#refold()
    return this.#weights.get(id) ?? this.observations.get(id)?.body.attention ?? 0
  }

  access(id: string): Access {
    this.#refold()
    return this.#access.get(id) ?? { count: 0, by: new Set() }
  }

  /** Conflicts not yet resolved whose two observations are both live. */
  openConflicts(): Array<Stamped<ConflictBody>> {
    return [...this.conflicts.entries()]
      .filter(([key, c]) => !this.resolutions.has(key) && this.isLive(c.body.a) && this.isLive(c.body.b))
      .map(([, c]) => c)
  }

  /** Observations that lost a reconciliation (the other one was kept). */
  rejected(): Set<string> {
    const out = new Set<string>()
    for (const r of this.resolutions.values()) {
      if (r.body.keep === null) continue
      out.add(r.body.keep === r.body.a ? r.body.b : r.body.a)
    }
    return out
  }

  // ---- the attention and access fold ----

  #fold(item: { hlc: string; id: string }, step: () => void): void {
    if (this.#dirty || before(item, this.#folded)) {
      this.#dirty = true
      return
    }
    step()
    this.#folded = { hlc: item.hlc, id: item.id }
  }

  #refold(): void {
    if (!this.#dirty) return
    this.#weights = new Map()
    this.#access = new Map()
    const events: Array<{ hlc: string; id: string; run: () => void }> = [
      ...[...this.observations.values()].map((e) => ({ hlc: e.hlc, id: e.id, run: () => this.#initWeight(e) })),
      ...[...this.#ops.values()].map((op) => ({ hlc: op.hlc, id: op.id, run: () => this.#applyOp(op) })),
    ]
    events.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
    for (const e of events) e.run()
    const last = events.at(-1)
    this.#folded = last ? { hlc: last.hlc, id: last.id } : { hlc: '', id: '' }
    this.#dirty = false
  }

  #initWeight(e: ObservationEntry): void {
    if (!this.#weights.has(e.id)) this.#weights.set(e.id, e.body.attention)
  }

  #applyOp(op: Op): void {
    if (op.kind === Kind.ATTENTION) {
      const b = op.body as AttentionBody
      if (b.op === 'decay') {
        for (const [id, w] of this.#weights) this.#weights.set(id, w * b.factor)
      } else if (this.#weights.has(b.target)) {
        this.#weights.set(b.target, Math.min(1, Math.max(0, this.#weights.get(b.target)! + b.amount)))
      }
    } else if (op.kind === Kind.ACCESS) {
      const b = op.body as AccessBody
      for (const t of b.targets) {
        let a = this.#access.get(t)
        if (!a) this.#access.set(t, (a = { count: 0, by: new Set() }))
        a.count++
        a.by.add(b.agent)
      }
    } else {
      const b = op.body as CheckpointBody
      for (const [id, w] of Object.entries(b.weights)) this.#weights.set(id, w)
      for (const [id, [count, by]] of Object.entries(b.access)) this.#access.set(id, { count, by: new Set(by) })
    }
  }

  /** The folded attention and access of every live observation, for a checkpoint. */
  snapshot(): CheckpointBody {
    this.#refold()
    const weights: Record<string, number> = {}
    const access: Record<string, readonly [number, readonly string[]]> = {}
    for (const o of this.live()) {
      weights[o.id] = this.#weights.get(o.id) ?? o.body.attention
      const a = this.#access.get(o.id)
      if (a) access[o.id] = [a.count, [...a.by].sort()]
    }
    return { task: this.task, weights, access }
  }
}

function keepEarliest<B>(map: Map<string, Stamped<B>>, key: string, r: StoredRecord): void {
  const old = map.get(key)
  const next = { id: r.id, hlc: r.hlc, body: r.body as B }
  if (!old || before(next, old)) map.set(key, next)
}
