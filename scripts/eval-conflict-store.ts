/**
 * Conflict flags where users meet them: in a store, through the public API (createMemory,
 * mem.facts.write, mem.facts.conflicts()), not on balanced pairs. Part of `npm run eval:conflicts`.
 *
 * - Background noise: a LoCoMo conversation's dialogue turns (as "Speaker: text", the README's
 *   protocol, and as the text alone) and its `observation` entries, each written as a free-text
 *   fact; flags per 100 facts. Real contradictions are rare there, so nearly every flag is noise.
 * - Planted pairs: each realistic pair of one split written into conv-26's turn stream at fixed
 *   seeded positions (its first statement earlier, its second later); precision of everything
 *   conflicts() lists (background flags count against it), recall of the planted contradictions.
 * - Enumerations (test/fixtures/conflict-enumerations.json): numbered notes, tickets, steps,
 *   chapters, versions, list items; every flag there is wrong.
 * - The blind holdout (issue 27, twelfth round; test/fixtures/README.md): four hand-written
 *   conversations (`blind-N`) as backgrounds and its 120 pairs planted in each; written before
 *   anything ran on them and reported as totals only, never a flagged text, even with --errors.
 * - The hand-written sets dev2, dev3, ... (issue 27, sessions 10 on; test/fixtures/README.md), one
 *   row each in scripts/hand-written-sets.ts: each set's conversations (`devN-N`, some of them a user
 *   talking to an assistant) as backgrounds with their labelled changes, and its pairs planted in
 *   each; its role says whether it is still the fresh holdout (counts only, skipped by --dev-only)
 *   or dev data (listed by --errors).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMemory, type CreateMemoryOptions } from '../src/index.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { parseSessionDate, sharedDir } from './eval-retrieval.js'
import type { LabelledPair } from './eval-conflicts.js'
import { mulberry32 } from '../src/core/seeded-random.js'
import { conversationsPath, HAND_WRITTEN_SETS, measuredNow, roleSays, setTitle, type HandWrittenSet } from './hand-written-sets.js'

const here = resolve(fileURLToPath(import.meta.url), '..')
export const ENUMERATIONS = resolve(here, '../test/fixtures/conflict-enumerations.json')
/** Hand-written conversations in LoCoMo's shape (test/fixtures/README.md): dev backgrounds, named `synthetic-N`. */
export const SYNTHETIC = resolve(here, '../test/fixtures/conversations-synthetic.json')

export interface StoreFact {
  readonly content: string
  readonly validFrom?: string
}

export interface StoreRun {
  readonly facts: number
  /** free-text conflicts listed, each as the two contents and the reason */
  readonly flags: ReadonlyArray<{ readonly a: string; readonly b: string; readonly reason: string; readonly confidence: number }>
}

interface RawConversation {
  conversation: Record<string, unknown>
  observation: Record<string, Record<string, Array<[string, string]>>>
}

/**
 * The blind holdout's conversations (issue 27, twelfth round; test/fixtures/README.md), named
 * `blind-N`: written before anything ran on them; their flags are counted, never printed.
 */
export const BLIND = resolve(here, '../test/fixtures/conversations-blind.json')

/** The hand-written files by the prefix of their conversations' names. */
const HAND_WRITTEN: ReadonlyArray<readonly [string, string]> = [['synthetic-', SYNTHETIC], ['blind-', BLIND], ...HAND_WRITTEN_SETS.map((set): [string, string] => [`${set.name}-`, conversationsPath(set)])]

function handWrittenPath(name: string): string | null {
  return HAND_WRITTEN.find(([prefix]) => name.startsWith(prefix))?.[1] ?? null
}

/** What a hand-written conversation's `changes` entry says changed: a state over time, or two statements that cannot both hold. */
export type LabelledKind = 'change' | 'contradiction'

/** A hand-written file's conversations by name, read once per path. */
const handWritten = new Map<string, Map<string, RawConversation>>()

function handWrittenFile(path: string): Map<string, RawConversation> {
  let file = handWritten.get(path)
  if (!file) {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { conversations: Array<RawConversation & { sample_id: string }> }
    file = new Map(raw.conversations.map((c) => [c.sample_id, c]))
    handWritten.set(path, file)
  }
  return file
}

/** The names of the hand-written conversations, in file order. */
export function syntheticNames(path = SYNTHETIC): string[] {
  return [...handWrittenFile(path).keys()]
}

/** The names of the blind holdout's conversations, in file order. */
export function blindNames(path = BLIND): string[] {
  return [...handWrittenFile(path).keys()]
}

/** The names of any hand-written file's conversations, in file order. */
export function handWrittenNames(path: string): string[] {
  return [...handWrittenFile(path).keys()]
}

