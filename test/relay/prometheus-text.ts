/**
 * A strict reader of the Prometheus text exposition format, version 0.0.4
 * (prometheus.io/docs/instrumenting/exposition_formats), for tests: it throws on any line the
 * format does not allow, and on the rules a scraper relies on: at most one HELP and one TYPE per
 * family, the TYPE before the family's first sample, a family's samples together, names and
 * label names of the allowed characters, values that parse as floats.
 */

export interface Family {
  readonly name: string
  readonly help: string | null
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped' | null
  readonly samples: Array<{ readonly name: string; readonly labels: Readonly<Record<string, string>>; readonly value: number }>
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*'
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL}="(?:[^"\\\\\\n]|\\\\[\\\\"n])*",?)*)\\})? (\\S+)(?: (-?\\d+))?$`)
const LABEL_PAIR = new RegExp(`(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`, 'g')
const COMMENT = new RegExp(`^# (HELP|TYPE) (${NAME})(?: (.*))?$`)

function parseValue(text: string, line: number): number {
  if (text === 'NaN') return Number.NaN
  if (text === '+Inf') return Number.POSITIVE_INFINITY
  if (text === '-Inf') return Number.NEGATIVE_INFINITY
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: "${text}" is not a float`)
  return Number(text)
}

/** The families of `text`, in order. @throws Error naming the first line that breaks the format. */
export function parsePrometheusText(text: string): Family[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the last line does not end with a newline')
  const families = new Map<string, { name: string; help: string | null; type: Family['type']; samples: Family['samples'] }>()
  const family = (name: string) => {
    let f = families.get(name)
    if (!f) families.set(name, (f = { name, help: null, type: null, samples: [] }))
    return f
  }
  let current: string | null = null
  const lines = text.split('\n').slice(0, -1)
  lines.forEach((raw, i) => {
    const n = i + 1
    if (raw.trim() === '') return
    if (raw.startsWith('#')) {
      const m = COMMENT.exec(raw)
      if (!m) return // any other comment is allowed
      const f = family(m[2]!)
      if (m[1] === 'HELP') {
        if (f.help !== null) throw new Error(`line ${n}: a second HELP for ${f.name}`)
        f.help = m[3] ?? ''
      } else {
        if (f.type !== null) throw new Error(`line ${n}: a second TYPE for ${f.name}`)
        if (f.samples.length > 0) throw new Error(`line ${n}: TYPE of ${f.name} after its samples`)
        if (!TYPES.has(m[3] ?? '')) throw new Error(`line ${n}: unknown type "${m[3]}"`)
        f.type = m[3] as Family['type']
      }
      return
    }
    const m = SAMPLE.exec(raw)
    if (!m) throw new Error(`line ${n}: not a sample: ${raw}`)
    const name = m[1]!
    // histogram and summary samples carry suffixes; memweave exposes neither, so the name is the family's.
    const f = family(name)
    if (current !== name && f.samples.length > 0) throw new Error(`line ${n}: samples of ${name} are not together`)
    current = name
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL_PAIR)) {
      if (k! in labels) throw new Error(`line ${n}: label ${k} twice`)
      labels[k!] = v!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\')
    }
    f.samples.push({ name, labels, value: parseValue(m[3]!, n) })
  })
  return [...families.values()]
}
