/**
 * Retrieval recall on the LoCoMo conversations (see ../shared/data/locomo/README.md), no model, no
 * network: every dialogue turn becomes a memory, every question of categories 1-4 is asked, and we
 * count the share of its evidence turns that come back within the budget. One run reports conv-26
 * and conv-30 (dev: what the ranker may be shaped on) and conv-41 (holdout: reported, never tuned
 * on), each beside textbook BM25.
 *
 *   npm run eval:retrieval                 # the README protocol: content = "speaker: text"
 *   npm run eval:retrieval -- --captions   # also append each shared photo's caption to its turn
 *   npm run eval:retrieval -- --json       # machine-readable result
 *   npm run eval:retrieval -- --dev        # the dev conversations only
 *
 * The shared folder is ../shared beside the repo; MEMWEAVE_SHARED overrides it. The run is
 * deterministic: writes go in conversation order on an injected clock, both rankers are
 * deterministic, and no randomness is involved anywhere.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createMemory } from '../src/index.js'
import { charCost } from '../src/facts/text.js'
import type { RankParams } from '../src/facts/types.js'
import type { Embedder } from '../src/index.js'
import { Bm25Baseline } from './baseline-bm25.js'

export const BUDGETS = [1000, 2000, 4000] as const
export const CATEGORIES = [1, 2, 3, 4] as const
/** Dev conversations (the ranker may be shaped on them) and the holdout (reported only). */
export const DEV_CONVERSATIONS = ['conv-26', 'conv-30'] as const
export const HOLDOUT_CONVERSATIONS = ['conv-41'] as const
export const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' }

export interface Turn {
  readonly diaId: string
  readonly session: number
  /** The session's date as the data set writes it, e.g. "1:56 pm on 8 May, 2023". */
  readonly date: string
  /** ISO-8601 (UTC; the data set gives no zone) of the session date. */
  readonly validFrom: string
  readonly content: string
}

export interface Question {
  readonly question: string
  readonly category: number
  readonly evidence: readonly string[]
}

export interface LocomoData {
  readonly turns: readonly Turn[]
  readonly questions: readonly Question[]
  /** Questions of categories 1-4 left out because they list no evidence turn (recall is undefined). */
  readonly withoutEvidence: number
  /** Evidence ids that name no turn of the conversation (they count as misses). */
  readonly unknownEvidence: readonly string[]
}

/** recall[system][budget][category | 'all'] */
export type Recall = Record<string, Record<number, Record<string, number>>>

export interface EvalResult {
  /** The conversation's file name without `.json`, e.g. "conv-26". */
  readonly conversation: string
  readonly budgets: readonly number[]
  readonly counts: Record<string, number>
  readonly withoutEvidence: number
  readonly unknownEvidence: readonly string[]
  readonly turns: number
  readonly captions: boolean
  readonly recall: Recall
}

export interface EvalOptions {
  readonly sharedDir?: string
  /** Which conversation (file name without `.json`). Default "conv-26". */
  readonly conversation?: string
  /** Overrides of the ranker's knobs (the store's `facts.ranking` option), for measuring them. */
  readonly ranking?: Partial<RankParams>
  /** An embedder to blend into the ranking (the store's `facts.embedder` option). Default none. */
  readonly embedder?: Embedder
  readonly budgets?: readonly number[]
  /** Append `[shares a photo: <blip_caption>]` to turns that shared an image. Default false (the README protocol). */
  readonly captions?: boolean
}

