import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test } from 'vitest'
import { formatReport, runConformance, type ConformanceReport } from '../../src/conformance/index.js'
import { DEFAULT_CAPABILITIES, Capability } from '../../src/index.js'
import { CoarseDeleteStore, LeakyTenantStore, OverIsolatingStore, SoftDeleteStore } from './controls.js'
import { indexedDbSessions, memorySessions } from './sessions.js'

const failing = (r: ConformanceReport): string[] => r.results.filter((x) => !x.pass).map((x) => `${x.capability}/${x.direction}`).sort()

function expectConformant(report: ConformanceReport): void {
  if (report.violations.length) console.error(formatReport(report))
  expect(report.violations).toEqual([])
  expect(report.profile).toEqual([...DEFAULT_CAPABILITIES].sort())
}

describe('GMP conformance suite (§8) against memweave', () => {
  test('in-memory storage passes every declared capability, both directions', async () => {
    const report = await runConformance(memorySessions())
    expectConformant(report)
    expect(report.declared).not.toContain('concurrency_control')
  })

  test('Dexie on IndexedDB (fake-indexeddb in Node) passes every declared capability', async () => {
    const factory = new IDBFactory()
    expectConformant(await runConformance(indexedDbSessions({ indexedDB: factory, IDBKeyRange })))
  })

  test('a store built with a capability subset raises CAPABILITY_NOT_SUPPORTED exactly where the contract says', async () => {
    const report = await runConformance(memorySessions({ capabilities: [Capability.AUDIT, Capability.PROVENANCE] }))
    expect(failing(report)).toEqual([])
    expect(report.profile).toEqual(['audit', 'provenance'])
    // The checks of undeclared capabilities were not run: honest omission is not penalised (§7.2).
    expect(report.results.some((r) => r.capability === 'hard_delete')).toBe(false)
  })
})

describe('negative controls fail in exactly their direction (§6.2, §6.3)', () => {
  test('soft delete fails hard_delete leakage, not over-restriction', async () => {
    const report = await runConformance(memorySessions({}, (s) => new SoftDeleteStore(s)))
    const hd = report.results.filter((r) => r.capability === 'hard_delete')
    expect(hd.find((r) => r.direction === 'leakage')!.pass).toBe(false)
    expect(hd.find((r) => r.direction === 'over-restriction')!.pass).toBe(true)
    expect(hd.find((r) => r.direction === 'leakage')!.interval[0]).toBeGreaterThan(0)
    // A soft delete also breaks audit's "excl. hard-deleted" and cross-session deletion; nothing else.
    expect(failing(report)).toEqual(['audit/single', 'cross_session_propagation/single', 'hard_delete/leakage'])
  })

  test('coarse delete fails hard_delete over-restriction, not leakage', async () => {
    const report = await runConformance(memorySessions({}, (s) => new CoarseDeleteStore(s)))
    expect(failing(report)).toContain('hard_delete/over-restriction')
    expect(failing(report)).not.toContain('hard_delete/leakage')
    expect(failing(report).filter((f) => f.startsWith('multi_tenant') || f.startsWith('cryptographic'))).toEqual([])
  })

  test('leaky tenant fails multi_tenant leakage, not over-restriction', async () => {
    const report = await runConformance(memorySessions({}, (s) => new LeakyTenantStore(s)))
    expect(failing(report).filter((f) => f.startsWith('multi_tenant'))).toEqual(['multi_tenant/leakage'])
  })

  test('over-isolating tenant fails multi_tenant over-restriction, not leakage', async () => {
    const report = await runConformance(memorySessions({}, (s) => new OverIsolatingStore(s)))
    expect(failing(report).filter((f) => f.startsWith('multi_tenant'))).toEqual(['multi_tenant/over-restriction'])
  })
})
