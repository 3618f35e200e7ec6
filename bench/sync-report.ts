import { REFERENCE_SIZE, type SyncBenchResult } from './sync-bench.js'

/** The sync bench's rows as pipe tables (terminal and docs/benchmarks.md alike). */
export function formatSyncReport(result: SyncBenchResult): string {
  const ms = (x: number): string => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : x >= 10 ? `${Math.round(x)} ms` : `${x.toFixed(2)} ms`)
  const ratio = (x: number): string => (x >= 10 ? `${x.toFixed(0)}x` : `${x.toFixed(2)}x`)
  const count = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n))
  const mw = result.latency.find((r) => r.target === 'memweave')
  const base = result.latency.find((r) => r.target === 'plain Yjs')
  const latency = table(
    ['device A → relay → device B (loopback)', 'writes', 'p50', 'p95', 'mean', 'ratio p50 / p95'],
    result.latency.map((r) => [
      r.target === 'memweave' ? 'memweave: pools.write → B pools.info' : 'plain Yjs: Y.Map set → B observes',
      String(r.writes), ms(r.p50Ms), ms(r.p95Ms), ms(r.meanMs),
      r.target === 'memweave' && base ? `${ratio(r.p50Ms / base.p50Ms)} / ${ratio(r.p95Ms / base.p95Ms)}` : '1x',
    ]),
  )
  const initial = table(
    [
      'pool', 'document', 'memweave: new device until all in mem.pools, synced', 'plain Yjs: new client until N entries, objects / strings',
      'ratio to objects / strings', '… until mem.facts has the fact view', 'ratio to objects / strings', 'memweave records/s',
    ],
    result.initial.map((r) => [
      count(r.size),
      `${(r.docBytes / 1e6).toFixed(1)} MB`,
      r.memweaveMs === null ? `out of time (${count(r.memweaveGot)} in)` : ms(r.memweaveMs),
      `${ms(r.baselineMs)} / ${ms(r.stringBaselineMs)}`,
      r.memweaveMs === null ? '-' : `${ratio(r.memweaveMs / r.baselineMs)} / ${ratio(r.memweaveMs / r.stringBaselineMs)}`,
      r.factViewMs === null ? '-' : ms(r.factViewMs),
      r.factViewMs === null ? '-' : `${ratio(r.factViewMs / r.baselineMs)} / ${ratio(r.factViewMs / r.stringBaselineMs)}`,
      r.memweaveMs === null ? '-' : `${Math.round(r.size / (r.memweaveMs / 1000)).toLocaleString('en-US')}/s`,
    ]),
  )
  /** Operations one at a time in each synced pool (writes, forgets), beside the latency bench's plain-Yjs write and the 1k pool. */
  const inPool = (label: string, pick: (r: SyncBenchResult['initial'][number]) => { readonly n: number; readonly p50Ms: number; readonly p95Ms: number } | null) => {
    const rows = result.initial.flatMap((r) => {
      const o = pick(r)
      return o ? [{ size: r.size, o }] : []
    })
    const reference = rows.find((r) => r.size === REFERENCE_SIZE)?.o ?? null
    return {
      some: rows.length > 0,
      table: table(
        ['pool', label, 'memweave p50 / p95', 'plain Yjs p50 / p95 (latency bench)', 'ratio p50 / p95', `p50 / p50 at ${count(REFERENCE_SIZE)}`],
        rows.map(({ size, o }) => [
          count(size), String(o.n), `${ms(o.p50Ms)} / ${ms(o.p95Ms)}`, base ? `${ms(base.p50Ms)} / ${ms(base.p95Ms)}` : '-',
          base ? `${ratio(o.p50Ms / base.p50Ms)} / ${ratio(o.p95Ms / base.p95Ms)}` : '-',
          reference ? ratio(o.p50Ms / reference.p50Ms) : '-',
        ]),
      ),
    }
  }
  const poolWrites = inPool('writes', (r) => r.poolWrites && { n: r.poolWrites.writes, p50Ms: r.poolWrites.p50Ms, p95Ms: r.poolWrites.p95Ms })
  const poolForgets = inPool('forgets', (r) => r.poolForgets && { n: r.poolForgets.forgets, p50Ms: r.poolForgets.p50Ms, p95Ms: r.poolForgets.p95Ms })
  return [
    'Latency: one factual pool memory written on A until B has it, one write at a time, both devices in this process.',
    latency,
    mw && base ? `(memweave includes signing, the relay's checks, verification, judging, storing and B's fact view; plain Yjs carries the same JSON value.)\n` : '',
    'Initial sync: a fresh device B connects to a pool that device A holds (factual memories: each becomes a GMP fact on B).',
    initial,
    ...(poolWrites.some ? ['Then, in the synced pool: one memory written on A until B has it, one write at a time (as above).', poolWrites.table] : []),
    ...(poolForgets.some ? ['Then: one memory forgotten on A (tombstone, hard delete, compaction) until B no longer has it, one at a time.', poolForgets.table] : []),
  ].join('\n')
}

function table(head: readonly string[], body: ReadonlyArray<readonly string[]>): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`
  return [line(head), rule, ...body.map(line)].join('\n') + '\n'
}
