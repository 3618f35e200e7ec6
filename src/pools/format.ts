import { invalidArgument } from '../core/errors.js'
import { MAX_SOURCE_CHARS, assertConfidence, assertContent, assertStrategy, assertText, assertType, parseMemoryId } from './input.js'
import type { MemoryPayload } from './records.js'
import type { ExportedMemory, PoolExport, PoolInfo, PoolMemory, PoolPolicies } from './types.js'

/**
 * A pool in LCS-004 §3's JSON content format. Each memory is the spec's object (`version`,
 * `memory_id`, `type`, `content`, `metadata {confidence, source, supporting_evidence}`, `privacy
 * {encryption, visibility, no_training}`) with the remaining LCS-004 §1 fields added to `metadata`
 * (creating agent, timestamp, ttl, permanence, access count, importance) and the provenance links
 * (`supersedes`, `merged_from`). Ids are written `0x` + 32 hex digits, as the spec's `0x...`.
 * Confidence stays 0..1 as in the spec's JSON. `no_training` is written on every memory (and on the
 * pool when it is pool-wide) and survives import. EPHEMERAL memories are never exported: an export
 * is not their one permitted use.
 */

const hex = (id: string): string => `0x${id}`
/** A member chooses `createdAt` (any number): one past the range of `Date` must not make every export throw a RangeError (issue 26). */
const LAST_DATE_MS = 8.64e15
const iso = (ms: number): string => new Date(Number.isFinite(ms) ? Math.min(Math.max(ms, -LAST_DATE_MS), LAST_DATE_MS) : 0).toISOString()

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const camel = (k: string): string => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

export function exportMemory(m: PoolMemory): ExportedMemory {
  const content: ExportedMemory['content'] = {
    subject: m.content.subject, predicate: m.content.predicate, object: m.content.object,
    ...(m.content.context ? { context: m.content.context } : {}),
  }
  return {
    version: '1.0.0',
    memory_id: hex(m.id),
    type: m.type,
    content,
    metadata: {
      confidence: m.confidence,
      source: m.source,
      supporting_evidence: m.evidence.map(hex),
      creating_agent: m.author,
      timestamp: iso(m.createdAt),
      ttl: m.ttl,
      permanent: m.permanent,
      access_count: m.accessCount,
      last_accessed: m.lastAccessed === null ? null : iso(m.lastAccessed),
      importance: m.importance,
      supersedes: m.supersedes.map(hex),
      merged_from: m.merged ? { strategy: m.merged.strategy, memory_ids: m.merged.from.map(hex) } : null,
    },
    privacy: {
      encryption: m.privacy.encrypted ? 'aes-256-gcm' : 'none',
      visibility: m.privacy.visibility === 'PUBLIC' ? 'public' : 'authorized_agents_only',
      no_training: m.privacy.noTraining,
    },
  }
}

export function exportPool(info: PoolInfo, memories: readonly PoolMemory[], exportedBy: string, now: number): PoolExport {
  const policies: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(info.policies)) policies[snake(k)] = v
  return {
    version: '1.0.0',
    format: 'lcs-004-pool',
    pool: {
      pool_id: hex(info.id),
      owner: info.owner,
      tenant: info.tenantId,
      name: info.name,
      encryption: info.encrypted ? 'aes-256-gcm' : 'none',
      no_training: info.noTraining,
      exported_at: iso(now),
      exported_by: exportedBy,
      policies,
    },
    memories: memories.filter((m) => !m.privacy.ephemeral).map(exportMemory),
  }
}

/**
 * A memory as a file states it: a stored memory's fields but `ephemeral` (an export never holds
 * one), with `evidence`, `supersedes` and `merged.from` naming the file's ids, which the import
 * maps to the pool's.
 */
export interface ImportedMemory extends Omit<MemoryPayload, 'ephemeral'> {
  /** The id written in the file, normalized (no 0x, lower case). */
  readonly sourceId: string
}

export interface ParsedPool {
  readonly name: string | null
  readonly encrypted: boolean
  readonly noTraining: boolean
  readonly policies: Partial<PoolPolicies>
  readonly memories: readonly ImportedMemory[]
}

function obj(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidArgument(field, 'must be an object')
  return v as Record<string, unknown>
}

function ids(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw invalidArgument(field, 'must be an array of memory ids')
  return v.map((x, i) => parseMemoryId(x, `${field}[${i}]`))
}

function time(v: unknown, field: string): number {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN
  if (!Number.isFinite(ms)) throw invalidArgument(field, 'must be an ISO-8601 date-time')
  return ms
}

