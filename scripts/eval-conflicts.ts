/**
 * Precision, recall and F1 of the default working-memory conflict detector (hash embedder,
 * threshold 0.7, with the free-text detector of src/conflict) in one run on:
 *
 * - the realistic pairs of issue 16 (../shared/data/conflicts/pairs-realistic.json, or
 *   MEMWEAVE_REALISTIC_PAIRS), on the fixed dev and holdout splits of
 *   test/fixtures/conflict-split.json, per type; beside the free-text detector alone (what facts
 *   use) and the crude baseline rule (scripts/conflict-baseline.ts);
 * - issue 27's hand-written set test/fixtures/conflict-pairs-unseen.json (persona, everyday and news
 *   statements in the styles of public contradiction data) on its own fixed split
 *   test/fixtures/conflict-unseen-split.json, per type, and planted in conv-30's turns; its second set
 *   test/fixtures/conflict-pairs-unseen2.json (ninth round: jobs, habits, amounts, states, places, travel)
 *   the same way on test/fixtures/conflict-unseen2-split.json;
 * - the blind holdout test/fixtures/conflict-pairs-blind.json (twelfth round: 120 pairs written before
 *   anything ran on them), per type, and in the store section planted in the four blind conversations
 *   (test/fixtures/conversations-blind.json); totals only, skipped by --dev-only, never in --errors;
 * - the hand-written sets dev2, dev3, ... (issue 27, sessions 10 on), one row each in
 *   scripts/hand-written-sets.ts: pairs test/fixtures/conflict-pairs-<name>.json on the split
 *   test/fixtures/conflict-<name>-split.json (all dev), per type, and in the store section planted in
 *   the set's conversations (test/fixtures/conversations-<name>.json); a fresh holdout (its row's role)
 *   counts only, skipped by --dev-only, never in --errors; dev data once the merge that first measures it
 *   has flipped its role: computed with --dev-only, its misses listed by --errors like the unseen sets';
 * - the template set test/fixtures/conflict-pairs.json (one sentence template, 362 pairs) and
 *   test/fixtures/conflict-pairs-fresh.json.
 *
 *   npm run eval:conflicts                  # everything above
 *   npm run eval:conflicts -- --errors      # also list the realistic DEV pairs it gets wrong
 *   npm run eval:conflicts -- --json        # machine-readable result
 *   npm run eval:conflicts -- --dev-only    # realistic DEV split only: no holdout figure is computed
 *                                           # (also MEMWEAVE_EVAL_DEV_ONLY=1); use while iterating
 *   npm run eval:conflicts -- --probes=FILE # a probe file ({pairs:[{id,type,label,a,b}]}) per type, with its errors
 *   npm run eval:conflicts -- --wide        # only the dev pairs of both sets planted in conv-26/30/41 turns and observations, 3 seeds (with --errors: their false flags)
 *   npm run eval:conflicts -- --no-store    # skip the store section (scripts/eval-conflict-store.ts)
 *
 * The store section writes LoCoMo conversations, planted realistic pairs and the enumeration set
 * through createMemory + mem.facts.write and counts what mem.facts.conflicts() lists: the figures
 * a user meets (issue 27). --errors also lists its flags on dev data (never on conv-41 or the
 * holdout pairs).
 *
 * There is deliberately no flag to list holdout errors: the holdout is reported, never inspected.
 * "Positive" is label `conflict`; `compatible` and `unrelated` are negatives.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { existsSync } from 'node:fs'
import { TextConflictDetector } from '../src/conflict/judge/text-detector.js'
import { ConflictDetector } from '../src/working/conflict/detector.js'
import { crudeRule } from './conflict-baseline.js'
import { evaluateStore, evaluateWide, formatStore, formatWide } from './eval-conflict-store.js'
import { HAND_WRITTEN_SETS, handWrittenSet, measuredNow, pairsPath, setTitle, splitPath, type HandWrittenSet } from './hand-written-sets.js'

export interface LabelledPair {
  readonly id: string
  readonly category: string
  readonly label: 'conflict' | 'compatible' | 'unrelated'
  /** `dev`/`holdout` in conflict-pairs.json; `fresh-1`/`fresh-2` in conflict-pairs-fresh.json. */
  readonly split: 'dev' | 'holdout' | 'fresh-1' | 'fresh-2'
  /** Realistic pairs only: why the label holds. */
  readonly why?: string
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