function loadConversation(name: string): RawConversation {
  const path = handWrittenPath(name)
  if (path) {
    const c = handWrittenFile(path).get(name)
    if (!c) throw new Error(`no conversation ${name} in ${path}`)
    return c
  }
  return JSON.parse(readFileSync(resolve(sharedDir(), 'data', 'locomo', `${name}.json`), 'utf8')) as RawConversation
}

function sessions(conv: Record<string, unknown>): number[] {
  return Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
}

/** A conversation's turns in order, as "Speaker: text" (`speaker` true) or as the text alone. */
export function locomoTurns(name: string, speaker = true): StoreFact[] {
  const conv = loadConversation(name).conversation
  return sessions(conv).flatMap((s) => {
    const validFrom = parseSessionDate(conv[`session_${s}_date_time`] as string)
    return (conv[`session_${s}`] as Array<{ speaker: string; text: string }>).map((t) => ({ content: speaker ? `${t.speaker}: ${t.text}` : t.text, validFrom }))
  })
}

/** A conversation's `observation` entries in session order. */
export function locomoObservations(name: string): StoreFact[] {
  const raw = loadConversation(name)
  const conv = raw.conversation
  return sessions(conv).flatMap((s) => {
    const validFrom = parseSessionDate(conv[`session_${s}_date_time`] as string)
    const bySpeaker = raw.observation[`session_${s}_observation`] ?? {}
    return Object.values(bySpeaker).flatMap((list) => list.map(([text]) => ({ content: text, validFrom })))
  })
}

/**
 * The texts of a hand-written conversation's labelled changes (a plan that changed): each pair of
 * turns, as "Speaker: text" and as the text alone, and the observations drawn from them. A flag
 * between two of one change's texts is a real change over time, not noise. Empty for LoCoMo.
 */
export function labelledChanges(name: string): Array<[ReadonlySet<string>, ReadonlySet<string>]> {
  if (!handWrittenPath(name)) return []
  const raw = loadConversation(name) as RawConversation & { changes?: Array<{ a: string; b: string }> }
  const conv = raw.conversation
  const texts = (id: string): Set<string> => {
    const out = new Set<string>()
    for (const s of sessions(conv)) {
      for (const t of conv[`session_${s}`] as Array<{ speaker: string; text: string; dia_id: string }>) if (t.dia_id === id) out.add(t.text).add(`${t.speaker}: ${t.text}`)
      for (const list of Object.values(raw.observation[`session_${s}_observation`] ?? {})) for (const [text, ref] of list) if (ref === id) out.add(text)
    }
    return out
  }
  return (raw.changes ?? []).map((c) => [texts(c.a), texts(c.b)])
}

/** The kind of each labelled change, in the order labelledChanges gives them (`change` where the file does not say). */
export function labelledKinds(name: string): LabelledKind[] {
  if (!handWrittenPath(name)) return []
  const raw = loadConversation(name) as RawConversation & { changes?: Array<{ kind?: LabelledKind }> }
  return (raw.changes ?? []).map((c) => c.kind ?? 'change')
}

/** How many flags stand on a labelled change, and how many labelled changes (and contradictions) have a flag: counts only. */
export interface LabelledTally {
  readonly onLabelled: number
  readonly found: number
  readonly labelled: number
  readonly contradictionsFound: number
  readonly contradictions: number
}

export function tallyLabelled(name: string, flags: StoreRun['flags']): LabelledTally {
  const changes = labelledChanges(name)
  const kinds = labelledKinds(name)
  const between = (c: (typeof changes)[number], f: { a: string; b: string }): boolean => isLabelledChange([c], f)
  const hit = changes.map((c) => flags.some((f) => between(c, f)))
  const isContradiction = (i: number): boolean => kinds[i] === 'contradiction'
  return {
    onLabelled: flags.filter((f) => isLabelledChange(changes, f)).length,
    found: hit.filter(Boolean).length,
    labelled: changes.length,
    contradictionsFound: hit.filter((h, i) => h && isContradiction(i)).length,
    contradictions: kinds.filter((k) => k === 'contradiction').length,
  }
}

/** Whether a flag stands between the two sides of one labelled change. */
export function isLabelledChange(changes: ReturnType<typeof labelledChanges>, f: { a: string; b: string }): boolean {
  return changes.some(([x, y]) => (x.has(f.a) && y.has(f.b)) || (x.has(f.b) && y.has(f.a)))
}

/** The enumeration set: texts that name distinct items by number, label or id. */
export function enumerationFacts(path = ENUMERATIONS): StoreFact[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { groups: Array<{ name: string; texts: string[] }> }
  return raw.groups.flatMap((g) => g.texts.map((content) => ({ content })))
}