/** Validates a pool export (or a bare array of LCS-004 memory objects). @throws INVALID_ARGUMENT naming the path. */
export function parsePoolExport(data: unknown, now: number): ParsedPool {
  const root = Array.isArray(data) ? { memories: data } : obj(data, 'data')
  if (root['version'] !== undefined && root['version'] !== '1.0.0') throw invalidArgument('data.version', 'must be "1.0.0"')
  const pool = root['pool'] === undefined ? {} : obj(root['pool'], 'data.pool')
  const policies: Record<string, unknown> = {}
  if (pool['policies'] !== undefined) for (const [k, v] of Object.entries(obj(pool['policies'], 'data.pool.policies'))) policies[camel(k)] = v
  if (!Array.isArray(root['memories'])) throw invalidArgument('data.memories', 'must be an array')
  // A memory that was encrypted at rest in its pool stays encrypted: the import goes to an encrypted pool.
  let sealedMemory = false
  const memories = root['memories'].map((raw, i): ImportedMemory => {
    const f = `data.memories[${i}]`
    const m = obj(raw, f)
    if (m['version'] !== undefined && m['version'] !== '1.0.0') throw invalidArgument(`${f}.version`, 'must be "1.0.0"')
    const content = assertContent(m['content'], `${f}.content`)
    const md = m['metadata'] === undefined ? {} : obj(m['metadata'], `${f}.metadata`)
    const pr = m['privacy'] === undefined ? {} : obj(m['privacy'], `${f}.privacy`)
    const visibility = pr['visibility'] ?? 'authorized_agents_only'
    if (visibility !== 'public' && visibility !== 'authorized_agents_only') throw invalidArgument(`${f}.privacy.visibility`, 'must be "public" or "authorized_agents_only"')
    if (pr['encryption'] === 'aes-256-gcm') sealedMemory = true
    else if (pr['encryption'] !== undefined && pr['encryption'] !== 'none') throw invalidArgument(`${f}.privacy.encryption`, 'must be "aes-256-gcm" or "none"')
    if (pr['no_training'] !== undefined && typeof pr['no_training'] !== 'boolean') throw invalidArgument(`${f}.privacy.no_training`, 'must be a boolean')
    const ttl = md['ttl'] ?? null
    if (ttl !== null && (typeof ttl !== 'number' || !(ttl > 0) || !Number.isFinite(ttl))) throw invalidArgument(`${f}.metadata.ttl`, 'must be a positive number of seconds or null')
    const permanent = md['permanent'] ?? false
    if (typeof permanent !== 'boolean') throw invalidArgument(`${f}.metadata.permanent`, 'must be a boolean')
    let merged: ImportedMemory['merged'] = null
    if (md['merged_from'] !== undefined && md['merged_from'] !== null) {
      const mf = obj(md['merged_from'], `${f}.metadata.merged_from`)
      merged = { strategy: assertStrategy(mf['strategy'], `${f}.metadata.merged_from.strategy`), from: ids(mf['memory_ids'], `${f}.metadata.merged_from.memory_ids`) }
    }
    return {
      sourceId: parseMemoryId(m['memory_id'], `${f}.memory_id`),
      type: assertType(m['type'], `${f}.type`),
      subject: content.subject,
      predicate: content.predicate,
      object: content.object,
      context: content.context,
      confidence: md['confidence'] === undefined ? 1 : assertConfidence(md['confidence'], `${f}.metadata.confidence`),
      source: md['source'] === undefined ? 'import' : assertText(md['source'], `${f}.metadata.source`, MAX_SOURCE_CHARS),
      evidence: ids(md['supporting_evidence'], `${f}.metadata.supporting_evidence`),
      createdAt: md['timestamp'] === undefined ? now : time(md['timestamp'], `${f}.metadata.timestamp`),
      ttl: ttl as number | null,
      permanent,
      visibility: visibility === 'public' ? 'PUBLIC' : 'AUTHORIZED',
      noTraining: pr['no_training'] === true || pool['no_training'] === true,
      supersedes: ids(md['supersedes'], `${f}.metadata.supersedes`),
      merged,
    }
  })
  const seen = new Set<string>()
  memories.forEach((m, i) => {
    if (seen.has(m.sourceId)) throw invalidArgument(`data.memories[${i}].memory_id`, 'appears twice')
    seen.add(m.sourceId)
  })
  return {
    name: typeof pool['name'] === 'string' ? pool['name'] : null,
    encrypted: pool['encryption'] === 'aes-256-gcm' || sealedMemory,
    noTraining: pool['no_training'] === true,
    policies: policies as Partial<PoolPolicies>,
    memories,
  }
}

/**
 * Memories in an order where every referenced memory of the file (evidence, supersedes, merge
 * sources) comes first, so each can be written with its references already mapped to new ids.
 * @throws INVALID_ARGUMENT on a reference cycle (impossible for content-addressed ids, so a forged file).
 */
export function dependencyOrder(memories: readonly ImportedMemory[]): ImportedMemory[] {
  const byId = new Map(memories.map((m) => [m.sourceId, m]))
  const out: ImportedMemory[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (m: ImportedMemory): void => {
    const s = state.get(m.sourceId)
    if (s === 'done') return
    if (s === 'visiting') throw invalidArgument('data.memories', `reference cycle through ${m.sourceId}`)
    state.set(m.sourceId, 'visiting')
    for (const ref of [...m.evidence, ...m.supersedes, ...(m.merged?.from ?? [])]) {
      const dep = byId.get(ref)
      if (dep) visit(dep)
    }
    state.set(m.sourceId, 'done')
    out.push(m)
  }
  for (const m of [...memories].sort((a, b) => a.createdAt - b.createdAt)) visit(m)
  return out
}