export const REALISTIC_PAIRS = process.env['MEMWEAVE_REALISTIC_PAIRS'] ?? resolve(here, '../../shared/data/conflicts/pairs-realistic.json')
export const CONFLICT_SPLIT = resolve(here, '../test/fixtures/conflict-split.json')

/** The realistic pairs with their fixed split; `category` is the pair's type. Empty when the file is absent. */
export function loadRealistic(path = REALISTIC_PAIRS, splitPath = CONFLICT_SPLIT): LabelledPair[] {
  if (!existsSync(path)) return []
  const split = JSON.parse(readFileSync(splitPath, 'utf8')) as { dev: string[]; holdout: string[] }
  const holdout = new Set(split.holdout)
  const dev = new Set(split.dev)
  const raw = (JSON.parse(readFileSync(path, 'utf8')) as { pairs: Array<{ id: string; type: string; label: LabelledPair['label']; a: string; b: string; why?: string; kind?: string }> }).pairs
  return raw.map((p) => {
    if (!holdout.has(p.id) && !dev.has(p.id)) throw new Error(`pair ${p.id} is in neither split: the split file is stale`)
    const why = p.why ?? p.kind
    return { id: p.id, category: p.type, label: p.label, split: holdout.has(p.id) ? 'holdout' : 'dev', a: p.a, b: p.b, ...(why === undefined ? {} : { why }) }
  })
}

/** Issue 27's hand-written set in the styles of public contradiction data (persona, everyday, news), with its own split. */
export const UNSEEN_PAIRS = resolve(here, '../test/fixtures/conflict-pairs-unseen.json')
export const UNSEEN_SPLIT = resolve(here, '../test/fixtures/conflict-unseen-split.json')

export function loadUnseen(): LabelledPair[] {
  return loadRealistic(UNSEEN_PAIRS, UNSEEN_SPLIT)
}

/** Issue 27's second hand-written set (ninth round): jobs, habits, amounts, states, places, travel; its own split. */
export const UNSEEN2_PAIRS = resolve(here, '../test/fixtures/conflict-pairs-unseen2.json')
export const UNSEEN2_SPLIT = resolve(here, '../test/fixtures/conflict-unseen2-split.json')

export function loadUnseen2(): LabelledPair[] {
  return loadRealistic(UNSEEN2_PAIRS, UNSEEN2_SPLIT)
}

/** A hand-written set's pairs (scripts/hand-written-sets.ts) on its fixed split. */
export function loadHandWritten(set: HandWrittenSet): LabelledPair[] {
  return loadRealistic(pairsPath(set), splitPath(set))
}

/** Issue 27's dev2 set (session 10; test/fixtures/README.md). */
export function loadDev2(): LabelledPair[] {
  return loadHandWritten(handWrittenSet('dev2'))
}

/** Issue 27's dev3 set (session 11; test/fixtures/README.md). */
export function loadDev3(): LabelledPair[] {
  return loadHandWritten(handWrittenSet('dev3'))
}

/** A hand-written set's pairs as its role says: none while iterating (--dev-only) if it is still the holdout, its dev split only with --dev-only. */
function pairsByRole(set: HandWrittenSet, devOnly: boolean): LabelledPair[] {
  return measuredNow(set, devOnly) ? loadHandWritten(set).filter((p) => !devOnly || p.split === 'dev') : []
}

/** What a set's pairs title says of its role; dev2's and dev3's never said it (HandWrittenSet.pairsTitleNamesRole). */
function pairsRoleSays(set: HandWrittenSet): string {
  if (set.pairsTitleNamesRole === false) return ''
  return `; ${set.role === 'holdout' ? 'a fresh holdout: scores only, never listed' : 'dev data'}`
}

/** Issue 27's blind holdout pairs (twelfth round; test/fixtures/README.md): all holdout, scored and never listed. */
export const BLIND_PAIRS = resolve(here, '../test/fixtures/conflict-pairs-blind.json')

export function loadBlindPairs(path = BLIND_PAIRS): LabelledPair[] {
  const raw = (JSON.parse(readFileSync(path, 'utf8')) as { pairs: Array<{ id: string; type: string; label: LabelledPair['label']; a: string; b: string; why: string }> }).pairs
  return raw.map((p) => ({ id: p.id, category: p.type, label: p.label, split: 'holdout', why: p.why, a: p.a, b: p.b }))
}