/** Writes the facts in order into a fresh in-memory store and lists its free-text conflicts. */
export async function runStore(facts: readonly StoreFact[], options: { minConfidence?: number; memory?: Partial<CreateMemoryOptions> } = {}): Promise<StoreRun> {
  const mem = await createMemory({ storage: memoryStorage(), ...options.memory })
  try {
    const content = new Map<string, string>()
    for (const f of facts) {
      const ref = await mem.facts.write(f.content, f.validFrom ? { validFrom: f.validFrom } : {})
      content.set(ref, f.content)
    }
    const listed = await mem.facts.conflicts(options.minConfidence === undefined ? {} : { minConfidence: options.minConfidence })
    const flags = listed
      .filter((c) => c.kind === 'free-text')
      .map((c) => ({ a: content.get(c.refs[0])!, b: content.get(c.refs[1])!, reason: c.reason, confidence: c.confidence ?? 1 }))
    return { facts: facts.length, flags }
  } finally {
    await mem.close()
  }
}

const seeded = mulberry32

export interface PlantedResult {
  readonly listed: number
  readonly tp: number
  /** listed pairs that are not a planted contradiction */
  readonly fp: number
  /** of the false ones: those between two background facts */
  readonly background: number
  readonly conflicts: number
  readonly precision: number
  readonly recall: number
  readonly byType: Record<string, { conflicts: number; found: number; fp: number }>
  readonly falseFlags: StoreRun['flags']
  readonly missed: readonly LabelledPair[]
}

/**
 * Plants every pair (all labels) in the background stream: for each pair two distinct positions
 * drawn from a seeded generator, `a` at the earlier, `b` at the later. A listed pair counts as
 * right only when it is exactly one planted contradiction.
 */
export async function runPlanted(pairs: readonly LabelledPair[], background: readonly StoreFact[], seed = 27, options: { minConfidence?: number } = {}): Promise<PlantedResult> {
  const rand = seeded(seed)
  const slots: Array<Array<{ fact: StoreFact; pair?: LabelledPair }>> = background.map((f) => [{ fact: f }])
  slots.push([])
  for (const p of pairs) {
    let i = Math.floor(rand() * slots.length)
    let j = Math.floor(rand() * slots.length)
    if (i === j) j = (j + 1) % slots.length
    if (i > j) [i, j] = [j, i]
    // A planted statement takes the date of the background fact it follows.
    const at = (k: number): string | undefined => background[Math.min(k, background.length - 1)]?.validFrom
    slots[i]!.push({ fact: { content: p.a, validFrom: at(i) }, pair: p })
    slots[j]!.push({ fact: { content: p.b, validFrom: at(j) }, pair: p })
  }
  const stream = slots.flat()
  const run = await runStore(stream.map((s) => s.fact), options)
  const planted = new Map<string, LabelledPair>()
  const plantedText = new Map<string, LabelledPair>()
  for (const p of pairs) {
    plantedText.set(p.a, p)
    plantedText.set(p.b, p)
    if (p.label === 'conflict') planted.set(`${p.a}\u0000${p.b}`, p)
  }
  const found = new Set<LabelledPair>()
  const byType: PlantedResult['byType'] = {}
  for (const p of pairs) if (p.label === 'conflict') (byType[p.category] ??= { conflicts: 0, found: 0, fp: 0 }).conflicts++
  const falseFlags: Array<StoreRun['flags'][number]> = []
  let bg = 0
  for (const f of run.flags) {
    const hit = planted.get(`${f.a}\u0000${f.b}`) ?? planted.get(`${f.b}\u0000${f.a}`)
    if (hit) {
      found.add(hit)
      continue
    }
    falseFlags.push(f)
    const owner = plantedText.get(f.a) ?? plantedText.get(f.b)
    if (owner) (byType[owner.category] ??= { conflicts: 0, found: 0, fp: 0 }).fp++
    else bg++
  }
  for (const p of found) byType[p.category]!.found++
  const tp = found.size
  const listed = run.flags.length
  // A statement written twice (two planted pairs share it) is two facts: each flag of one planted
  // contradiction is right, so precision counts the false flags, not the contradictions found.
  return {
    listed,
    tp,
    fp: falseFlags.length,
    background: bg,
    conflicts: planted.size,
    precision: listed === 0 ? 1 : (listed - falseFlags.length) / listed,
    recall: planted.size === 0 ? 1 : tp / planted.size,
    byType,
    falseFlags,
    missed: pairs.filter((p) => p.label === 'conflict' && !found.has(p)),
  }
}

