import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { SmallRule, type Finding } from './findings.js'
import { SMALL_VERSION, filePathOf, type SmallDocName } from './layout.js'
import { SCHEMAS } from './schemas.js'
import { parseTimestamp } from './timestamp.js'

/**
 * JSON Schema validation (draft 2020-12, formats on) with findings a person can act on: one per
 * problem, at the JSON pointer of the offending value (or of the missing or unexpected key), in
 * words instead of schema keywords. Validators compile on first use: nothing runs at import time.
 */
let ajv: Ajv2020 | undefined
const validators = new Map<SmallDocName, ValidateFunction>()

function validatorFor(name: SmallDocName): ValidateFunction {
  let v = validators.get(name)
  if (!v) {
    if (!ajv) {
      ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true })
      // ajv-formats is CommonJS: Node's default import is module.exports, a bundler's is exports.default;
      // the plugin is both (module.exports.default === module.exports).
      addFormats.default(ajv)
    }
    v = ajv.compile(SCHEMAS[name])
    validators.set(name, v)
  }
  return v
}

/** Schema findings of one document (empty when it validates). */
export function schemaFindings(name: SmallDocName, data: unknown, file = filePathOf(name)): Finding[] {
  const validate = validatorFor(name)
  if (validate(data)) return []
  const errors = validate.errors ?? []
  // A failing oneOf reports each branch too; the branches are folded into its one message.
  const unions = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')
  const kept = errors.filter((e) => !unions.some((u) => u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`)))
  const findings: Finding[] = []
  const seen = new Set<string>()
  for (const e of kept) {
    const f = toFinding(e, file)
    const key = `${f.pointer}|${f.message}`
    if (!seen.has(key)) {
      seen.add(key)
      findings.push(f)
    }
  }
  // small_version gets one finding (its own rule), not also "must be a string".
  const version = new Set(findings.filter((f) => f.rule === SmallRule.VERSION).map((f) => f.pointer))
  return findings.filter((f) => f.rule === SmallRule.VERSION || !version.has(f.pointer))
}

function toFinding(e: ErrorObject, file: string): Finding {
  const base = { severity: 'error' as const, file, rule: SmallRule.SCHEMA }
  const at = e.instancePath
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty
      if (at === '' && missing === 'small_version') {
        return { ...base, rule: SmallRule.VERSION, pointer: '/small_version', message: `small_version is missing: every SMALL document starts with small_version: "${SMALL_VERSION}"` }
      }
      return { ...base, pointer: `${at}/${escape(missing)}`, message: `"${missing}" is required but missing` }
    }
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {})
      return {
        ...base,
        pointer: `${at}/${escape(extra)}`,
        message: `"${extra}" is not allowed here; ${allowed.length ? `the allowed keys are ${allowed.join(', ')}` : 'no keys are allowed'}`,
      }
    }
    case 'const':
      if (at === '/small_version') return { ...base, rule: SmallRule.VERSION, pointer: at, message: versionMessage(e.data) }
      return { ...base, pointer: at, message: `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, got ${describeValue(e.data)}` }
    case 'oneOf':
    case 'anyOf': {
      const branches = ((e.schema as object[]) ?? []).map(describeSchema)
      let message = `must be ${branches.join(' or ')}, got ${describeValue(e.data)}`
      if (at.endsWith('/resume/current_task_id') && e.data === '') message += '; write null (or leave the key out) when no task is current'
      return { ...base, pointer: at, message }
    }
    case 'format': {
      const why = (e.params as { format: string }).format === 'date-time' ? parseTimestamp(e.data) : null
      const detail = why && !why.ok ? `: ${describeValue(e.data)} ${why.reason}` : `, got ${describeValue(e.data)}`
      return { ...base, pointer: at, message: `${describeKeyword(e)}${detail}` }
    }
    default:
      return { ...base, pointer: at, message: `${describeKeyword(e)}, got ${describeValue(e.data)}` }
  }
}

function versionMessage(value: unknown): string {
  if (typeof value === 'string' && /^0\./.test(value)) {
    return (
      `small_version must be exactly "${SMALL_VERSION}", found "${value}": SMALL ${value} documents are not supported ` +
      `by v${SMALL_VERSION} tooling (SMALL.md "Backwards Compatibility"); rewrite the document to the v${SMALL_VERSION} schema`
    )
  }
  if (typeof value === 'number') {
    return `small_version must be the string "${SMALL_VERSION}", found the number ${value}; quote it: small_version: "${SMALL_VERSION}"`
  }
  return `small_version must be exactly "${SMALL_VERSION}" (a string), found ${describeValue(value)}`
}

const PATTERNS: Readonly<Record<string, string>> = {
  '^[a-fA-F0-9]{64}$': '64 hexadecimal digits (a SHA-256)',
  '^[a-f0-9]{64}$': '64 lowercase hexadecimal digits (a SHA-256)',
  '^[a-f0-9]{7,40}$': 'a git commit hash (7 to 40 lowercase hexadecimal digits)',
}

const FORMATS: Readonly<Record<string, string>> = {
  'date-time': 'an RFC 3339 date-time such as "2025-01-04T10:00:00.000000000Z"',
  uri: 'an absolute URI such as "https://example.com/pr/1"',
}

function describeKeyword(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'type':
      return `must be ${article(String(p['type']))}`
    case 'minLength':
      return p['limit'] === 1 ? 'must not be empty' : `must be at least ${String(p['limit'])} characters long`
    case 'minItems':
      return `must have at least ${String(p['limit'])} item${p['limit'] === 1 ? '' : 's'}`
    case 'enum':
      return `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
    case 'pattern':
      return `must be ${PATTERNS[String(p['pattern'])] ?? `text matching ${String(p['pattern'])}`}`
    case 'format':
      return `must be ${FORMATS[String(p['format'])] ?? `a valid ${String(p['format'])}`}`
    default:
      return e.message ?? `fails "${e.keyword}"`
  }
}

function describeSchema(schema: object): string {
  const s = schema as { type?: string; minLength?: number }
  if (s.type === 'null') return 'null'
  if (s.type === 'string' && s.minLength === 1) return 'a non-empty string'
  if (s.type === 'object') return 'a mapping'
  return s.type ? article(s.type) : 'a value of another shape'
}

function article(type: string): string {
  const names: Record<string, string> = { object: 'a mapping', array: 'a list', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false', null: 'null' }
  return type.split(',').map((t) => names[t] ?? t).join(' or ')
}

/** A short description of a value for a message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (value === '') return 'an empty string'
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)
  if (typeof value === 'number') return `the number ${value}`
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return 'a list'
  return 'a mapping'
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}
