import { Capability } from '../facts/capabilities.js'
import type { FactRef, FactStore, Memory as Fact } from '../facts/types.js'
import type { LiveMemory, Structure, View } from './state.js'

/**
 * One truth, two views: a pool memory that is a fact also appears in `mem.facts`, written through
 * the public FactStore API (`write` / `supersede` / `delete`) in the pool's tenant with metadata
 * `{subject, predicate, object, importance, pool, memoryId, memoryType, confidence, context?}`.
 *
 * The pool record is authoritative; the fact is a projection of it that this module keeps in step:
 * - a memory is a fact when its type is in the pool's `factTypes` policy (KNOWLEDGE, PREFERENCE,
 *   RELATIONSHIP, TEMPORAL by default), it is not EPHEMERAL, and the pool is not encrypted (a fact
 *   view would put plaintext in storage);
 * - a new current memory gets a fact; an update (or a merge) supersedes its predecessor's fact, so
 *   GMP's chain, valid-until and as-of queries hold (a merge continues the chain of its newest
 *   source; the other sources' facts are removed from current answers by deletion);
 * - forgetting a memory (forget, cascade, TTL, pruning) hard-deletes every fact version of it,
 *   through GMP HARD_DELETE, so nothing of it survives in `mem.facts`' storage either;
 * - a memory that stops being current (conflict lost, merged away) loses its head fact.
 * Views are created only for memories a pool operation just made current (`dirty`), so a fact the
 * caller deleted through `mem.facts.delete` is not resurrected by a later unrelated operation.
 * `metadata.importance` is the memory's importance / 10000 when its view was written; the pool's
 * value moves with reads, the fact's does not (fact records are immutable).
 * The view needs AUDIT, HARD_DELETE and SUPERSESSION_CHAIN (and MULTI_TENANT for a pool with a
 * tenant); without them it is off.
 */
export class FactView {
  readonly #facts: FactStore | null
  #caps: Promise<ReadonlySet<string>> | undefined

  constructor(facts: FactStore | null) {
    this.#facts = facts
  }

  async enabled(s: Structure): Promise<boolean> {
    if (!this.#facts || s.create.body.encrypted) return false
    this.#caps ??= this.#facts.capabilities().then((c) => new Set(c))
    const caps = await this.#caps
    const need = [Capability.AUDIT, Capability.HARD_DELETE, Capability.SUPERSESSION_CHAIN, ...(s.tenant === null ? [] : [Capability.MULTI_TENANT])]
    return need.every((c) => caps.has(c))
  }

  static isFactual(m: LiveMemory, s: Structure): boolean {
    return !s.create.body.encrypted && !m.payload.ephemeral && s.policies.factTypes.includes(m.payload.type)
  }

  /** Every fact version of the pool's memories, by memory id. */
  async #factsOf(s: Structure): Promise<Map<string, Fact[]>> {
    const out = new Map<string, Fact[]>()
    for (const f of await this.#facts!.audit()) {
      if (f.metadata['pool'] !== s.id || typeof f.metadata['memoryId'] !== 'string' || f.tenantId !== s.tenant) continue
      const id = f.metadata['memoryId'] as string
      let list = out.get(id)
      if (!list) out.set(id, (list = []))
      list.push(f)
    }
    return out
  }

  /** Memory id -> its current (head) fact ref. */
  async refs(view: View): Promise<Map<string, FactRef>> {
    const out = new Map<string, FactRef>()
    if (!(await this.enabled(view.s))) return out
    for (const [id, facts] of await this.#factsOf(view.s)) {
      const head = facts.filter((f) => f.supersededBy === null).sort((a, b) => (a.sequence < b.sequence ? -1 : 1))[0]
      if (head) out.set(id, head.ref)
    }
    return out
  }

  /** Brings the fact view of one pool in line with `view`. `importanceOf` gives the value to record. */
  async reconcile(view: View, dirty: ReadonlySet<string>, importanceOf: (m: LiveMemory) => number): Promise<void> {
    if (!(await this.enabled(view.s))) return
    const facts = this.#facts!
    const s = view.s
    let byMemory = await this.#factsOf(s)
    const heads = (id: string): Fact[] =>
      (byMemory.get(id) ?? []).filter((f) => f.supersededBy === null).sort((a, b) => (a.sequence < b.sequence ? -1 : 1))

    // Calls are issued together so the fact store commits them in one transaction per tick.
    const all = async (calls: Array<Promise<unknown>>): Promise<boolean> => {
      await Promise.all(calls)
      return calls.length > 0
    }

    // 1. Views of forgotten memories go entirely (GMP repairs the chain: a predecessor's view is current again).
    const gone = [...byMemory].filter(([id]) => !view.live.has(id)).flatMap(([, list]) => list.map((f) => facts.delete(f.ref)))
    if (await all(gone)) byMemory = await this.#factsOf(s)

    // 2. New current memories get a view, continuing their predecessor's chain where there is one.
    const writes: Array<Promise<unknown>> = []
    for (const m of view.current) {
      if (!dirty.has(m.id) || !FactView.isFactual(m, s) || heads(m.id).length > 0) continue
      const p = m.payload
      const text = `${p.subject} ${p.predicate.replace(/_/g, ' ')} ${String(p.object)}${p.context ? ` (${p.context})` : ''}`
      const options = {
        tenantId: s.tenant,
        metadata: {
          subject: p.subject, predicate: p.predicate, object: p.object, importance: importanceOf(m) / 10_000,
          pool: s.id, memoryId: m.id, memoryType: p.type, confidence: p.confidence,
          ...(p.context ? { context: p.context } : {}), ...(p.noTraining ? { no_training: true } : {}),
        },
      }
      const pred = p.supersedes.flatMap((id) => heads(id)).sort((a, b) => (a.sequence < b.sequence ? 1 : -1))[0]
      writes.push(pred ? facts.supersede(pred.ref, text, options) : facts.write(text, options))
    }
    if (await all(writes)) byMemory = await this.#factsOf(s)

    // 3. Memories that stopped being current leave current answers; two handles racing may both
    //    have written a view of one memory: the first stays. Deleting a head makes its GMP
    //    predecessor current again (chain repair), which may be the view of a memory that is not
    //    current either (records from another replica arrive in any order: an update of an update
    //    before the update itself), so repeat until no view of a non-current memory is a head.
    const currentIds = new Set(view.current.map((m) => m.id))
    for (let round = 0; round < 64; round++) {
      const stale = [...byMemory.keys()].flatMap((id) => {
        const h = heads(id)
        return (currentIds.has(id) ? h.slice(1) : h).map((f) => facts.delete(f.ref))
      })
      if (!(await all(stale))) break
      byMemory = await this.#factsOf(s)
    }
  }
}