export interface StoreSection {
  readonly noise: ReadonlyArray<{ readonly name: string; readonly split: 'dev' | 'holdout'; readonly run: StoreRun }>
  readonly enumerations: StoreRun
  readonly planted: ReadonlyArray<{ readonly split: 'dev' | 'holdout'; readonly result: PlantedResult }>
  /** The dev pairs planted with several seeds in two backgrounds (dev only: one seed is one draw of positions). */
  readonly devSeeds: SeedSpread | null
  /** The unseen set (issue 27, eighth round) planted in conv-30's turns, per split. */
  readonly plantedUnseen: ReadonlyArray<{ readonly split: 'dev' | 'holdout'; readonly result: PlantedResult }>
  /** The second unseen set (issue 27, ninth round) planted in conv-30's turns, per split. */
  readonly plantedUnseen2: ReadonlyArray<{ readonly split: 'dev' | 'holdout'; readonly result: PlantedResult }>
  /** The blind holdout's conversations as backgrounds (empty with devOnly): counts only are ever printed. */
  readonly blind: ReadonlyArray<{ readonly name: string; readonly run: StoreRun; readonly labelled: LabelledTally }>
  /** The blind holdout's pairs planted in each blind conversation's turns (seed 12), and their sum. */
  readonly plantedBlind: ReadonlyArray<{ readonly into: string; readonly result: PlantedResult }>
  /** Each row of HAND_WRITTEN_SETS, in the table's order (empty rows for a holdout with devOnly): absent where a caller builds a section by hand. */
  readonly sets?: readonly HandWrittenResult[]
}

/** One hand-written set in a store: its conversations as backgrounds, and its pairs planted in each conversation's turns (seed set.seed) with their sum. */
export interface HandWrittenResult {
  readonly set: HandWrittenSet
  readonly rows: StoreSection['blind']
  readonly planted: StoreSection['plantedBlind']
}

/** Precision and recall of the planted dev pairs over several runs: mean and lowest. */
export interface SeedSpread {
  readonly runs: number
  readonly precision: { readonly mean: number; readonly min: number }
  readonly recall: { readonly mean: number; readonly min: number }
  readonly falseFlags: { readonly mean: number; readonly max: number }
}

/** Seeds and backgrounds of the multi-seed dev line: 5 seeds in conv-26's turns and in conv-30's. */
export const DEV_SEEDS = [1, 2, 3, 4, 5] as const
const SEED_BACKGROUNDS = ['conv-26', 'conv-30'] as const

/** Plants the pairs with each seed of DEV_SEEDS in each background; the spread of what is listed. */
export async function seedSpread(pairs: readonly LabelledPair[], options: { minConfidence?: number } = {}): Promise<SeedSpread> {
  const results: PlantedResult[] = []
  for (const name of SEED_BACKGROUNDS) {
    const background = locomoTurns(name)
    for (const seed of DEV_SEEDS) results.push(await runPlanted(pairs, background, seed, options))
  }
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
  const [p, r, f] = [results.map((x) => x.precision), results.map((x) => x.recall), results.map((x) => x.fp)]
  return { runs: results.length, precision: { mean: mean(p), min: Math.min(...p) }, recall: { mean: mean(r), min: Math.min(...r) }, falseFlags: { mean: mean(f), max: Math.max(...f) } }
}

/** The whole store section; with `devOnly`, nothing of a holdout (conv-41, holdout pairs) is computed. */
export async function evaluateStore(realistic: readonly LabelledPair[], devOnly: boolean, options: { minConfidence?: number } = {}, unseen: readonly LabelledPair[] = [], unseen2: readonly LabelledPair[] = [], blindPairs: readonly LabelledPair[] = [], handWrittenPairs: ReadonlyMap<string, readonly LabelledPair[]> = new Map()): Promise<StoreSection> {
  const convs: Array<[string, 'dev' | 'holdout']> = [['conv-26', 'dev'], ['conv-30', 'dev'], ['conv-41', 'holdout'], ...syntheticNames().map((n): [string, 'dev'] => [n, 'dev'])]
  const noise: Array<StoreSection['noise'][number]> = []
  for (const [name, split] of convs) {
    if (devOnly && split === 'holdout') continue
    noise.push({ name: `${name} observations`, split, run: await runStore(locomoObservations(name), options) })
    noise.push({ name: `${name} turns`, split, run: await runStore(locomoTurns(name), options) })
    noise.push({ name: `${name} turns, text only`, split, run: await runStore(locomoTurns(name, false), options) })
  }
  const enumerations = await runStore(enumerationFacts(), options)
  const planted: Array<StoreSection['planted'][number]> = []
  const background = locomoTurns('conv-26')
  for (const split of ['dev', 'holdout'] as const) {
    if (devOnly && split === 'holdout') continue
    const pairs = realistic.filter((p) => p.split === split)
    if (pairs.length) planted.push({ split, result: await runPlanted(pairs, background, 27, options) })
  }
  // Another conversation as background for a set nobody shaped the code around.
  const plantedUnseen: Array<StoreSection['plantedUnseen'][number]> = []
  const plantedUnseen2: Array<StoreSection['plantedUnseen2'][number]> = []
  const background30 = unseen.length || unseen2.length ? locomoTurns('conv-30') : []
  for (const split of ['dev', 'holdout'] as const) {
    if (devOnly && split === 'holdout') continue
    const pairs = unseen.filter((p) => p.split === split)
    if (pairs.length) plantedUnseen.push({ split, result: await runPlanted(pairs, background30, 30, options) })
    const pairs2 = unseen2.filter((p) => p.split === split)
    if (pairs2.length) plantedUnseen2.push({ split, result: await runPlanted(pairs2, background30, 28, options) })
  }
  const devPairs = realistic.filter((p) => p.split === 'dev')
  const devSeeds = devPairs.length ? await seedSpread(devPairs, options) : null
  const { blind, plantedBlind } = devOnly ? { blind: [], plantedBlind: [] } : await evaluateBlind(blindPairs, options)
  // The same measure as the blind set's, per hand-written set (by set name in handWrittenPairs);
  // a fresh set is looked at once, at a merge: not computed while iterating.
  const sets: HandWrittenResult[] = []
  for (const set of HAND_WRITTEN_SETS) {
    const run = measuredNow(set, devOnly) ? await evaluateBlind(handWrittenPairs.get(set.name) ?? [], options, handWrittenNames(conversationsPath(set)), set.seed) : { blind: [], plantedBlind: [] }
    sets.push({ set, rows: run.blind, planted: run.plantedBlind })
  }
  return { noise, enumerations, planted, plantedUnseen, plantedUnseen2, devSeeds, blind, plantedBlind, sets }
}

