import { invalidArgument } from '../core/errors.js'

/** GMP §7.1 capability flags; the values are the wire's flag strings. */
export const Capability = {
  AUDIT: 'audit',
  BI_TEMPORAL: 'bi_temporal',
  SUPERSESSION_CHAIN: 'supersession_chain',
  HARD_DELETE: 'hard_delete',
  MULTI_TENANT: 'multi_tenant',
  PROVENANCE: 'provenance',
  CRYPTOGRAPHIC_PROVENANCE: 'cryptographic_provenance',
  CONFLICT_DETECTION: 'conflict_detection',
  CROSS_SESSION_PROPAGATION: 'cross_session_propagation',
  CONCURRENCY_CONTROL: 'concurrency_control',
} as const

export type Capability = (typeof Capability)[keyof typeof Capability]

const ALL = new Set<string>(Object.values(Capability))

/**
 * What memweave declares by default: everything GMP v0.2 lets a store claim under conformance.
 * CONCURRENCY_CONTROL stays out: the spec reserves it (§7.4) until §10 is ratified.
 */
export const DEFAULT_CAPABILITIES: readonly Capability[] = Object.values(Capability)
  .filter((c) => c !== Capability.CONCURRENCY_CONTROL)
  .sort()

/**
 * Validates a requested capability subset against GMP §7.3's dependencies.
 * @throws MemweaveError INVALID_ARGUMENT for unknown flags, CONCURRENCY_CONTROL, or a missing dependency.
 */
export function resolveCapabilities(requested: readonly string[] | undefined): ReadonlySet<Capability> {
  if (requested === undefined) return new Set(DEFAULT_CAPABILITIES)
  if (!Array.isArray(requested)) throw invalidArgument('capabilities', 'must be an array of capability flags')
  const set = new Set<Capability>()
  for (const flag of requested) {
    if (typeof flag !== 'string' || !ALL.has(flag)) {
      // Never String(flag): a deeply nested array would overflow the stack converting itself.
      const shown = typeof flag === 'string' ? `"${flag.slice(0, 64)}"` : flag === null ? 'null' : Array.isArray(flag) ? 'an array' : `a ${typeof flag}`
      throw invalidArgument('capabilities', `unknown capability ${shown}; known: ${[...ALL].sort().join(', ')}`)
    }
    set.add(flag as Capability)
  }
  if (set.has(Capability.CONCURRENCY_CONTROL)) {
    throw invalidArgument('capabilities', 'concurrency_control is reserved by GMP v0.2 §7.4 and cannot be claimed')
  }
  if (set.has(Capability.BI_TEMPORAL) && !set.has(Capability.SUPERSESSION_CHAIN)) {
    throw invalidArgument('capabilities', 'bi_temporal implies supersession_chain (GMP §7.3)')
  }
  if (set.has(Capability.CRYPTOGRAPHIC_PROVENANCE) && !set.has(Capability.PROVENANCE)) {
    throw invalidArgument('capabilities', 'cryptographic_provenance implies provenance (GMP §7.3)')
  }
  return set
}
