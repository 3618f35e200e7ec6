import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import { parseArtifactFile, type ArtifactFile } from './format.js'
import { KNOWLEDGE_ARTIFACT_SCHEMA } from './schema.js'
import { MAX_SLUG_LENGTH } from './slug.js'
import type { ArtifactFrontmatter, ArtifactProblem } from './types.js'

// Ajv and ajv-formats are CommonJS: the default import is `module.exports`, whose `default` is the
// export itself (bundlers may hand over either).
type Ajv2020Class = typeof Ajv2020Module.default
type AddFormats = typeof addFormatsModule.default
const Ajv2020 = (Ajv2020Module as unknown as { default?: Ajv2020Class }).default ?? (Ajv2020Module as unknown as Ajv2020Class)
const addFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats)

let compiled: ValidateFunction | undefined

/** The schema validator, compiled on first use (nothing runs at import time). */
function schemaValidator(): ValidateFunction {
  if (!compiled) {
    // The schema's $schema is draft 2020-12, hence Ajv's 2020 class; formats for `date-time`.
    const ajv = new Ajv2020({ allErrors: true, strict: true })
    addFormats(ajv, ['date-time'])
    compiled = ajv.compile(KNOWLEDGE_ARTIFACT_SCHEMA)
  }
  return compiled!
}

/** `/provenance/0/action` → `provenance[0].action`. */
function fieldPath(pointer: string, extra?: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (extra !== undefined) parts.push(extra)
  return parts.reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '') || 'frontmatter'
}

function describe(e: ErrorObject, data: unknown): ArtifactProblem {
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required':
      return { field: fieldPath(e.instancePath, String(p['missingProperty'])), message: 'is required' }
    case 'enum':
      return { field: fieldPath(e.instancePath), message: `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` }
    case 'const':
      return { field: fieldPath(e.instancePath), message: `must be ${JSON.stringify(p['allowedValue'])}` }
    case 'pattern':
      return { field: fieldPath(e.instancePath), message: `must match ${String(p['pattern'])}` }
    case 'format':
      return { field: fieldPath(e.instancePath), message: `must be an ISO 8601 date-time with a time zone (RFC 3339), got ${JSON.stringify(valueAt(data, e.instancePath))}` }
    default:
      return { field: fieldPath(e.instancePath), message: e.message ?? `fails "${e.keyword}"` }
  }
}

function valueAt(data: unknown, pointer: string): unknown {
  let v = data
  for (const part of pointer.split('/').slice(1)) v = (v as Record<string, unknown> | undefined)?.[part]
  return v
}

export interface ValidateOptions {
  /** The slug the artifact is stored under (its file name); `id` must be `artifact:<slug>`. */
  readonly slug?: string
}

/**
 * Every problem of some frontmatter: the JSON schema (SMP Appendix A, with formats) and the rules
 * it cannot express (SMP §2.4, §2.6, §6): the first provenance entry is `created` and no later one
 * is; the id's slug fits a file name and matches the file it is in. An empty list means valid.
 *
 * @example
 * validateFrontmatter({ ...fm, confidence: 2 }) // [{ field: 'confidence', message: 'must be <= 1' }]
 */
export function validateFrontmatter(data: unknown, options: ValidateOptions = {}): ArtifactProblem[] {
  const validate = schemaValidator()
  const problems: ArtifactProblem[] = validate(data) ? [] : (validate.errors ?? []).map((e) => describe(e, data))
  const fm = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>
  const provenance = Array.isArray(fm['provenance']) ? (fm['provenance'] as unknown[]) : []
  provenance.forEach((entry, i) => {
    const action = (entry as Record<string, unknown> | null)?.['action']
    if (i === 0 && action !== undefined && action !== 'created') {
      problems.push({ field: 'provenance[0].action', message: `the first provenance entry must be "created" (SMP §6), got ${JSON.stringify(action)}` })
    }
    if (i > 0 && action === 'created') {
      problems.push({ field: `provenance[${i}].action`, message: 'only the first provenance entry may be "created" (SMP §2.6)' })
    }
  })
  const id = fm['id']
  if (typeof id === 'string' && id.startsWith('artifact:')) {
    const slug = id.slice('artifact:'.length)
    if (slug.length > MAX_SLUG_LENGTH) problems.push({ field: 'id', message: `the slug must be at most ${MAX_SLUG_LENGTH} characters` })
    if (options.slug !== undefined && slug !== options.slug) {
      problems.push({ field: 'id', message: `must be "artifact:${options.slug}" to match its file name (SMP §3.2), got ${JSON.stringify(id)}` })
    }
  }
  return dedupe(problems)
}

/**
 * The problems of a later version against the one it continues: the same artifact and creation
 * time, a greater version (SMP §2.5), and the earlier provenance kept as its prefix (append-only, SMP §2.6).
 */
export function validateSuccessor(parent: ArtifactFrontmatter, child: ArtifactFrontmatter): ArtifactProblem[] {
  const problems: ArtifactProblem[] = []
  if (child.id !== parent.id) problems.push({ field: 'id', message: `must stay ${JSON.stringify(parent.id)}` })
  if (child.created !== parent.created) problems.push({ field: 'created', message: `must stay ${JSON.stringify(parent.created)}` })
  if (!(child.version > parent.version)) {
    problems.push({ field: 'version', message: `must be greater than ${parent.version} (versions only increase), got ${child.version}` })
  }
  const prefix = parent.provenance.every((entry, i) => i < child.provenance.length && sameJson(entry, child.provenance[i]))
  if (!prefix) problems.push({ field: 'provenance', message: `is append-only: the ${parent.provenance.length} entries of version ${parent.version} must stay, unchanged, at its start` })
  return problems
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function dedupe(problems: ArtifactProblem[]): ArtifactProblem[] {
  const seen = new Set<string>()
  return problems.filter((p) => {
    const key = `${p.field}\u0000${p.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The result of validating a whole file. */
export interface ArtifactValidation {
  readonly valid: boolean
  readonly problems: readonly ArtifactProblem[]
  /** The parsed file, when it could be parsed. */
  readonly file: ArtifactFile | null
}

/**
 * Parses and validates an artifact file; never throws for bad content.
 * @example
 * const { valid, problems } = validateArtifactText(text, { slug: 'notes' })
 */
export function validateArtifactText(text: string, options: ValidateOptions = {}): ArtifactValidation {
  let file: ArtifactFile
  try {
    file = parseArtifactFile(text)
  } catch (err) {
    if (isMemweaveError(err) && err.code === ErrorCode.INVALID_ARGUMENT) {
      return { valid: false, problems: [{ field: String(err.details.field), message: err.message.replace(/^[^:]+: /, '') }], file: null }
    }
    throw err
  }
  const problems = validateFrontmatter(file.frontmatter, options)
  return { valid: problems.length === 0, problems, file }
}

/**
 * Throws for the first problem, naming its field; all of them are in `details.problems`.
 * @throws MemweaveError INVALID_ARGUMENT when `problems` is not empty.
 */
export function assertNoProblems(problems: readonly ArtifactProblem[], what = 'artifact'): void {
  if (problems.length === 0) return
  const [first] = problems
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
  throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, `${first!.field}: ${first!.message}${more}`, { field: first!.field, problems: [...problems], what })
}