/** Seed of the blind pairs' positions in each blind background. */
export const BLIND_SEED = 12
/**
 * The blind holdout in a store: each blind conversation's observations, turns and turns as text
 * alone, with how many flags stand on its labelled changes; and the blind pairs planted in each
 * conversation's turns, then summed ("all four") as one precision of all listed and one recall.
 */
export async function evaluateBlind(pairs: readonly LabelledPair[], options: { minConfidence?: number } = {}, names: readonly string[] = blindNames(), seed = BLIND_SEED): Promise<Pick<StoreSection, 'blind' | 'plantedBlind'>> {
  const blind: Array<StoreSection['blind'][number]> = []
  const plantedBlind: Array<StoreSection['plantedBlind'][number]> = []
  for (const name of names) {
    for (const [kind, facts] of [['observations', locomoObservations(name)], ['turns', locomoTurns(name)], ['turns, text only', locomoTurns(name, false)]] as const) {
      const run = await runStore(facts, options)
      blind.push({ name: `${name} ${kind}`, run, labelled: tallyLabelled(name, run.flags) })
    }
    if (pairs.length) plantedBlind.push({ into: `${name} turns`, result: await runPlanted(pairs, locomoTurns(name), seed, options) })
  }
  if (plantedBlind.length > 1) plantedBlind.push({ into: `all ${plantedBlind.length}`, result: sumPlanted(plantedBlind.map((p) => p.result)) })
  return { blind, plantedBlind }
}

/** Several planted runs as one: counts added, precision of all listed, recall of all planted. */
export function sumPlanted(runs: readonly PlantedResult[]): PlantedResult {
  const add = (f: (r: PlantedResult) => number): number => runs.reduce((n, r) => n + f(r), 0)
  const byType: Record<string, { conflicts: number; found: number; fp: number }> = {}
  for (const r of runs) {
    for (const [type, t] of Object.entries(r.byType)) {
      const sum = (byType[type] ??= { conflicts: 0, found: 0, fp: 0 })
      sum.conflicts += t.conflicts
      sum.found += t.found
      sum.fp += t.fp
    }
  }
  const [listed, tp, fp, conflicts] = [add((r) => r.listed), add((r) => r.tp), add((r) => r.fp), add((r) => r.conflicts)]
  return {
    listed,
    tp,
    fp,
    background: add((r) => r.background),
    conflicts,
    precision: listed === 0 ? 1 : (listed - fp) / listed,
    recall: conflicts === 0 ? 1 : tp / conflicts,
    byType,
    falseFlags: runs.flatMap((r) => r.falseFlags),
    missed: runs.flatMap((r) => r.missed),
  }
}

const f3 = (x: number): string => x.toFixed(3)
const per100 = (r: StoreRun): string => ((100 * r.flags.length) / Math.max(1, r.facts)).toFixed(2)

function plantedTable(lines: string[], planted: StoreSection['planted']): void {
  lines.push('| split / type        | conflicts | listed | tp | fp (background) | precision | recall |', '|---|---:|---:|---:|---:|---:|---:|')
  for (const { split, result: r } of planted) {
    lines.push(`| ${split.padEnd(19)} | ${r.conflicts} | ${r.listed} | ${r.tp} | ${r.fp} (${r.background}) | ${f3(r.precision)} | ${f3(r.recall)} |`)
    for (const [type, t] of Object.entries(r.byType).sort()) {
      const p = t.found + t.fp === 0 ? 1 : t.found / (t.found + t.fp)
      lines.push(`|   ${`${split} ${type}`.padEnd(17)} | ${t.conflicts} | ${t.found + t.fp} | ${t.found} | ${t.fp} | ${f3(p)} | ${f3(t.conflicts ? t.found / t.conflicts : 1)} |`)
    }
  }
}

