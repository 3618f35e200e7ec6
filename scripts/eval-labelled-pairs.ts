/**
 * Runs the default free-text conflict detector (TextConflictDetector, what `mem.facts` uses) over
 * any file of labelled pairs and prints precision / recall / F1, the share flagged per label, and
 * the false flags with the detector's reasons: a user can check the detector on their own data
 * (NLI sets, self-contradiction corpora, their own notes) before trusting its flags.
 *
 *   npm run eval:pairs -- pairs.csv                         # columns a, b, label (or sentence1/sentence2, premise/hypothesis)
 *   npm run eval:pairs -- pairs.jsonl --a=text1 --b=text2   # JSON lines; columns named by options
 *   npm run eval:pairs -- mnli.csv --positive=1             # which label values mean "contradiction" (comma-separated)
 *   npm run eval:pairs -- pairs.jsonl --where=split=dev     # only rows whose column has that value
 *   npm run eval:pairs -- pairs.csv --threshold=0.5         # the detector's threshold (default 0.6)
 *   npm run eval:pairs -- pairs.csv --misses                # also list the contradictions it missed
 *   npm run eval:pairs -- pairs.csv --by=genre              # the figures per value of another column too
 *   npm run eval:pairs -- pairs.csv --json                  # machine-readable
 *
 * Positive ("contradiction") labels default to `contradiction`, `self-contradiction`, `conflict`,
 * `1` and `true`; every other label is a negative, and the per-label rows say how often each was
 * flagged (for MultiNLI's three labels: how often a neutral or an entailed pair is called a
 * contradiction). CSV is RFC 4180 (quoted fields, doubled quotes, newlines inside quotes); a
 * `.tsv` file splits on tabs. Nothing is written anywhere.
 */
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { TextConflictDetector } from '../src/conflict/judge/text-detector.js'
import { invalidArgument } from '../src/core/errors.js'

export interface PairRow {
  readonly a: string
  readonly b: string
  readonly label: string
  /** The row's own fields, for --where and --by. */
  readonly fields: Readonly<Record<string, string>>
  /** 1-based line (JSONL) or record (CSV) number, to find a row in the file. */
  readonly row: number
}

export interface ReadOptions {
  /** Column of the first text; default the first of a, sentence1, premise, text_a, text1 present. */
  readonly a?: string
  readonly b?: string
  /** Column of the label; default `label`. */
  readonly label?: string
  /** `csv`, `tsv` or `jsonl`; default from the file's extension. */
  readonly format?: 'csv' | 'tsv' | 'jsonl'
}

const A_NAMES = ['a', 'sentence1', 'premise', 'text_a', 'text1']
const B_NAMES = ['b', 'sentence2', 'hypothesis', 'text_b', 'text2']
export const DEFAULT_POSITIVE = ['contradiction', 'self-contradiction', 'conflict', '1', 'true']

/** RFC 4180 records: quoted fields with doubled quotes and line breaks inside, CRLF or LF. */
export function parseDelimited(text: string, delimiter = ','): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let i = 0
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  while (i < src.length) {
    const c = src[i]!
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') { field += '"'; i += 2; continue }
      if (c === '"') { quoted = false; i++; continue }
      field += c; i++; continue
    }
    if (c === '"' && field.length === 0) { quoted = true; i++; continue }
    if (c === delimiter) { record.push(field); field = ''; i++; continue }
    if (c === '\n' || c === '\r') {
      record.push(field); field = ''
      if (record.length > 1 || record[0] !== '') records.push(record)
      record = []
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1
      continue
    }
    field += c; i++
  }
  if (quoted) throw invalidArgument('file', 'a quoted field is never closed')
  if (field.length > 0 || record.length > 0) { record.push(field); records.push(record) }
  return records
}