export function sharedDir(): string {
  return process.env['MEMWEAVE_SHARED'] ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'shared')
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** "1:56 pm on 8 May, 2023" -> "2023-05-08T13:56:00Z". */
export function parseSessionDate(text: string): string {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i.exec(text)
  if (!m) throw new Error(`unrecognised session date: ${JSON.stringify(text)}`)
  const [, h, mi, ampm, d, mon, y] = m as unknown as [string, string, string, string, string, string, string]
  const month = MONTHS.indexOf(mon.toLowerCase())
  if (month < 0) throw new Error(`unrecognised month in session date: ${JSON.stringify(text)}`)
  const hour = (Number(h) % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${y}-${pad(month + 1)}-${pad(Number(d))}T${pad(hour)}:${mi}:00Z`
}

interface RawTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}

export function loadLocomo(file: string, captions = false): LocomoData {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as {
    conversation: Record<string, unknown>
    qa: Array<{ question: string; category: number; evidence?: string[] }>
  }
  const conv = raw.conversation
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
  const turns: Turn[] = []
  for (const s of sessions) {
    const date = conv[`session_${s}_date_time`]
    if (typeof date !== 'string') throw new Error(`session_${s} has no date`)
    const validFrom = parseSessionDate(date)
    for (const t of conv[`session_${s}`] as RawTurn[]) {
      let content = `${t.speaker}: ${t.text}`
      if (captions && t.blip_caption) content += ` [shares a photo: ${t.blip_caption}]`
      turns.push({ diaId: t.dia_id, session: s, date, validFrom, content })
    }
  }
  const ids = new Set(turns.map((t) => t.diaId))
  const questions: Question[] = []
  const unknownEvidence: string[] = []
  let withoutEvidence = 0
  for (const q of raw.qa) {
    if (!(CATEGORIES as readonly number[]).includes(q.category)) continue
    // One entry in conv-26 packs two ids into one string ("D8:6; D9:17"): split on separators.
    const evidence = [...new Set((q.evidence ?? []).flatMap((e) => e.split(/[\s;,]+/)).filter(Boolean))]
    if (evidence.length === 0) {
      withoutEvidence++
      continue
    }
    for (const e of evidence) if (!ids.has(e)) unknownEvidence.push(e)
    questions.push({ question: q.question, category: q.category, evidence })
  }
  return { turns, questions, withoutEvidence, unknownEvidence }
}

/** Per question: share of its evidence ids returned; then the mean per category and over all questions. */
function score(questions: readonly Question[], returned: ReadonlyArray<ReadonlySet<string>>): Record<string, number> {
  const sums: Record<string, number> = {}
  const ns: Record<string, number> = {}
  questions.forEach((q, i) => {
    const got = q.evidence.filter((e) => returned[i]!.has(e)).length / q.evidence.length
    for (const key of [String(q.category), 'all']) {
      sums[key] = (sums[key] ?? 0) + got
      ns[key] = (ns[key] ?? 0) + 1
    }
  })
  const out: Record<string, number> = {}
  for (const key of Object.keys(sums)) out[key] = sums[key]! / ns[key]!
  return out
}

export async function runEval(options: EvalOptions = {}): Promise<EvalResult> {
  const budgets = options.budgets ?? BUDGETS
  const captions = options.captions ?? false
  const conversation = options.conversation ?? 'conv-26'
  const data = loadLocomo(resolve(options.sharedDir ?? sharedDir(), 'data', 'locomo', `${conversation}.json`), captions)
  const recall: Recall = { baseline: {}, memweave: {} }

  // (a) memweave through its public API, on a deterministic clock (so refs and write times are fixed).
  let tick = Date.UTC(2024, 0, 1)
  const mem = await createMemory({ storage: 'memory', now: () => tick++, facts: { ranking: options.ranking, embedder: options.embedder ?? null } })
  try {
    for (const t of data.turns) {
      await mem.facts.write(t.content, { validFrom: t.validFrom, metadata: { dia_id: t.diaId, session: t.session, date: t.date } })
    }
    await mem.facts.flush()
    for (const budget of budgets) {
      const returned: Array<Set<string>> = []
      for (const q of data.questions) {
        const hits = await mem.facts.retrieve(q.question, { budgetTokens: budget })
        returned.push(new Set(hits.map((h) => h.metadata['dia_id'] as string)))
      }
      recall['memweave']![budget] = score(data.questions, returned)
    }
  } finally {
    await mem.close()
  }

  // (b) textbook BM25 on the same turns, packed by the same rule.
  const baseline = new Bm25Baseline(data.turns.map((t) => ({ text: t.content, cost: charCost(t.content) })))
  for (const budget of budgets) {
    const returned = data.questions.map((q) => new Set(baseline.retrieve(q.question, budget).map((i) => data.turns[i]!.diaId)))
    recall['baseline']![budget] = score(data.questions, returned)
  }

  const counts: Record<string, number> = { all: data.questions.length }
  for (const c of CATEGORIES) counts[String(c)] = data.questions.filter((q) => q.category === c).length
  return {
    conversation,
    budgets,
    counts,
    withoutEvidence: data.withoutEvidence,
    unknownEvidence: data.unknownEvidence,
    turns: data.turns.length,
    captions,
    recall,
  }
}

/** A Markdown table: one row per budget and system, one column per category and overall. */
export function formatTable(r: EvalResult): string {
  const cols = [...CATEGORIES.map(String), 'all']
  const head = ['budget (chars)', 'system', ...cols.map((c) => (c === 'all' ? `overall (n=${r.counts[c]})` : `${c} ${CATEGORY_NAMES[Number(c)]} (n=${r.counts[c]})`))]
  const rows = [head, head.map((h) => '-'.repeat(Math.max(3, h.length)))]
  for (const budget of r.budgets) {
    for (const system of ['baseline', 'memweave']) {
      const rec = r.recall[system]![budget]!
      rows.push([budget.toLocaleString('en-US'), system, ...cols.map((c) => (rec[c] ?? 0).toFixed(3))])
    }
  }
  const widths = head.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows
    .map((row, ri) => '| ' + row.map((cell, i) => (ri === 1 ? '-'.repeat(widths[i]!) : cell.padEnd(widths[i]!))).join(' | ') + ' |')
    .join('\n')
}

/** Overall recall per conversation, side by side: one row per budget and system. */
export function formatSummary(results: readonly EvalResult[]): string {
  const head = ['budget (chars)', 'system', ...results.map((r) => `${r.conversation}${isHoldout(r.conversation) ? ' (holdout)' : ' (dev)'} n=${r.counts['all']}`)]
  const rows = [head, head]
  for (const budget of results[0]?.budgets ?? []) {
    for (const system of ['baseline', 'memweave']) {
      rows.push([budget.toLocaleString('en-US'), system, ...results.map((r) => (r.recall[system]![budget]!['all'] ?? 0).toFixed(3))])
    }
  }
  const widths = head.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows
    .map((row, ri) => '| ' + row.map((cell, i) => (ri === 1 ? '-'.repeat(widths[i]!) : cell.padEnd(widths[i]!))).join(' | ') + ' |')
    .join('\n')
}

const isHoldout = (conversation: string): boolean => (HOLDOUT_CONVERSATIONS as readonly string[]).includes(conversation)

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const captions = args.includes('--captions')
  const conversations = args.includes('--dev') ? [...DEV_CONVERSATIONS] : [...DEV_CONVERSATIONS, ...HOLDOUT_CONVERSATIONS]
  const results: EvalResult[] = []
  for (const conversation of conversations) results.push(await runEval({ captions, conversation }))
  if (args.includes('--json')) {
    console.log(JSON.stringify(results, null, 2))
    return
  }
  for (const result of results) {
    console.log(`LoCoMo ${result.conversation}${isHoldout(result.conversation) ? ' (holdout)' : ' (dev)'}: ${result.turns} turns written${result.captions ? ' (with photo captions)' : ''}; evidence recall, mean per question.`)
    console.log(
      `Questions per category: ${CATEGORIES.map((c) => `${c} ${CATEGORY_NAMES[c]} ${result.counts[String(c)]}`).join(', ')}; ` +
        `total ${result.counts['all']} (${result.withoutEvidence} without evidence left out).`,
    )
    if (result.unknownEvidence.length) console.log(`Evidence ids naming no turn (count as misses): ${result.unknownEvidence.join(', ')}`)
    console.log('')
    console.log(formatTable(result))
    console.log('')
  }
  console.log('Overall recall per conversation:')
  console.log('')
  console.log(formatSummary(results))
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err)
    process.exitCode = 1
  })
}
