import { fmtMs, type SizeResult } from './facts-bench.js'

/**
 * Renders benchmark rows as three tables (write, retrieve, cold open), each figure next to its
 * baseline and the ratio memweave time / baseline time. Pipe tables, so the same text reads in a
 * terminal and pastes into docs/benchmarks.md.
 */
export function formatReport(rows: readonly SizeResult[]): string {
  if (rows.length === 0) return '(no sizes run)\n'
  const first = rows[0]!
  const short = rows.filter((r) => !r.write.complete)
  const write = table(
    ['facts', 'memweave write', 'memweave, last 10%', 'raw Dexie bulkPut', 'ratio (time/fact)'],
    rows.map((r) => [
      r.write.complete ? fmtCount(r.size) : `${fmtCount(r.size)}: ${fmtCount(r.facts)} written, out of time`,
      `${fmtRate(r.write.memweavePerSec)} (${fmtMs(r.write.memweaveMs)})`,
      fmtRate(r.write.memweaveTailPerSec),
      `${fmtRate(r.write.baselinePerSec)} (${fmtMs(r.write.baselineMs)})`,
      fmtRatio(r.write.ratio),
    ]),
  )
  const retrieve = table(
    ['facts', 'memweave p50 / p95', 'naive toArray scan p50 / p95', 'ratio p50 / p95', 'queries mw / naive', 'hits/query mw / naive'],
    rows.map((r) => {
      const { memweave: m, baseline: b } = r.retrieve
      return [
        fmtCount(r.facts),
        `${fmtMs(m.medianMs)} / ${fmtMs(m.p95Ms)}`,
        `${fmtMs(b.medianMs)} / ${fmtMs(b.p95Ms)}`,
        `${fmtRatio(r.retrieve.ratioMedian)} / ${fmtRatio(r.retrieve.ratioP95)}`,
        `${m.queries} / ${b.queries}`,
        `${m.meanHits.toFixed(1)} / ${b.meanHits.toFixed(1)}`,
      ]
    }),
  )
  const open = table(
    ['facts', 'memweave createMemory', 'first retrieve after createMemory', 'raw open + toArray', 'ratio (time)', 'ratio with first retrieve'],
    rows.map((r) => [
      fmtCount(r.facts), fmtMs(r.open.memweaveMs), fmtMs(r.open.firstRetrieveMs), fmtMs(r.open.baselineMs), fmtRatio(r.open.ratio), fmtRatio(r.open.firstAnswerRatio),
    ]),
  )
  return [
    `Write: facts.write() in chunks of 1,000 via Promise.all, then flush(); baseline bulkPut of the same rows, same chunks.`,
    `"last 10%" is memweave's rate over the last tenth of the facts it wrote: below the overall rate, throughput falls as the store grows.`,
    write,
    `Retrieve: the same queries (3 warm-up), budget 2,000 characters, memweave on the handle opened last; baseline reads every row and filters by keyword.`,
    retrieve,
    `Cold open: createMemory() on the database just written, new handle (median of ${first.open.reps}), then its first retrieve at once; baseline opens the raw database and reads every row.`,
    open,
    ...(short.length > 0
      ? [`Out of time: ${short.map((r) => `${fmtCount(r.size)} stopped at ${fmtCount(r.facts)} facts`).join(', ')}; its open and retrieve rows are at that count, against a baseline cut to the same rows.\n`]
      : []),
    `Wall time per size: ${rows.map((r) => `${fmtCount(r.size)} ${fmtMs(r.elapsedMs)}`).join(', ')}.`,
    '',
  ].join('\n')
}

function table(head: readonly string[], body: ReadonlyArray<readonly string[]>): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`
  return [line(head), rule, ...body.map(line)].join('\n') + '\n'
}

function fmtCount(n: number): string {
  return n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n)
}

function fmtRate(perSec: number): string {
  return `${Math.round(perSec).toLocaleString('en-US')} facts/s`
}

function fmtRatio(x: number): string {
  return x >= 10 ? `${x.toFixed(0)}x` : `${x.toFixed(2)}x`
}