/** The labelled pairs of a CSV, TSV or JSON-lines text; throws INVALID_ARGUMENT naming what is missing. */
export function readPairs(text: string, options: ReadOptions = {}): PairRow[] {
  const format = options.format ?? 'csv'
  let rows: Array<{ fields: Record<string, string>; row: number }>
  if (format === 'jsonl') {
    rows = []
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      if (!line.trim()) continue
      let value: unknown
      try { value = JSON.parse(line) } catch (cause) { throw invalidArgument('file', `line ${i + 1} is not JSON`, { cause }) }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument('file', `line ${i + 1} is not a JSON object`)
      rows.push({ fields: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)])), row: i + 1 })
    }
  } else {
    const [header, ...records] = parseDelimited(text, format === 'tsv' ? '\t' : ',')
    if (!header) throw invalidArgument('file', 'empty: no header row')
    const names = header.map((h) => h.trim())
    rows = records.map((r, i) => ({ fields: Object.fromEntries(names.map((n, j) => [n, r[j] ?? ''])), row: i + 2 }))
  }
  if (rows.length === 0) return []
  const columns = new Set(rows.flatMap((r) => Object.keys(r.fields)))
  const pick = (given: string | undefined, defaults: readonly string[], what: string): string => {
    const name = given ?? defaults.find((d) => columns.has(d))
    if (name === undefined || !columns.has(name)) {
      throw invalidArgument(what, `no column ${given === undefined ? `named any of ${defaults.join(', ')}` : `"${given}"`} (columns: ${[...columns].join(', ')})`)
    }
    return name
  }
  const [a, b, label] = [pick(options.a, A_NAMES, 'a'), pick(options.b, B_NAMES, 'b'), pick(options.label, ['label'], 'label')]
  return rows
    .map(({ fields, row }) => ({ a: fields[a]!.trim(), b: fields[b]!.trim(), label: fields[label]!.trim(), fields, row }))
    .filter((p) => p.a.length > 0 && p.b.length > 0)
}

export interface Judged extends PairRow {
  readonly positive: boolean
  readonly flagged: boolean
  readonly confidence: number
  readonly reason: string
}

