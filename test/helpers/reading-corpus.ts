import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { factRows } from '../../bench/fixtures.js'

const data = new URL('../../../shared/data/', import.meta.url)
const fixtures = new URL('../fixtures/', import.meta.url)

/**
 * Every text the conflict detector is measured on, once each: the strings of words in the shared
 * data (the realistic conflict pairs, the LoCoMo conversations' turns, observations and
 * summaries), in the conflict fixtures of test/fixtures, and the contents of the fact bench's
 * first `benchRows` rows (the texts a retrieve at 100k judges). For tests that compare two ways of
 * reading a text.
 */
export function readingCorpus(benchRows = 3000): string[] {
  const out = new Set<string>()
  const walk = (x: unknown): void => {
    if (typeof x === 'string') {
      if (x.length >= 3 && /\s/.test(x.trim())) out.add(x)
    } else if (Array.isArray(x)) for (const y of x) walk(y)
    else if (x && typeof x === 'object') for (const y of Object.values(x)) walk(y)
  }
  const files = (dir: URL): URL[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => new URL(f, dir)) : [])
  for (const f of [...files(new URL('conflicts/', data)), ...files(new URL('locomo/', data)), ...files(fixtures).filter((u) => /\/conflict-[^/]*\.json$/.test(u.pathname))]) {
    walk(JSON.parse(readFileSync(f, 'utf8')))
  }
  for (const row of factRows(benchRows)) out.add(row.content)
  return [...out]
}