/** A hand-written set's tables: each conversation's flags per 100 facts with its labelled changes, then its pairs planted per conversation and summed. Counts only. */
function handWrittenTables(lines: string[], rows: StoreSection['blind'], planted: StoreSection['plantedBlind'], title: string, plantedTitle: string): void {
  if (rows.length) {
    lines.push('', title, '')
    lines.push('| facts written                     | facts | flags | per 100 | on a labelled change | labelled flagged | contradictions flagged |', '|---|---:|---:|---:|---:|---:|---:|')
    for (const b of rows) {
      const l = b.labelled
      lines.push(`| ${b.name.padEnd(33)} | ${String(b.run.facts).padStart(5)} | ${String(b.run.flags.length).padStart(5)} | ${per100(b.run).padStart(7)} | ${l.onLabelled} | ${l.found} / ${l.labelled} | ${l.contradictionsFound} / ${l.contradictions} |`)
    }
    for (const kind of ['observations', 'turns', 'turns, text only']) {
      const ofKind = rows.filter((b) => b.name.endsWith(` ${kind}`))
      const facts = ofKind.reduce((n, b) => n + b.run.facts, 0)
      const flags = ofKind.reduce((n, b) => n + b.run.flags.length, 0)
      const on = ofKind.reduce((n, b) => n + b.labelled.onLabelled, 0)
      lines.push(`| ${`all ${ofKind.length}, ${kind}`.padEnd(33)} | ${String(facts).padStart(5)} | ${String(flags).padStart(5)} | ${((100 * flags) / Math.max(1, facts)).toFixed(2).padStart(7)} | ${on} | - | - |`)
    }
  }
  if (planted.length) {
    lines.push('', plantedTitle, '')
    lines.push('| background / type   | conflicts | listed | tp | fp (background) | precision | recall |', '|---|---:|---:|---:|---:|---:|---:|')
    const total = planted[planted.length - 1]!
    for (const { into, result: r } of planted) {
      lines.push(`| ${into.padEnd(19)} | ${r.conflicts} | ${r.listed} | ${r.tp} | ${r.fp} (${r.background}) | ${f3(r.precision)} | ${f3(r.recall)} |`)
    }
    for (const [type, t] of Object.entries(total.result.byType).sort()) {
      const p = t.found + t.fp === 0 ? 1 : t.found / (t.found + t.fp)
      lines.push(`|   ${`${total.into} ${type}`.padEnd(17)} | ${t.conflicts} | ${t.found + t.fp} | ${t.found} | ${t.fp} | ${f3(p)} | ${f3(t.conflicts ? t.found / t.conflicts : 1)} |`)
    }
  }
}

