import { checkAppendOnly } from './append-only.js'
import { SmallRule, makeReport, pushAll, type Finding, type ValidationReport } from './findings.js'
import { documentFindings } from './invariants.js'
import { CANONICAL_DOCS, SMALL_DOCS, filePathOf, type SmallDocName } from './layout.js'
import { computeReplayId } from './replay-id.js'
import { schemaFindings } from './schema-check.js'
import { currentRunId, layoutFindings, strictFindings, type LayoutEntry } from './strict.js'
import { parseYaml, type ParsedYaml } from './yaml-text.js'

/** The files of a workspace by document: their text (or bytes); absent when the file does not exist. */
export type WorkspaceFiles = Partial<Record<SmallDocName, string | Uint8Array | null>>

export interface ValidateOptions {
  /** Add the strict rules (layout, task evidence, progress tasks, handoff task) and fail on suspected secrets. */
  readonly strict?: boolean
  /** The `.small/` directory listing, for the strict layout rule (omit where there is no directory). */
  readonly layout?: readonly LayoutEntry[] | null
  /** Digests of the progress entries as last known: every one must still be there unchanged (verify). */
  readonly knownProgress?: readonly string[] | null
  /** Check that an automatic replayId reproduces from intent, plan and constraints (verify). */
  readonly checkReplayId?: boolean
}

export interface ReplayCheck {
  readonly stored: string
  readonly source: 'auto' | 'manual'
  /** What it should be: the workspace's run.replay_id, or the SHA-256 of the run-defining files. */
  readonly expected: string | null
  readonly reproduces: boolean
}

export interface WorkspaceValidation {
  readonly report: ValidationReport
  /** Each document's data where it parsed (valid or not). */
  readonly data: Partial<Record<SmallDocName, unknown>>
  /** The replayId check, when asked for and possible. */
  readonly replay: ReplayCheck | null
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Validates a workspace: YAML, JSON Schema, the invariants of SMALL.md and, on request, strict
 * mode and the verify checks. Pure: the same function serves files on disk (small/node.ts) and
 * `mem.small` in a browser, so both apply exactly the same rules.
 */
export function validateWorkspace(files: WorkspaceFiles, options: ValidateOptions = {}): WorkspaceValidation {
  const findings: Finding[] = []
  const parsed = new Map<SmallDocName, ParsedYaml>()
  const data: Partial<Record<SmallDocName, unknown>> = {}
  // The replayId hashes the files' own bytes (a BOM included), not the decoded text.
  const texts: Partial<Record<SmallDocName, string | Uint8Array>> = {}
  for (const name of SMALL_DOCS) {
    const file = filePathOf(name)
    const raw = files[name]
    if (raw === undefined || raw === null) {
      if ((CANONICAL_DOCS as readonly string[]).includes(name)) {
        findings.push({ severity: 'error', file, pointer: '', rule: SmallRule.MISSING, message: `${file} is missing: every SMALL workspace has the five canonical documents (memweave small init creates them)` })
      }
      continue
    }
    let text: string
    try {
      text = typeof raw === 'string' ? raw : decoder.decode(raw)
    } catch {
      findings.push({ severity: 'error', file, pointer: '', rule: SmallRule.YAML, message: 'is not valid UTF-8 text' })
      continue
    }
    texts[name] = raw
    const doc = parseYaml(text)
    parsed.set(name, doc)
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        findings.push({ severity: 'error', file, pointer: '', rule: SmallRule.YAML, message: `is not valid YAML: ${e.message}`, ...(e.line ? { line: e.line, column: e.column ?? 1 } : {}) })
      }
      continue
    }
    data[name] = doc.data
    const schema = schemaFindings(name, doc.data)
    pushAll(findings, schema)
    pushAll(findings, documentFindings(name, doc.data, { strict: options.strict, flagged: new Set(schema.map((f) => f.pointer)) }))
  }
  if (options.strict) {
    if (options.layout) pushAll(findings, layoutFindings(options.layout))
    pushAll(findings, strictFindings(data))
  }
  if (options.knownProgress && data.progress !== undefined) {
    const entries = (data.progress as { entries?: unknown } | null)?.entries
    pushAll(findings, checkAppendOnly(options.knownProgress, Array.isArray(entries) ? entries : []))
  }
  let replay: ReplayCheck | null = null
  if (options.checkReplayId) {
    replay = replayCheck(data, texts)
    if (replay && !replay.reproduces && replay.expected) {
      const fromRun = currentRunIdOfWorkspace(data) !== null
      findings.push({
        severity: 'warning', file: filePathOf('handoff'), pointer: '/replayId/value', rule: SmallRule.REPLAY_ID,
        message: fromRun
          ? `replayId ${replay.stored} is not the current run's (${replay.expected}, workspace.small.yml run.replay_id); regenerate the handoff (memweave small handoff)`
          : `replayId ${replay.stored} (source: auto) does not reproduce: sha256(intent + plan + constraints) is ${replay.expected}; ` +
            `the documents changed after the handoff was written: regenerate it (memweave small handoff)`,
      })
    }
  }
  return { report: makeReport(sortFindings(withPositions(findings, parsed))), data, replay }
}

