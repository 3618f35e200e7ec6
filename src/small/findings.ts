import { ErrorCode, MemweaveError, type ErrorCode as Code } from '../core/errors.js'

/**
 * The rules a SMALL workspace is checked against. Each finding names one, so a person (or a
 * script) can tell a schema slip from a broken invariant. Stable: adding a rule is a minor change.
 */
export const SmallRule = {
  /** The file is not valid YAML (or not UTF-8): SMALL.md "File Format". */
  YAML: 'yaml',
  /** A canonical document is absent. */
  MISSING: 'missing-document',
  /** The document fails its JSON Schema (draft 2020-12). */
  SCHEMA: 'schema',
  /** `small_version` is not exactly the string "1.0.0" (invariant 5). */
  VERSION: 'small-version',
  /** A progress entry has no evidence field (invariant 2). */
  EVIDENCE: 'progress-evidence',
  /** A progress timestamp is missing, not RFC 3339 with fractional seconds, or not strictly increasing. */
  TIMESTAMP: 'progress-timestamp',
  /** An earlier progress entry was edited or removed (invariant 3). */
  APPEND_ONLY: 'progress-append-only',
  /** Something that looks like a key, token or password (invariant 1). */
  SECRETS: 'no-secrets',
  /** A writer that does not own the document (SMALL.md "Ownership Rules"). */
  OWNERSHIP: 'ownership',
  /** Two tasks (or constraints) share an id. */
  UNIQUE_ID: 'unique-id',
  /** The handoff's replayId does not match the run-defining documents (invariants 4, 6). */
  REPLAY_ID: 'replay-id',
  /** Strict S4: a file or directory under `.small/` that is neither canonical nor under `ext/`. */
  STRICT_LAYOUT: 'strict-layout',
  /** Strict: a completed or blocked plan task without a progress entry that carries evidence. */
  STRICT_TASK_EVIDENCE: 'strict-task-evidence',
  /** Strict: a run-bound progress entry names a task the plan does not have. */
  STRICT_PROGRESS_TASK: 'strict-progress-task',
  /** Strict: the handoff's current task is not in the plan. */
  STRICT_HANDOFF_TASK: 'strict-handoff-task',
  /** AGENTS.md: a missing, repeated, unterminated or wrongly versioned harness block. */
  AGENTS_MD: 'agents-md-block',
} as const

export type SmallRule = (typeof SmallRule)[keyof typeof SmallRule]

/** One thing wrong (or worth a look) in a workspace. */
export interface Finding {
  readonly severity: 'error' | 'warning'
  /** The file, relative to the workspace root, e.g. `.small/handoff.small.yml`. */
  readonly file: string
  /** RFC 6901 JSON pointer into the document; `''` is the whole document. */
  readonly pointer: string
  readonly rule: SmallRule
  /** What is wrong and what to do about it, in words. */
  readonly message: string
  /** 1-based position in the file when it is known. */
  readonly line?: number
  readonly column?: number
}

export interface ValidationReport {
  /** No errors (warnings allowed). */
  readonly valid: boolean
  readonly errors: readonly Finding[]
  readonly warnings: readonly Finding[]
}

export function makeReport(findings: readonly Finding[]): ValidationReport {
  const errors = findings.filter((f) => f.severity === 'error')
  const warnings = findings.filter((f) => f.severity === 'warning')
  return { valid: errors.length === 0, errors, warnings }
}

/**
 * One line per finding: `error .small/handoff.small.yml:5:20 /resume/current_task_id [schema] must be ...`.
 */
export function formatFinding(f: Finding): string {
  const where = f.line === undefined ? f.file : `${f.file}:${f.line}:${f.column ?? 1}`
  return `${f.severity} ${where} ${f.pointer === '' ? '(document)' : f.pointer} [${f.rule}] ${f.message}`
}

/** The findings of a report as text, errors first. */
export function formatReport(report: ValidationReport): string {
  return [...report.errors, ...report.warnings].map(formatFinding).join('\n')
}

/** RFC 6901: `~` -> `~0`, `/` -> `~1`. */
export function pointerOf(path: ReadonlyArray<string | number>): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')
}

/** The segments of a JSON pointer (numbers stay strings). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/**
 * The error a refused write throws: its message is the first finding in full, `details` has the
 * file, pointer and rule of that finding (`field` is the pointer) and every finding.
 */
export function findingsError(findings: readonly Finding[], code: Code = ErrorCode.INVALID_ARGUMENT): MemweaveError {
  const first = findings[0]!
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : ''
  return new MemweaveError(code, `${formatFinding(first)}${more}`, {
    field: first.pointer,
    file: first.file,
    pointer: first.pointer,
    rule: first.rule,
    findings: findings.map((f) => ({ ...f })),
  })
}

/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument
 * and overflows the call stack past about 100k of them (issue 13: a 240k-entry progress file made
 * `small validate` print "Maximum call stack size exceeded").
 */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item)
}
