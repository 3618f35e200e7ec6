// The GMP conformance suite (GMP §8), its own entry 'memweave/conformance': it runs against any
// store, in Node or a browser, and nothing in 'memweave' or 'memweave/node' imports it.
import { CAPABILITY_CHECKS, declarationCheck, retrievalContractCheck, type Check } from './checks.js'
import type { CheckResult, ConformanceReport, SessionFactory } from './types.js'

export interface RunConformanceOptions {
  /** Seeds probe data and bootstrap resampling; the report is reproducible for a seed. */
  readonly seed?: number
  /** Run the checks of these capabilities even if undeclared (to show a control failing). */
  readonly force?: readonly string[]
}

/**
 * Runs the GMP conformance suite (§8) against a store: every declared capability's checks, both
 * directions where the spec asks, plus the always-on declaration, budget and determinism checks.
 * `open` must return a fresh, empty store each call.
 *
 * @example
 * const report = await runConformance(async () => {
 *   const storage = memoryStorage() // fresh for each check; a second session is another handle on it
 *   const handles = [await createMemory({ storage })]
 *   return {
 *     store: handles[0]!.facts,
 *     secondSession: async () => (handles[handles.length] = await createMemory({ storage })).facts,
 *     close: async () => { for (const h of handles) await h.close() },
 *   }
 * })
 * report.violations // []
 */
export async function runConformance(open: SessionFactory, options: RunConformanceOptions = {}): Promise<ConformanceReport> {
  const seed = options.seed ?? 0
  const probe = await open()
  const declared = new Set(await probe.store.capabilities())
  await probe.close?.()
  const ctx = { open, declared, seed }
  const checks: Check[] = [declarationCheck, retrievalContractCheck]
  for (const [cap, check] of CAPABILITY_CHECKS) if (declared.has(cap) || options.force?.includes(cap)) checks.push(check)
  const results: CheckResult[] = []
  for (const check of checks) results.push(...(await check(ctx)))
  const failedCaps = new Set(results.filter((r) => !r.pass).map((r) => r.capability))
  const profile = [...declared].filter((c) => !failedCaps.has(c) && results.some((r) => r.capability === c)).sort()
  const violations = [...declared].filter((c) => failedCaps.has(c)).sort()
  for (const always of ['declaration', 'budget', 'determinism']) if (failedCaps.has(always)) violations.push(always)
  return { declared: [...declared].sort(), results, profile, violations }
}

/** A plain-text table of a report, one line per check. */
export function formatReport(report: ConformanceReport): string {
  const lines = report.results.map(
    (r) =>
      `${r.pass ? 'PASS' : 'FAIL'}  ${r.capability.padEnd(26)} ${r.direction.padEnd(18)} failure=${r.metric.toFixed(3)} ci95=[${r.interval[0].toFixed(3)}, ${r.interval[1].toFixed(3)}] n=${r.probes}  ${r.detail}`,
  )
  lines.push(`profile: ${report.profile.join(', ') || '(none)'}`)
  lines.push(`violations: ${report.violations.join(', ') || '(none)'}`)
  return lines.join('\n')
}

export type {
  CheckResult, ConformanceMemory, ConformanceReport, ConformanceRetrieveOptions, ConformanceSession, ConformanceStore,
  ConformanceWriteOptions, Direction, SessionFactory,
} from './types.js'
