/**
 * Precision, recall and F1 of the default working-memory conflict detector (hash embedder,
 * threshold 0.7) on the labelled pairs in test/fixtures/conflict-pairs.json. No model, no network,
 * deterministic.
 *
 *   npm run eval:conflicts                  # overall, per split, per category
 *   npm run eval:conflicts -- --errors      # also list the dev-split pairs it gets wrong
 *   npm run eval:conflicts -- --errors=all  # ... on both splits
 *   npm run eval:conflicts -- --json        # machine-readable result
 *
 * "Positive" is label `conflict`; `compatible` and `unrelated` are negatives. The holdout split
 * (every third pair of each category) was not inspected pair by pair while the detector was built.
 * test/fixtures/conflict-pairs-fresh.json was written after the detector was frozen and is
 * reported separately, as a check on over-fitting.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ConflictDetector } from '../src/working/conflict/detector.js'

export interface LabelledPair {
  readonly id: string
  readonly category: string
  readonly label: 'conflict' | 'compatible' | 'unrelated'
  /** `dev`/`holdout` in conflict-pairs.json; `fresh-1`/`fresh-2` in conflict-pairs-fresh.json. */
  readonly split: 'dev' | 'holdout' | 'fresh-1' | 'fresh-2'
  readonly a: string
  readonly b: string
}

export interface Scores {
  readonly pairs: number
  readonly tp: number
  readonly fp: number
  readonly fn: number
  readonly tn: number
  readonly precision: number
  readonly recall: number
  readonly f1: number
  readonly accuracy: number
}

export interface PairResult extends LabelledPair {
  readonly predicted: boolean
  readonly similarity: number
  readonly reason: string
}

export interface EvalResult {
  readonly overall: Scores
  readonly bySplit: Record<string, Scores>
  readonly byCategory: Record<string, Scores & { readonly label: string }>
  readonly results: readonly PairResult[]
}

const here = resolve(fileURLToPath(import.meta.url), '..')

export const FRESH_PAIRS = resolve(here, '../test/fixtures/conflict-pairs-fresh.json')

export function loadPairs(path = resolve(here, '../test/fixtures/conflict-pairs.json')): LabelledPair[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { pairs: LabelledPair[] }).pairs
}

export async function evaluate(pairs: readonly LabelledPair[], detector = new ConflictDetector()): Promise<EvalResult> {
  const results: PairResult[] = []
  for (const p of pairs) {
    const [a, b] = await detector.analyze([p.a, p.b])
    const v = detector.compare(a!, b!)
    results.push({ ...p, predicted: v.conflict, similarity: v.similarity, reason: v.reason })
  }
  const group = (key: (r: PairResult) => string): Record<string, PairResult[]> => {
    const out: Record<string, PairResult[]> = {}
    for (const r of results) (out[key(r)] ??= []).push(r)
    return out
  }
  const bySplit = Object.fromEntries(Object.entries(group((r) => r.split)).map(([k, rs]) => [k, score(rs)]))
  const byCategory = Object.fromEntries(
    Object.entries(group((r) => r.category)).map(([k, rs]) => [k, { ...score(rs), label: rs[0]!.label }]),
  )
  return { overall: score(results), bySplit, byCategory, results }
}

export function score(rs: readonly PairResult[]): Scores {
  let tp = 0, fp = 0, fn = 0, tn = 0
  for (const r of rs) {
    const pos = r.label === 'conflict'
    if (r.predicted && pos) tp++
    else if (r.predicted) fp++
    else if (pos) fn++
    else tn++
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp)
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn)
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { pairs: rs.length, tp, fp, fn, tn, precision, recall, f1, accuracy: (tp + tn) / Math.max(1, rs.length) }
}

const pct = (x: number): string => x.toFixed(3)

export function formatEval(r: EvalResult, title = 'test/fixtures/conflict-pairs.json'): string {
  const lines: string[] = []
  const row = (name: string, s: Scores): string =>
    `| ${name.padEnd(18)} | ${String(s.pairs).padStart(5)} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)} | ${String(s.tp).padStart(3)} | ${String(s.fp).padStart(3)} | ${String(s.fn).padStart(3)} | ${String(s.tn).padStart(3)} |`
  lines.push(`Conflict detector: hashEmbedder(), threshold 0.7, ${title}`, '')
  lines.push('| set                | pairs | prec. | recall | F1    |  tp |  fp |  fn |  tn |')
  lines.push('|--------------------|------:|------:|------:|------:|----:|----:|----:|----:|')
  lines.push(row('all', r.overall))
  for (const [k, s] of Object.entries(r.bySplit).sort()) lines.push(row(k, s))
  lines.push('', 'Per category (conflict categories: recall = share detected; others: share correctly left alone):', '')
  lines.push('| category           | label      | pairs | correct | share |')
  lines.push('|--------------------|------------|------:|--------:|------:|')
  for (const [k, s] of Object.entries(r.byCategory)) {
    const correct = s.tp + s.tn
    lines.push(`| ${k.padEnd(18)} | ${s.label.padEnd(10)} | ${String(s.pairs).padStart(5)} | ${String(correct).padStart(7)} | ${pct(correct / s.pairs)} |`)
  }
  return lines.join('\n') + '\n'
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const result = await evaluate(loadPairs())
  if (args.includes('--json')) {
    const strip = ({ results: _, ...rest }: EvalResult) => rest
    const fresh = await evaluate(loadPairs(FRESH_PAIRS))
    process.stdout.write(JSON.stringify({ main: strip(result), fresh: strip(fresh) }, null, 2) + '\n')
    return
  }
  process.stdout.write(formatEval(result))
  const fresh = await evaluate(loadPairs(FRESH_PAIRS))
  process.stdout.write('\n' + formatEval(fresh, 'test/fixtures/conflict-pairs-fresh.json (written after the detector was frozen)'))
  const errorsArg = args.find((a) => a.startsWith('--errors'))
  if (errorsArg) {
    const all = errorsArg === '--errors=all'
    const pool = all ? [...result.results, ...(await evaluate(loadPairs(FRESH_PAIRS))).results] : result.results
    const wrong = pool.filter((r) => r.predicted !== (r.label === 'conflict') && (all || r.split === 'dev'))
    process.stdout.write(`\nMisclassified (${all ? 'all splits' : 'dev split'}): ${wrong.length}\n`)
    for (const w of wrong) {
      process.stdout.write(`  ${w.id} [${w.label}] sim=${w.similarity.toFixed(2)} ${w.reason}\n    A: ${w.a}\n    B: ${w.b}\n`)
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}