export interface Figures {
  readonly pairs: number
  readonly positives: number
  readonly flags: number
  readonly tp: number
  readonly fp: number
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

export function judgePairs(pairs: readonly PairRow[], options: { positive?: readonly string[]; threshold?: number } = {}): Judged[] {
  const positive = new Set((options.positive ?? DEFAULT_POSITIVE).map((p) => p.toLowerCase()))
  const detector = new TextConflictDetector(options.threshold === undefined ? {} : { threshold: options.threshold })
  return pairs.map((p) => {
    const v = detector.judge(p.a, p.b)
    return { ...p, positive: positive.has(p.label.toLowerCase()), flagged: v.conflict, confidence: v.confidence, reason: v.reason }
  })
}

/** Precision of the flags (1 when nothing is flagged, as eval:conflicts counts it), recall of the positives. */
export function figures(rows: readonly Judged[]): Figures {
  const tp = rows.filter((r) => r.flagged && r.positive).length
  const flags = rows.filter((r) => r.flagged).length
  const positives = rows.filter((r) => r.positive).length
  const precision = flags === 0 ? 1 : tp / flags
  const recall = positives === 0 ? 1 : tp / positives
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { pairs: rows.length, positives, flags, tp, fp: flags - tp, precision, recall, f1 }
}

const f3 = (x: number): string => x.toFixed(3)

export function report(rows: readonly Judged[], options: { by?: string; misses?: boolean } = {}): string {
  const out: string[] = []
  const line = (name: string, f: Figures): string =>
    `| ${name.padEnd(24)} | ${String(f.pairs).padStart(5)} | ${String(f.positives).padStart(5)} | ${String(f.flags).padStart(5)} | ${f3(f.precision)} | ${f3(f.recall)} | ${f3(f.f1)} |`
  out.push('| rows                     | pairs | contr | flags | P     | R     | F1    |', '|---|---|---|---|---|---|---|')
  out.push(line('all', figures(rows)))
  if (options.by !== undefined) {
    const groups = new Map<string, Judged[]>()
    for (const r of rows) groups.set(r.fields[options.by] ?? '', [...(groups.get(r.fields[options.by!] ?? '') ?? []), r])
    for (const [k, rs] of [...groups].sort()) out.push(line(`${options.by}=${k}`, figures(rs)))
  }
  out.push('', 'Per label (share flagged: recall for a contradiction label, false-flag rate for the others):', '')
  const labels = new Map<string, Judged[]>()
  for (const r of rows) labels.set(r.label, [...(labels.get(r.label) ?? []), r])
  for (const [label, rs] of [...labels].sort()) {
    const flagged = rs.filter((r) => r.flagged).length
    out.push(`  ${JSON.stringify(label).padEnd(26)} ${rs[0]!.positive ? 'contradiction' : 'other        '} ${String(rs.length).padStart(5)} pairs, ${String(flagged).padStart(4)} flagged (${f3(flagged / rs.length)})`)
  }
  const show = (title: string, rs: readonly Judged[]): void => {
    out.push('', `${title} (${rs.length}):`)
    for (const r of rs) out.push(`  [row ${r.row}] ${JSON.stringify(r.label)} conf ${f3(r.confidence)}: ${r.reason}`, `      A: ${r.a}`, `      B: ${r.b}`)
  }
  show('False flags', rows.filter((r) => r.flagged && !r.positive))
  if (options.misses) show('Missed contradictions', rows.filter((r) => !r.flagged && r.positive))
  return out.join('\n')
}

interface Cli extends ReadOptions { file: string; positive?: string[]; where?: [string, string]; threshold?: number; by?: string; misses: boolean; json: boolean }

export function parseArgs(argv: readonly string[]): Cli {
  let file: string | undefined
  const cli: Record<string, unknown> = { misses: false, json: false }
  for (const arg of argv) {
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(arg)
    if (!m) { if (file !== undefined) throw invalidArgument('file', `one file only (got "${file}" and "${arg}")`); file = arg; continue }
    const [, key, value] = m as unknown as [string, string, string | undefined]
    if (key === 'misses' || key === 'json') { cli[key] = true; continue }
    if (value === undefined || value === '') throw invalidArgument(key, 'needs a value (--name=value)')
    if (key === 'a' || key === 'b' || key === 'label' || key === 'by') cli[key] = value
    else if (key === 'positive') cli['positive'] = value.split(',').map((s) => s.trim()).filter(Boolean)
    else if (key === 'where') {
      const eq = value.indexOf('=')
      if (eq <= 0) throw invalidArgument('where', 'takes column=value')
      cli['where'] = [value.slice(0, eq), value.slice(eq + 1)]
    } else if (key === 'threshold') {
      const t = Number(value)
      if (!Number.isFinite(t) || t < 0 || t > 1) throw invalidArgument('threshold', 'a number in [0, 1]')
      cli['threshold'] = t
    } else if (key === 'format') {
      if (value !== 'csv' && value !== 'tsv' && value !== 'jsonl') throw invalidArgument('format', 'csv, tsv or jsonl')
      cli['format'] = value
    } else throw invalidArgument(key, 'unknown option')
  }
  if (file === undefined) throw invalidArgument('file', 'usage: npm run eval:pairs -- <file.csv|file.tsv|file.jsonl> [--a=col --b=col --label=col --positive=v1,v2 --where=col=value --by=col --threshold=0.6 --misses --json]')
  const ext = extname(file).toLowerCase()
  cli['format'] ??= ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : ext === '.tsv' ? 'tsv' : 'csv'
  return { ...(cli as Omit<Cli, 'file'>), file }
}

export function run(cli: Cli): string {
  let pairs = readPairs(readFileSync(cli.file, 'utf8'), cli)
  if (cli.where) {
    const [col, value] = cli.where
    pairs = pairs.filter((p) => p.fields[col] === value)
  }
  const judged = judgePairs(pairs, { ...(cli.positive ? { positive: cli.positive } : {}), ...(cli.threshold === undefined ? {} : { threshold: cli.threshold }) })
  if (cli.json) {
    return JSON.stringify({ all: figures(judged), falseFlags: judged.filter((r) => r.flagged && !r.positive).map(({ fields: _f, ...r }) => r) }, null, 2)
  }
  const where = cli.where ? `, where ${cli.where[0]} = ${cli.where[1]}` : ''
  return `TextConflictDetector on ${cli.file}${where}, threshold ${cli.threshold ?? 'default'}\n\n${report(judged, cli)}`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(run(parseArgs(process.argv.slice(2))))
  } catch (e) {
    console.error(e instanceof Error ? e.message : e)
    process.exitCode = 2
  }
}
