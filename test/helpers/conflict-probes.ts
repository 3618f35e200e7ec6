import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { createMemory, type TextConflictDetector } from '../../src/index.js'
import { DEFAULT_CONFLICT_THRESHOLD } from '../../src/conflict/threshold.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * What the precision rounds' probe tests share (issue 27): a probe file of compatible pairs (each
 * naming the rule that keeps it unflagged) and contradictions that must stay flagged, judged in both
 * orders; and texts written into one store, whose free-text flags are listed.
 */
export interface Probe<R extends string = string> { readonly a: string; readonly b: string; readonly rule?: R; readonly style?: string }
export interface ProbeFile<R extends string> { readonly compatible: readonly Probe<R>[]; readonly conflict: readonly Probe[] }

/** A probe file of test/fixtures/. */
export function readProbes<R extends string>(name: string): ProbeFile<R> {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as ProbeFile<R>
}

/** `a` and `b`, in both orders, are flagged (at or above the default threshold) or not (below it). */
export function expectJudgedBothWays(detector: TextConflictDetector, a: string, b: string, flagged: boolean): void {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    const v = detector.judge(x, y)
    expect(v.conflict, v.reason).toBe(flagged)
    if (flagged) expect(v.confidence).toBeGreaterThanOrEqual(DEFAULT_CONFLICT_THRESHOLD)
    else expect(v.confidence).toBeLessThan(DEFAULT_CONFLICT_THRESHOLD)
  }
}

/** The reasons of the free-text pairs `conflicts()` lists once `texts` are written, in order, into one store. */
export async function freeTextFlags(texts: readonly { readonly content: string; readonly validFrom?: string | null }[]): Promise<string[]> {
  const mem = await createMemory({ storage: memoryStorage() })
  try {
    for (const t of texts) await mem.facts.write(t.content, t.validFrom ? { validFrom: t.validFrom } : {})
    return (await mem.facts.conflicts()).filter((c) => c.kind === 'free-text').map((c) => c.reason)
  } finally {
    await mem.close()
  }
}
