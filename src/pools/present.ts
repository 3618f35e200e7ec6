import type { AgentDid } from '../core/identity.js'
import type { FactRef } from '../facts/types.js'
import { authority, importance, lifecycle } from './importance.js'
import { expiresAt, type LiveMemory } from './structure.js'
import type { View } from './view.js'
import type { MemoryId, PoolInfo, PoolMemory, Rights } from './types.js'

/** Pure conversions from a pool view to what the API returns. */

/** Access stats of a memory, optionally counting the read being answered right now. */
function reads(view: View, m: LiveMemory, readNow: boolean): { count: number; last: number | null } {
  const a = view.s.access.get(m.id)
  return { count: (a?.count ?? 0) + (readNow ? 1 : 0), last: readNow ? view.now : (a?.last ?? null) }
}

export function importanceOf(view: View, m: LiveMemory, readNow = false): number {
  const { s, now } = view
  const r = s.acl.at(m.record.author, null, now)
  const trusted = s.policies.trustedAgents.includes(m.record.author)
  return importance(
    {
      accessCount: reads(view, m, readNow).count,
      confidence: m.payload.confidence,
      createdAt: m.payload.createdAt,
      authority: authority({ ...r, trusted }),
      rating: s.ratings.get(m.id) ?? null,
    },
    now,
    s.policies,
  )
}

export function toPoolMemory(
  view: View,
  m: LiveMemory,
  extra: { factRefs: ReadonlyMap<string, FactRef>; conflicts: ReadonlyMap<string, readonly MemoryId[]>; readNow?: boolean },
): PoolMemory {
  const { s, now } = view
  const p = m.payload
  const r = reads(view, m, extra.readNow === true)
  const supersededBy = (view.supersededBy.get(m.id) ?? []) as MemoryId[]
  return {
    id: m.id as MemoryId,
    pool: s.id,
    tenantId: s.tenant,
    type: p.type,
    content: { subject: p.subject, predicate: p.predicate, object: p.object, context: p.context },
    confidence: p.confidence,
    source: p.source,
    evidence: p.evidence as MemoryId[],
    author: m.record.author as AgentDid,
    createdAt: p.createdAt,
    ttl: p.permanent ? null : p.ttl,
    expiresAt: expiresAt(p),
    permanent: p.permanent,
    privacy: { visibility: p.visibility, encrypted: s.create.body.encrypted, ephemeral: p.ephemeral, noTraining: p.noTraining },
    accessCount: r.count,
    lastAccessed: r.last,
    importance: importanceOf(view, m, extra.readNow === true),
    lifecycle: lifecycle(
      { createdAt: p.createdAt, lastAccessed: r.last, accessCount: r.count, permanent: p.permanent, superseded: supersededBy.length > 0 },
      now,
      s.policies,
    ),
    current: supersededBy.length === 0,
    supersedes: p.supersedes as MemoryId[],
    supersededBy,
    merged: p.merged ? { strategy: p.merged.strategy, from: p.merged.from as MemoryId[] } : null,
    rating: s.ratings.get(m.id) ?? null,
    conflictsWith: extra.conflicts.get(m.id) ?? [],
    factRef: extra.factRefs.get(m.id) ?? null,
  }
}

export function poolInfo(view: View, access: Rights, name: string | null, factsRefused: PoolInfo['factsRefused'] = []): PoolInfo {
  const { s, now } = view
  const body = s.create.body
  return {
    id: s.id,
    owner: s.owner as AgentDid,
    tenantId: s.tenant,
    name,
    encrypted: body.encrypted,
    noTraining: body.noTraining,
    createdAt: s.createdAt,
    nonce: body.nonce,
    policies: s.policies,
    members: s.acl.members(now),
    access,
    size: view.live.size,
    current: view.current.size,
    sealed: s.sealed,
    factsRefused,
  }
}
