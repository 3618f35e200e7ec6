import { formatStoredTime } from '../core/time.js'
import { Capability } from './capabilities.js'
import type { FactHost } from './store-host.js'
import type { FactEntry, FactRef, FactMemory } from './types.js'
import type { Version } from './version.js'

// How a stored version reads from outside: a GMP memory (`FactMemory`), or the FactLookup entry the other modules see.

export function entryOf(h: FactHost, v: Version): FactEntry {
  return {
    ref: v.ref,
    tenantId: v.tenant,
    metadata: v.body.metadata,
    sequence: v.hlc,
    supersededBy: h.caps.has(Capability.SUPERSESSION_CHAIN) ? h.state.supersededBy(v.ref) : null,
  }
}

export function toMemory(h: FactHost, v: Version): FactMemory {
  const caps = h.caps
  const bi = caps.has(Capability.BI_TEMPORAL)
  const until = bi ? h.state.validUntil(v.ref) : null
  const src = v.body.source
  // Formatted once: the answer and its provenance name the same time (two calls were two formats per answer).
  const writtenAt = formatStoredTime(v.body.writtenAt)
  return {
    ref: v.ref,
    content: v.body.content,
    writtenAt,
    metadata: structuredClone(v.body.metadata),
    validFrom: bi ? formatStoredTime(v.body.validFrom) : null,
    validUntil: until === null ? null : formatStoredTime(until),
    tenantId: v.tenant,
    supersededBy: caps.has(Capability.SUPERSESSION_CHAIN) ? h.state.supersededBy(v.ref) : null,
    source: caps.has(Capability.PROVENANCE)
      ? {
          writeId: v.ref,
          writtenAt,
          writtenBy: src.writtenBy,
          signature: src.signature ? hexBytes(src.signature) : null,
          publicKey: src.publicKey ? hexBytes(src.publicKey) : null,
        }
      : null,
    factId: v.body.factId,
    structuredId: v.body.structuredId,
    sequence: v.hlc,
    conflictsWith: caps.has(Capability.CONFLICT_DETECTION) ? conflictsWith(h, v) : [],
  }
}

/** A fact's conflicts, without the free-text partners the judge has already cleared (no judge call here). */
export function conflictsWith(h: FactHost, v: Version): FactRef[] {
  const refs = h.state.conflictsWith(v)
  const judge = h.judge
  if (!judge || !h.freeText) return refs
  const partners = new Map(h.freeText.partners(v.ref))
  return refs.filter((ref) => {
    const other = h.state.versions.get(ref)
    if (!other || !partners.has(ref) || (v.slot !== null && v.slot === other.slot)) return true
    const verdict = judge.known(v.body.content, other.body.content)
    return !verdict || verdict.label === 'contradiction'
  })
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}
