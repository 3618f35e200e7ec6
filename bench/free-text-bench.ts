import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { createMemory } from '../src/index.js'
import { factRows } from './fixtures.js'

/**
 * Issue 16: what free-text conflict detection costs. The same free-text facts (the fact
 * bench's sentences, written without subject/predicate/object, so every one goes through the
 * detector) are written into a store with `freeTextConflicts` on and into one with it off, in the
 * same run, sizes one after the other, on fake-indexeddb as the Node fact bench uses (a fresh
 * factory per store, so nothing carries over). A write only queues its fact for comparison, so
 * the table also shows what the first `conflicts()` after the bulk write costs: that is where the
 * comparisons happen.
 */
export interface FreeTextRow {
  readonly size: number
  readonly offMs: number
  readonly onMs: number
  /** Free-text conflicts flagged when it was on (the bench's sentences do contradict each other). */
  readonly flagged: number
  /**
   * The first `conflicts()` after the bulk write: a write only queues its fact, so this call does
   * the comparisons the writes deferred (each fact with its nearest neighbours).
   */
  readonly firstConflictsMs: number
}

async function writeAll(contents: readonly string[], on: boolean, chunk: number): Promise<{ ms: number; flagged: number; conflictsMs: number }> {
  const mem = await createMemory({ storage: 'indexeddb', name: `free-text-${on}`, indexedDB: new IDBFactory(), IDBKeyRange, facts: { freeTextConflicts: on } })
  const started = performance.now()
  for (let i = 0; i < contents.length; i += chunk) {
    await Promise.all(contents.slice(i, i + chunk).map((c) => mem.facts.write(c)))
  }
  await mem.facts.flush()
  const ms = performance.now() - started
  const t = performance.now()
  const flagged = on ? (await mem.facts.conflicts({ limit: 100_000 })).length : 0
  const conflictsMs = performance.now() - t
  await mem.close()
  return { ms, flagged, conflictsMs }
}

export async function runFreeTextBench(sizes: readonly number[], log: (line: string) => void = () => {}, chunk = 1000): Promise<FreeTextRow[]> {
  const rows: FreeTextRow[] = []
  for (const size of sizes) {
    const contents = factRows(size).map((r) => r.content)
    // Off first, then on, then off again: the reported "off" is the faster of the two, so a warm-up
    // or a noisy neighbour cannot make the ratio look better than it is.
    const off1 = await writeAll(contents, false, chunk)
    log(`free-text ${size}: off ${off1.ms.toFixed(0)} ms`)
    const on = await writeAll(contents, true, chunk)
    log(`free-text ${size}: on ${on.ms.toFixed(0)} ms, first conflicts() ${on.conflictsMs.toFixed(0)} ms, ${on.flagged} flagged`)
    const off2 = await writeAll(contents, false, chunk)
    log(`free-text ${size}: off again ${off2.ms.toFixed(0)} ms`)
    rows.push({ size, offMs: Math.min(off1.ms, off2.ms), onMs: on.ms, flagged: on.flagged, firstConflictsMs: on.conflictsMs })
  }
  return rows
}

export function formatFreeTextReport(rows: readonly FreeTextRow[]): string {
  const lines = [
    '| facts | off: writes/s | on: writes/s | on / off time | first conflicts() (deferred comparisons) | per fact | flagged pairs |',
    '|------:|--------------:|-------------:|--------------:|----------------------------------------:|---------:|--------------:|',
  ]
  for (const r of rows) {
    const per = (ms: number): string => Math.round((r.size / ms) * 1000).toLocaleString('en-US')
    const perFact = `${((r.firstConflictsMs * 1000) / r.size).toFixed(0)} µs`
    lines.push(`| ${r.size.toLocaleString('en-US')} | ${per(r.offMs)} | ${per(r.onMs)} | ${(r.onMs / r.offMs).toFixed(2)}x | ${(r.firstConflictsMs / 1000).toFixed(1)} s | ${perFact} | ${r.flagged} |`)
  }
  return lines.join('\n') + '\n'
}
