import { pointerOf } from './findings.js'

/**
 * SMALL.md invariant 1: no secrets in canonical documents. Detection is heuristic (the spec says
 * so), which is why validation *warns* by default and *fails* in strict mode, like the reference
 * CLI. It looks for well-known key and token formats anywhere, for credentials in URLs and
 * `password=...` assignments inside text, and for long random-looking values under keys named like
 * secrets. Fields that are hashes by definition (replayId, command_sha256, commit) are skipped.
 */
export interface SecretHit {
  readonly pointer: string
  /** What it looks like, e.g. "GitHub token". */
  readonly kind: string
  /** The value with its middle masked, so the report does not repeat the secret. */
  readonly preview: string
}

const PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['private key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/],
  ['AWS access key id', /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/],
  ['GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/],
  ['GitLab token', /\bglpat-[A-Za-z0-9_-]{20,}\b/],
  ['Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/],
  ['OpenAI or Anthropic API key', /\bsk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_-]{20,}/],
  ['Stripe key', /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/],
  ['Google API key', /\bAIza[0-9A-Za-z_-]{35}\b/],
  ['npm token', /\bnpm_[A-Za-z0-9]{36}\b/],
  ['JSON Web Token', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  ['credentials in a URL', /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]{3,}@[^\s/]+/i],
  [
    'assigned secret',
    /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key)\s*[:=]\s*["']?(?![$<{*%])[^\s"']{6,}/i,
  ],
]

/** Keys whose (long, random-looking) value is presumed secret. */
const SECRET_KEY = /(?:^|[_-])(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)$/i

/** Pointers whose values are hashes by definition, never secrets. */
const HASH_FIELD = /(?:^\/replayId\/value|^\/run\/(?:previous_replay_id|replay_id)|\/replayId|\/command_sha256|\/commit)$/

export function findSecrets(data: unknown): SecretHit[] {
  const hits: SecretHit[] = []
  const walk = (value: unknown, path: Array<string | number>): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]))
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k])
    } else if (typeof value === 'string') {
      const pointer = pointerOf(path)
      if (HASH_FIELD.test(pointer)) return
      const kind = classify(value, path.at(-1))
      if (kind) hits.push({ pointer, kind, preview: mask(value) })
    }
  }
  walk(data, [])
  return hits
}

function classify(value: string, key: string | number | undefined): string | null {
  for (const [kind, re] of PATTERNS) if (re.test(value)) return kind
  if (typeof key === 'string' && SECRET_KEY.test(key) && looksRandom(value)) return `value of "${key}"`
  return null
}

/** A long, space-free value with mixed character classes and high entropy: a key, not a word. */
export function looksRandom(value: string): boolean {
  const v = value.trim()
  if (v.length < 16 || /\s/.test(v) || /^[$<{*%]/.test(v)) return false
  const classes = [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(v)).length
  return classes >= 2 && shannonEntropy(v) >= 3.5
}

function shannonEntropy(s: string): number {
  const counts = new Map<string, number>()
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1)
  let h = 0
  for (const n of counts.values()) {
    const p = n / s.length
    h -= p * Math.log2(p)
  }
  return h
}

function mask(value: string): string {
  const v = value.replace(/\s+/g, ' ')
  if (v.length <= 8) return '*'.repeat(v.length)
  return `${v.slice(0, 4)}…${v.slice(-2)} (${v.length} chars)`
}

/** The finding text for a hit. */
export function secretMessage(hit: SecretHit): string {
  return (
    `looks like a secret (${hit.kind}: ${hit.preview}): secrets must never be stored in .small/ ` +
    `(SMALL.md invariant 1); keep it in the environment or a secret manager and refer to it by name`
  )
}