/** Files in reading order (intent first), then by position, so a report reads top to bottom. */
function sortFindings(findings: readonly Finding[]): Finding[] {
  const order = (file: string): number => {
    const i = SMALL_DOCS.findIndex((n) => filePathOf(n) === file)
    return i < 0 ? SMALL_DOCS.length : i
  }
  return findings
    .map((f, i) => ({ f, i }))
    
    .sort((a, b) => order(a.f.file) - order(b.f.file) || versionFirst(a.f) - versionFirst(b.f) || (a.f.line ?? 0) - (b.f.line ?? 0) || (a.f.column ?? 0) - (b.f.column ?? 0) || a.i - b.i)
    .map(({ f }) => f)
}

const versionFirst = (f: Finding): number => (f.rule === SmallRule.VERSION ? 0 : 1)

function currentRunIdOfWorkspace(data: Partial<Record<SmallDocName, unknown>>): string | null {
  return data.workspace === undefined ? null : currentRunId({ workspace: data.workspace })
}

function replayCheck(data: Partial<Record<SmallDocName, unknown>>, texts: Partial<Record<SmallDocName, string | Uint8Array>>): ReplayCheck | null {
  const rid = (data.handoff as { replayId?: { value?: unknown; source?: unknown } } | null | undefined)?.replayId
  if (!rid || typeof rid.value !== 'string' || (rid.source !== 'auto' && rid.source !== 'manual')) return null
  const stored = rid.value.toLowerCase()
  if (rid.source === 'manual') return { stored, source: 'manual', expected: null, reproduces: true }
  const run = currentRunIdOfWorkspace(data)
  const expected =
    run ?? (texts.intent !== undefined && texts.plan !== undefined ? computeReplayId({ intent: texts.intent, plan: texts.plan, constraints: texts.constraints ?? null }) : null)
  return { stored, source: 'auto', expected, reproduces: expected === null || expected === stored }
}

function withPositions(findings: readonly Finding[], parsed: ReadonlyMap<SmallDocName, ParsedYaml>): Finding[] {
  return findings.map((f) => {
    if (f.line !== undefined) return f
    const doc = [...parsed].find(([name]) => filePathOf(name) === f.file)?.[1]
    const pos = doc && doc.errors.length === 0 ? doc.position(f.pointer) : undefined
    return pos ? { ...f, line: pos.line, column: pos.column } : f
  })
}

/**
 * Validates one document on its own (schema and single-document invariants), as a write does
 * before it lands. Returns the parsed data and the findings.
 */
export function validateDocument(name: SmallDocName, content: string | object, options: { strict?: boolean } = {}): { data: unknown; text: string | null; findings: Finding[] } {
  const file = filePathOf(name)
  let data: unknown = content
  let text: string | null = null
  let doc: ParsedYaml | null = null
  if (typeof content === 'string') {
    text = content
    doc = parseYaml(content)
    if (doc.errors.length > 0) {
      return { data: undefined, text, findings: doc.errors.map((e) => ({ severity: 'error' as const, file, pointer: '', rule: SmallRule.YAML, message: `is not valid YAML: ${e.message}`, ...(e.line ? { line: e.line, column: e.column ?? 1 } : {}) })) }
    }
    data = doc.data
  }
  const schema = schemaFindings(name, data)
  const findings = [...schema, ...documentFindings(name, data, { strict: options.strict, flagged: new Set(schema.map((f) => f.pointer)) })]
  return { data, text, findings: doc ? withPositions(findings, new Map([[name, doc]])) : findings }
}