/** Scores any pairwise rule the same way as the detector. */
export function evaluateRule(pairs: readonly LabelledPair[], rule: (a: string, b: string) => { conflict: boolean; reason: string }): EvalResult {
  return summarize(pairs.map((p) => {
    const v = rule(p.a, p.b)
    return { ...p, predicted: v.conflict, similarity: 0, reason: v.reason }
  }))
}

export async function evaluate(pairs: readonly LabelledPair[], detector = new ConflictDetector()): Promise<EvalResult> {
  const results: PairResult[] = []
  for (const p of pairs) {
    const [a, b] = await detector.analyze([p.a, p.b])
    const v = detector.compare(a!, b!)
    results.push({ ...p, predicted: v.conflict, similarity: v.similarity, reason: v.reason })
  }
  return summarize(results)
}

function summarize(results: readonly PairResult[]): EvalResult {
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

/** Realistic pairs: the three detectors side by side, per split and per type within each split. */
export interface RealisticResult {
  readonly detector: EvalResult
  readonly textOnly: EvalResult
  readonly crude: EvalResult
}

export async function evaluateRealistic(pairs = loadRealistic()): Promise<RealisticResult> {
  const text = new TextConflictDetector()
  return {
    detector: await evaluate(pairs),
    textOnly: evaluateRule(pairs, (a, b) => text.judge(a, b)),
    crude: evaluateRule(pairs, (a, b) => ({ conflict: crudeRule(a, b), reason: 'crude rule' })),
  }
}

export function formatRealistic(r: RealisticResult, title = `Realistic pairs (${REALISTIC_PAIRS}), fixed split test/fixtures/conflict-split.json`): string {
  const f = (s: Scores): string => `${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.f1)}`
  const lines = [
    title,
    '',
    '| split / type        | pairs | conflicts | detector P | R | F1 | text-only P | R | F1 | crude rule P | R | F1 |',
    '|---------------------|------:|---:|------:|------:|------:|------:|------:|------:|------:|------:|------:|',
  ]
  const row = (name: string, keep: (p: PairResult) => boolean): void => {
    const [d, t, c] = [r.detector, r.textOnly, r.crude].map((e) => score(e.results.filter(keep)))
    const n = r.detector.results.filter(keep)
    lines.push(`| ${name.padEnd(19)} | ${String(n.length).padStart(5)} | ${String(n.filter((p) => p.label === 'conflict').length).padStart(2)} | ${f(d!)} | ${f(t!)} | ${f(c!)} |`)
  }
  row('all', () => true)
  for (const split of ['dev', 'holdout']) {
    if (!r.detector.results.some((p) => p.split === split)) continue
    row(split, (p) => p.split === split)
    for (const type of [...new Set(r.detector.results.map((p) => p.category))].sort()) row(`  ${split} ${type}`, (p) => p.split === split && p.category === type)
  }
  return lines.join('\n') + '\n'
}

/** Probe pairs written apart from the realistic set, scored per type; `category` is the pair's type. */
export function loadProbes(path: string): LabelledPair[] {
  const raw = (JSON.parse(readFileSync(path, 'utf8')) as { pairs: Array<{ id: string; type: string; label: LabelledPair['label']; a: string; b: string }> }).pairs
  return raw.map((p) => ({ id: p.id, category: p.type, label: p.label, split: 'dev', a: p.a, b: p.b }))
}

function formatProbes(path: string): string {
  const text = new TextConflictDetector()
  const r = evaluateRule(loadProbes(path), (a, b) => text.judge(a, b))
  const f = (s: Scores): string => `${pct(s.precision)} / ${pct(s.recall)} / ${pct(s.f1)} (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`
  const lines = [`Probes ${path} (text detector): all ${f(r.overall)}`]
  for (const type of [...new Set(r.results.map((p) => p.category))].sort()) lines.push(`  ${type}: ${f(score(r.results.filter((p) => p.category === type)))}`)
  for (const w of r.results.filter((x) => x.predicted !== (x.label === 'conflict'))) lines.push(`  ${w.id} ${w.category} [${w.label}] ${w.reason}\n    A: ${w.a}\n    B: ${w.b}`)
  return lines.join('\n') + '\n'
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (args.includes('--wide')) {
    // Dev pairs only, whatever else is asked: the wide line never plants a holdout pair.
    const sets = [['realistic dev', loadRealistic().filter((p) => p.split === 'dev')], ['unseen dev', loadUnseen().filter((p) => p.split === 'dev')]] as const
    process.stdout.write(formatWide(await evaluateWide(sets), args.some((a) => a.startsWith('--errors'))))
    return
  }
  const probes = args.find((a) => a.startsWith('--probes='))
  if (probes) {
    process.stdout.write(formatProbes(probes.slice('--probes='.length)))
    return
  }
  // While iterating, the holdout is not even scored: it is looked at once per milestone, never per change.
  const devOnly = args.includes('--dev-only') || process.env['MEMWEAVE_EVAL_DEV_ONLY'] === '1'
  const realistic = loadRealistic().filter((p) => !devOnly || p.split === 'dev')
  const real = realistic.length ? await evaluateRealistic(realistic) : null
  const unseenPairs = loadUnseen().filter((p) => !devOnly || p.split === 'dev')
  const unseen = await evaluateRealistic(unseenPairs)
  const unseen2Pairs = loadUnseen2().filter((p) => !devOnly || p.split === 'dev')
  const unseen2 = await evaluateRealistic(unseen2Pairs)
  // The blind holdout is a holdout throughout: not computed while iterating (--dev-only).
  const blindPairs = devOnly ? [] : loadBlindPairs()
  const blind = blindPairs.length ? await evaluateRealistic(blindPairs) : null
  // A fresh set (role 'holdout') is scored at a merge, never while iterating.
  const sets: Array<{ readonly set: HandWrittenSet; readonly pairs: LabelledPair[]; readonly scored: RealisticResult | null }> = []
  for (const set of HAND_WRITTEN_SETS) {
    const pairs = pairsByRole(set, devOnly)
    sets.push({ set, pairs, scored: pairs.length ? await evaluateRealistic(pairs) : null })
  }
  const result = await evaluate(loadPairs())
  const fresh = await evaluate(loadPairs(FRESH_PAIRS))
  const store = args.includes('--no-store') ? null : await evaluateStore(realistic, devOnly, {}, unseenPairs, unseen2Pairs, blindPairs, new Map(sets.map((s) => [s.set.name, s.pairs])))
  if (args.includes('--json')) {
    const strip = ({ results: _, ...rest }: EvalResult) => rest
    const realJson = real && Object.fromEntries(Object.entries(real).map(([k, v]) => [k, strip(v)]))
    const storeJson = store && {
      noise: store.noise.map((n) => ({ name: n.name, split: n.split, facts: n.run.facts, flags: n.run.flags.length })),
      enumerations: { facts: store.enumerations.facts, flags: store.enumerations.flags.length },
      planted: store.planted.map(({ split, result: { falseFlags: _f, missed: _m, ...rest } }) => ({ split, ...rest })),
      devSeeds: store.devSeeds,
      plantedUnseen: store.plantedUnseen.map(({ split, result: { falseFlags: _f, missed: _m, ...rest } }) => ({ split, ...rest })),
      plantedUnseen2: store.plantedUnseen2.map(({ split, result: { falseFlags: _f, missed: _m, ...rest } }) => ({ split, ...rest })),
      blind: store.blind.map((b) => ({ name: b.name, facts: b.run.facts, flags: b.run.flags.length, ...b.labelled })),
      plantedBlind: store.plantedBlind.map(({ into, result: { falseFlags: _f, missed: _m, ...rest } }) => ({ into, ...rest })),
      // Keys devN / plantedDevN, as before the sets were one table, so a consumer reads the same JSON.
      ...Object.fromEntries((store.sets ?? []).flatMap(({ set, rows, planted }) => [
        [set.name, rows.map((b) => ({ name: b.name, facts: b.run.facts, flags: b.run.flags.length, ...b.labelled }))],
        [`planted${setTitle(set)}`, planted.map(({ into, result: { falseFlags: _f, missed: _m, ...rest } }) => ({ into, ...rest }))],
      ])),
    }
    const unseenJson = Object.fromEntries(Object.entries(unseen).map(([k, v]) => [k, strip(v)]))
    const unseen2Json = Object.fromEntries(Object.entries(unseen2).map(([k, v]) => [k, strip(v)]))
    // Scores only: a pair's result carries its texts and reason, so the blind set's results are stripped too.
    const blindJson = blind && Object.fromEntries(Object.entries(blind).map(([k, v]) => [k, strip(v)]))
    const setsJson = Object.fromEntries(sets.map(({ set, scored }) => [set.name, scored && Object.fromEntries(Object.entries(scored).map(([k, v]) => [k, strip(v)]))]))
    process.stdout.write(JSON.stringify({ realistic: realJson, unseen: unseenJson, unseen2: unseen2Json, ...setsJson, blind: blindJson, main: strip(result), fresh: strip(fresh), store: storeJson }, null, 2) + '\n')
    return
  }
  if (real) process.stdout.write(formatRealistic(real) + '\n')
  process.stdout.write(formatRealistic(unseen, 'Unseen pairs (test/fixtures/conflict-pairs-unseen.json, issue 27: persona, everyday and news styles), fixed split test/fixtures/conflict-unseen-split.json') + '\n')
  process.stdout.write(formatRealistic(unseen2, 'Unseen pairs, second set (test/fixtures/conflict-pairs-unseen2.json, issue 27: jobs, habits, amounts, states, places, travel), fixed split test/fixtures/conflict-unseen2-split.json') + '\n')
  for (const { set, scored } of sets) {
    if (scored) process.stdout.write(formatRealistic(scored, `${setTitle(set)} pairs (test/fixtures/conflict-pairs-${set.name}.json, issue 27 ${set.written}: written without reading the detector${pairsRoleSays(set)}), fixed split test/fixtures/conflict-${set.name}-split.json (all dev)`) + '\n')
  }
  if (blind) process.stdout.write(formatRealistic(blind, 'Blind holdout pairs (test/fixtures/conflict-pairs-blind.json, issue 27 twelfth round: written before anything ran on them; never tune on them), all holdout') + '\n')
  if (store) process.stdout.write(formatStore(store, args.some((a) => a.startsWith('--errors'))) + '\n')
  else process.stdout.write(`Realistic pairs not found at ${REALISTIC_PAIRS} (set MEMWEAVE_REALISTIC_PAIRS)\n\n`)
  process.stdout.write(formatEval(result))
  process.stdout.write('\n' + formatEval(fresh, 'test/fixtures/conflict-pairs-fresh.json (written after the detector was frozen)'))
  if (args.some((a) => a.startsWith('--errors')) && real) {
    const wrong = real.detector.results.filter((r) => r.split === 'dev' && r.predicted !== (r.label === 'conflict'))
    process.stdout.write(`\nRealistic DEV pairs misclassified: ${wrong.length} (holdout errors are not listed, by design)\n`)
    for (const w of wrong) process.stdout.write(`  ${w.id} ${w.category} [${w.label}] ${w.reason}\n    A: ${w.a}\n    B: ${w.b}\n`)
    // The unseen set's dev errors, by the text detector (what facts use); its holdout is never listed.
    const unseenWrong = unseen.textOnly.results.filter((r) => r.split === 'dev' && r.predicted !== (r.label === 'conflict'))
    process.stdout.write(`\nUnseen DEV pairs misclassified by the text detector: ${unseenWrong.length}\n`)
    for (const w of unseenWrong) process.stdout.write(`  ${w.id} ${w.category} [${w.label}] (${w.why ?? ''}) ${w.reason}\n    A: ${w.a}\n    B: ${w.b}\n`)
    const unseen2Wrong = unseen2.textOnly.results.filter((r) => r.split === 'dev' && r.predicted !== (r.label === 'conflict'))
    process.stdout.write(`\nUnseen (second set) DEV pairs misclassified by the text detector: ${unseen2Wrong.length}\n`)
    for (const w of unseen2Wrong) process.stdout.write(`  ${w.id} ${w.category} [${w.label}] (${w.why ?? ''}) ${w.reason}\n    A: ${w.a}\n    B: ${w.b}\n`)
    // A fresh holdout's pairs are never listed: a set is listed once its role is dev.
    for (const { set, scored } of sets) {
      if (!scored || set.role !== 'dev') continue
      const wrong = scored.textOnly.results.filter((r) => r.split === 'dev' && r.predicted !== (r.label === 'conflict'))
      process.stdout.write(`\n${setTitle(set)} pairs misclassified by the text detector: ${wrong.length}\n`)
      for (const w of wrong) process.stdout.write(`  ${w.id} ${w.category} [${w.label}] (${w.why ?? ''}) ${w.reason}\n    A: ${w.a}\n    B: ${w.b}\n`)
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}
