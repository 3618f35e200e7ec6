import { invalidArgument } from '../core/errors.js'
import { assertWellFormed } from '../core/ids.js'
import type {
  CommitArtifactInput, CreateArtifactInput, ImportArtifactOptions, ListArtifactsOptions, MergeArtifactInput, ReadArtifactOptions,
  SearchArtifactsOptions,
} from './types.js'

/** Labelled asserts for the artifact API's arguments (STYLE.md 15): each names the field it rejects. */

type Spec = Readonly<Record<string, (value: unknown, field: string) => void>>

function options<T>(value: unknown, field: string, spec: Spec, required: readonly string[] = []): T {
  if (value === undefined || value === null) {
    if (required.length > 0) throw invalidArgument(required[0]!, 'is required')
    return {} as T
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(field, 'must be an object')
  const o = value as Record<string, unknown>
  for (const key of Object.keys(o)) {
    if (!Object.hasOwn(spec, key)) throw invalidArgument(key, `unknown option; expected one of ${Object.keys(spec).join(', ')}`)
  }
  for (const key of required) if (o[key] === undefined) throw invalidArgument(key, 'is required')
  for (const [key, check] of Object.entries(spec)) if (o[key] !== undefined) check(o[key], key)
  return o as T
}

// Every string here ends up in a file (UTF-8) and in a signed record: a lone surrogate would be
// written as U+FFFD silently, and two different inputs would sign alike (issue 13).
const str = (v: unknown, f: string): void => {
  if (typeof v !== 'string') throw invalidArgument(f, 'must be a string')
  assertWellFormed(f, v)
}
const text = (v: unknown, f: string): void => {
  if (typeof v !== 'string' || v.trim() === '') throw invalidArgument(f, 'must be a non-empty string')
  assertWellFormed(f, v)
}
const confidence = (v: unknown, f: string): void => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw invalidArgument(f, `must be a number from 0 to 1, got ${JSON.stringify(v)}`)
}
const positiveInt = (v: unknown, f: string): void => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalidArgument(f, `must be an integer >= 1, got ${JSON.stringify(v)}`)
}
const tags = (v: unknown, f: string): void => {
  if (!Array.isArray(v)) throw invalidArgument(f, 'must be an array of strings')
  v.forEach((t, i) => text(t, `${f}[${i}]`))
}

export const assertCreateInput = (v: unknown): CreateArtifactInput =>
  options(v, 'input', { title: text, body: str, tags, confidence, message: str, pool: text })

export const assertCommitInput = (v: unknown): CommitArtifactInput =>
  options(v, 'input', { body: str, title: text, tags, confidence, message: text, expectedVersion: positiveInt, basedOn: text }, ['message'])

export const assertMergeInput = (v: unknown): MergeArtifactInput =>
  options(v, 'input', { message: text, confidence, expectedVersion: positiveInt })

export const assertReadOptions = (v: unknown): ReadArtifactOptions =>
  options(v, 'options', {
    version: (x, f) => (typeof x === 'string' ? text(x, f) : positiveInt(x, f)),
  })

export const assertListOptions = (v: unknown): ListArtifactsOptions => options(v, 'options', { tag: text })

export const assertSearchOptions = (v: unknown): SearchArtifactsOptions => options(v, 'options', { limit: positiveInt })

export const assertImportOptions = (v: unknown): ImportArtifactOptions => options(v, 'options', { slug: str, pool: text })

export function assertQuery(query: unknown): string {
  text(query, 'query')
  return query as string
}
