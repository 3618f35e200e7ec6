import { dependencyOrder, exportPool, parsePoolExport } from './format.js'
import { DEFAULT_POLICIES, mergePolicies, parsePoolId } from './input.js'
import type { PoolParts } from './parts.js'
import type { MemoryPayload } from './records.js'
import { denied, type Put } from './replica.js'
import type { PoolSharing } from './sharing.js'
import { duplicateKey } from './similarity.js'
import type { ImportOptions, ImportResult, MemoryId, PoolExport, PoolId } from './types.js'

/** A pool in and out of LCS-004's JSON content format (format.ts parses and writes the file). */
export class ImportExport {
  readonly #p: PoolParts
  readonly #sharing: PoolSharing

  /** `sharing` founds the pool an import without `poolId` goes into. */
  constructor(parts: PoolParts, sharing: PoolSharing) {
    this.#p = parts
    this.#sharing = sharing
  }

  async export(poolId: string): Promise<PoolExport> {
    const { r } = this.#p
    const pool = parsePoolId(poolId)
    await r.ready()
    const ctx = r.context(pool)
    if (!ctx.rights.read) throw denied(`may not read pool ${pool}`, { pool })
    const live = [...ctx.view.live.values()].sort((a, b) => a.payload.createdAt - b.payload.createdAt || (a.id < b.id ? -1 : 1))
    return exportPool(await this.#p.show.info(ctx), await this.#p.show.present(ctx, live, false), r.me().did, ctx.now)
  }

  async import(data: unknown, options: ImportOptions = {}): Promise<ImportResult> {
    const { r } = this.#p
    const now = r.now()
    const parsed = parsePoolExport(data, now)
    let pool: PoolId
    if (options.poolId !== undefined) {
      pool = parsePoolId(options.poolId)
      await r.ready()
      r.mustWrite(r.context(pool))
    } else {
      const privacy = [...(parsed.encrypted ? (['ENCRYPTED'] as const) : []), ...(parsed.noTraining ? (['NO_TRAINING'] as const) : [])]
      const policies = mergePolicies(DEFAULT_POLICIES, parsed.policies, 'data.pool.policies')
      pool = (await this.#sharing.create({ name: parsed.name, tenantId: options.tenantId ?? null, privacy, policies })).id
    }
    const ctx = r.context(pool)
    const ids = new Map<string, MemoryId>()
    const puts: Put[] = []
    const fresh: MemoryPayload[] = []
    for (const m of dependencyOrder(parsed.memories)) {
      if (!m.permanent && m.ttl !== null && m.createdAt + m.ttl * 1000 <= now) continue
      const map = (refs: readonly string[]): string[] =>
        [...new Set(refs.map((x) => ids.get(x) ?? (ctx.view.live.has(x) ? x : null)).filter((x): x is string => x !== null))].sort()
      const payload: MemoryPayload = {
        type: m.type, subject: m.subject, predicate: m.predicate, object: m.object, context: m.context, confidence: m.confidence,
        source: m.source, evidence: map(m.evidence), createdAt: m.createdAt, ttl: m.permanent ? null : m.ttl, permanent: m.permanent,
        visibility: ctx.s.create.body.encrypted ? 'AUTHORIZED' : m.visibility, ephemeral: false,
        noTraining: m.noTraining || ctx.s.create.body.noTraining, supersedes: map(m.supersedes),
        merged: m.merged ? { strategy: m.merged.strategy, from: map(m.merged.from) } : null,
      }
      const key = duplicateKey(payload)
      const dup = ctx.s.policies.deduplication && payload.supersedes.length === 0 && payload.merged === null
        ? (ctx.view.index.duplicate(key) ??
          fresh.findIndex((f) => f.supersedes.length === 0 && f.merged === null && duplicateKey(f) === key))
        : undefined
      if (typeof dup === 'object') {
        ids.set(m.sourceId, dup.id as MemoryId)
        continue
      }
      if (typeof dup === 'number' && dup >= 0) {
        ids.set(m.sourceId, puts[dup]!.record.id as MemoryId)
        continue
      }
      const put = await r.memoryRecord(ctx.s, payload)
      puts.push(put)
      fresh.push(payload)
      ids.set(m.sourceId, put.record.id as MemoryId)
    }
    if (puts.length) await r.save(puts)
    await this.#p.upkeep.afterCommit(pool, puts.map((p) => p.record.id))
    await r.ready()
    return { pool: await this.#p.show.info(r.context(pool)), ids }
  }
}