export function formatStore(s: StoreSection, errors: boolean): string {
  const lines = ['Store (createMemory + mem.facts.write, then mem.facts.conflicts(), default settings)', '']
  lines.push('| facts written                     | split   | facts | flags | per 100 |', '|---|---|---:|---:|---:|')
  for (const n of s.noise) lines.push(`| ${n.name.padEnd(33)} | ${n.split.padEnd(7)} | ${String(n.run.facts).padStart(5)} | ${String(n.run.flags.length).padStart(5)} | ${per100(n.run).padStart(7)} |`)
  lines.push(`| ${'enumerations (must be 0)'.padEnd(33)} | ${'-'.padEnd(7)} | ${String(s.enumerations.facts).padStart(5)} | ${String(s.enumerations.flags.length).padStart(5)} | ${per100(s.enumerations).padStart(7)} |`)
  lines.push('', 'Realistic pairs planted in conv-26\'s turns (seed 27): precision of all listed, recall of planted contradictions', '')
  plantedTable(lines, s.planted)
  if (s.plantedUnseen.length) {
    lines.push('', 'Unseen pairs (test/fixtures/conflict-pairs-unseen.json) planted in conv-30\'s turns (seed 30)', '')
    plantedTable(lines, s.plantedUnseen)
  }
  if (s.plantedUnseen2.length) {
    lines.push('', 'Unseen pairs, second set (test/fixtures/conflict-pairs-unseen2.json) planted in conv-30\'s turns (seed 28)', '')
    plantedTable(lines, s.plantedUnseen2)
  }
  // Counts only: the blind holdout's flagged texts are never printed, not even with --errors.
  handWrittenTables(lines, s.blind, s.plantedBlind, 'Blind holdout conversations (test/fixtures/conversations-blind.json; flags counted, never listed)', `Blind holdout pairs (test/fixtures/conflict-pairs-blind.json) planted in each blind conversation's turns (seed ${BLIND_SEED})`)
  for (const { set, rows, planted } of s.sets ?? []) {
    handWrittenTables(lines, rows, planted, `${setTitle(set)} conversations (test/fixtures/conversations-${set.name}.json, ${set.written}; ${roleSays(set.role)})`, `${setTitle(set)} pairs (test/fixtures/conflict-pairs-${set.name}.json) planted in each ${set.name} conversation's turns (seed ${set.seed})`)
  }
  if (s.devSeeds) {
    const d = s.devSeeds
    lines.push('', `Planted dev, ${d.runs} runs (seeds ${DEV_SEEDS.join(', ')} in conv-26's and in conv-30's turns): precision mean ${f3(d.precision.mean)} / min ${f3(d.precision.min)}, recall mean ${f3(d.recall.mean)} / min ${f3(d.recall.min)}, false flags mean ${d.falseFlags.mean.toFixed(1)} / max ${d.falseFlags.max}`)
  }
  if (errors) {
    // Flags on background, enumerations and the dev split only: holdout errors are never listed.
    for (const n of s.noise.filter((x) => x.split === 'dev')) {
      if (!n.run.flags.length) continue
      lines.push('', `Flags in ${n.name}:`)
      const changes = labelledChanges(n.name.split(' ')[0]!)
      for (const f of n.run.flags) lines.push(`  [${f3(f.confidence)}]${isLabelledChange(changes, f) ? ' (a labelled change)' : ''} ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
    }
    // A holdout's flagged texts are never printed: a set is listed only once its role is dev.
    for (const { set, rows, planted } of (s.sets ?? []).filter((r) => r.set.role === 'dev')) {
      for (const n of rows) {
        if (!n.run.flags.length) continue
        lines.push('', `Flags in ${n.name}:`)
        const changes = labelledChanges(n.name.split(' ')[0]!)
        for (const f of n.run.flags) lines.push(`  [${f3(f.confidence)}]${isLabelledChange(changes, f) ? ' (a labelled change)' : ''} ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
      }
      const all = planted.at(-1)?.result
      if (!all) continue
      lines.push('', `${setTitle(set)} planted (all ${set.name} conversations): false flags ${all.falseFlags.length}`)
      for (const f of all.falseFlags) lines.push(`  [${f3(f.confidence)}] ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
      lines.push('', `${setTitle(set)} planted: missed ${all.missed.length}`)
      for (const p of all.missed) lines.push(`  ${p.id} ${p.category}\n    A: ${p.a}\n    B: ${p.b}`)
    }
    if (s.enumerations.flags.length) lines.push('', 'Flags in enumerations:')
    for (const f of s.enumerations.flags) lines.push(`  [${f3(f.confidence)}] ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
    const dev = s.planted.find((p) => p.split === 'dev')?.result
    if (dev) {
      lines.push('', `Planted dev: false flags ${dev.falseFlags.length}`)
      for (const f of dev.falseFlags) lines.push(`  [${f3(f.confidence)}] ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
      lines.push('', `Planted dev: missed ${dev.missed.length}`)
      for (const p of dev.missed) lines.push(`  ${p.id} ${p.category}\n    A: ${p.a}\n    B: ${p.b}`)
    }
    const unseenDev = s.plantedUnseen.find((p) => p.split === 'dev')?.result
    if (unseenDev) {
      lines.push('', `Unseen planted dev: false flags ${unseenDev.falseFlags.length}`)
      for (const f of unseenDev.falseFlags) lines.push(`  [${f3(f.confidence)}] ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
      lines.push('', `Unseen planted dev: missed ${unseenDev.missed.length}`)
      for (const p of unseenDev.missed) lines.push(`  ${p.id} ${p.category}\n    A: ${p.a}\n    B: ${p.b}`)
    }
    const unseen2Dev = s.plantedUnseen2.find((p) => p.split === 'dev')?.result
    if (unseen2Dev) {
      lines.push('', `Unseen (second set) planted dev: false flags ${unseen2Dev.falseFlags.length}`)
      for (const f of unseen2Dev.falseFlags) lines.push(`  [${f3(f.confidence)}] ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
    }
  }
  return lines.join('\n') + '\n'
}

/** Backgrounds of the wide dev line (issue 27, ninth round): three LoCoMo conversations and the hand-written ones, turns and observations. */
export const WIDE_BACKGROUNDS: readonly string[] = ['conv-26', 'conv-30', 'conv-41', ...syntheticNames()]
/** Seeds of the wide dev line: one draw of positions each. */
export const WIDE_SEEDS = [1, 2, 3] as const

/** Where a false flag of a planted run stands: between two planted pairs, within one, against the background, or between two background facts. */
export type FlagPlace = 'cross-pair' | 'in-pair' | 'pair-background' | 'background'

export interface WideLine {
  readonly set: 'realistic dev' | 'unseen dev'
  readonly background: string
  readonly runs: number
  readonly listed: number
  readonly tp: number
  readonly conflicts: number
  readonly falseBy: Record<FlagPlace, number>
  /** distinct false flags with the seeds they showed in; for conv-41 (a holdout conversation) only those between planted texts */
  readonly flags: ReadonlyArray<{ readonly place: FlagPlace; readonly seeds: number[]; readonly flag: StoreRun['flags'][number] }>
}

/** Where a false flag stands, by which of its texts were planted. */
export function flagPlace(pairs: readonly LabelledPair[], f: { a: string; b: string }): FlagPlace {
  const owners = (t: string): LabelledPair[] => pairs.filter((p) => p.a === t || p.b === t)
  const [oa, ob] = [owners(f.a), owners(f.b)]
  if (!oa.length && !ob.length) return 'background'
  if (!oa.length || !ob.length) return 'pair-background'
  return oa.some((p) => ob.includes(p)) ? 'in-pair' : 'cross-pair'
}

/**
 * The dev pairs of both sets planted with each of WIDE_SEEDS in each background's turns and
 * observations: one compact line per set and background. Nothing of a holdout pair is planted;
 * conv-41 is a holdout conversation, so its background texts are never kept for listing.
 */
export async function evaluateWide(sets: ReadonlyArray<readonly [WideLine['set'], readonly LabelledPair[]]>, options: { minConfidence?: number } = {}): Promise<WideLine[]> {
  const out: WideLine[] = []
  for (const name of WIDE_BACKGROUNDS) {
    for (const [kind, background] of [['turns', locomoTurns(name)], ['observations', locomoObservations(name)]] as const) {
      for (const [set, pairs] of sets) {
        if (!pairs.length) continue
        const falseBy: Record<FlagPlace, number> = { 'cross-pair': 0, 'in-pair': 0, 'pair-background': 0, background: 0 }
        const distinct = new Map<string, { place: FlagPlace; seeds: number[]; flag: StoreRun['flags'][number] }>()
        let listed = 0
        let tp = 0
        let conflicts = 0
        for (const seed of WIDE_SEEDS) {
          const r = await runPlanted(pairs, background, seed, options)
          listed += r.listed
          tp += r.tp
          conflicts += r.conflicts
          for (const f of r.falseFlags) {
            const place = flagPlace(pairs, f)
            falseBy[place]++
            if (name === 'conv-41' && place !== 'cross-pair' && place !== 'in-pair') continue
            const key = [f.a, f.b].sort().join('\u0000')
            const seen = distinct.get(key)
            if (seen) seen.seeds.push(seed)
            else distinct.set(key, { place, seeds: [seed], flag: f })
          }
        }
        out.push({ set, background: `${name} ${kind}`, runs: WIDE_SEEDS.length, listed, tp, conflicts, falseBy, flags: [...distinct.values()] })
      }
    }
  }
  return out
}

export function formatWide(lines: readonly WideLine[], errors: boolean): string {
  const out = [`Dev pairs planted wide (seeds ${WIDE_SEEDS.join(', ')} summed; false flags: cross-pair / in-pair / pair-background / background)`, '']
  out.push('| set           | background               | listed | tp / planted | precision | recall | false (x / in / p-bg / bg) |', '|---|---|---:|---:|---:|---:|---|')
  for (const l of lines) {
    // A statement two planted pairs share is written twice: a flag of either copy is right, so
    // precision counts the false flags, as runPlanted does.
    const fp = Object.values(l.falseBy).reduce((a, b) => a + b, 0)
    const p = l.listed ? (l.listed - fp) / l.listed : 1
    out.push(`| ${l.set.padEnd(13)} | ${l.background.padEnd(24)} | ${String(l.listed).padStart(6)} | ${`${l.tp} / ${l.conflicts}`.padStart(12)} | ${f3(p)} | ${f3(l.conflicts ? l.tp / l.conflicts : 1)} | ${fp} (${l.falseBy['cross-pair']} / ${l.falseBy['in-pair']} / ${l.falseBy['pair-background']} / ${l.falseBy.background}) |`)
  }
  if (errors) {
    for (const l of lines) {
      if (!l.flags.length) continue
      out.push('', `False flags, ${l.set} in ${l.background}${l.background.startsWith('conv-41') ? ' (between planted texts only: conv-41 is a holdout conversation)' : ''}:`)
      for (const { place, seeds, flag: f } of l.flags) out.push(`  ${place} seeds ${seeds.join(',')} [${f3(f.confidence)}] ${f.reason}\n    A: ${f.a}\n    B: ${f.b}`)
    }
  }
  return out.join('\n') + '\n'
}
