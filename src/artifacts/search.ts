import type { ArtifactFrontmatter } from './types.js'

/**
 * Ranking for `search` (SMP §4.5: title, tags and body, case-insensitive). Every query word must
 * occur somewhere in the artifact (as a substring, like AWP's own search); a hit scores more in the
 * title than in a tag, more in a tag than in the body, more when the whole query occurs as a phrase,
 * and sublinearly in the number of body occurrences.
 */

export interface SearchQuery {
  readonly phrase: string
  readonly terms: readonly string[]
}

export interface Scored {
  readonly score: number
  readonly matchedIn: Array<'title' | 'tags' | 'body'>
  readonly snippet: string
}

export function parseQuery(query: string): SearchQuery {
  const phrase = query.trim().toLowerCase()
  const terms = [...new Set(phrase.split(/[^\p{L}\p{N}]+/u).filter(Boolean))]
  return { phrase, terms: terms.length > 0 ? terms : [phrase] }
}

function count(haystack: string, needle: string, cap = 50): number {
  let n = 0
  for (let i = haystack.indexOf(needle); i >= 0 && n < cap; i = haystack.indexOf(needle, i + needle.length)) n++
  return n
}

const word = (text: string, term: string): boolean =>
  new RegExp(`(?:^|[^\\p{L}\\p{N}])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\p{L}\\p{N}])`, 'u').test(text)

/** The score of one artifact, or null when some query word occurs nowhere in it. */
export function scoreArtifact(q: SearchQuery, fm: ArtifactFrontmatter, body: string): Scored | null {
  const title = fm.title.toLowerCase()
  const tags = (fm.tags ?? []).map((t) => t.toLowerCase())
  const text = body.toLowerCase()
  const matched = new Set<'title' | 'tags' | 'body'>()
  let score = 0
  for (const term of q.terms) {
    let s = 0
    if (title.includes(term)) {
      s += word(title, term) ? 5 : 3
      matched.add('title')
    }
    if (tags.some((t) => t === term)) s += 4
    else if (tags.some((t) => t.includes(term))) s += 2
    if (tags.some((t) => t.includes(term))) matched.add('tags')
    const n = count(text, term)
    if (n > 0) {
      s += 1 + Math.log2(n)
      matched.add('body')
    }
    if (s === 0) return null
    score += s
  }
  if (q.terms.length > 1 || q.phrase !== q.terms[0]) {
    if (title.includes(q.phrase)) score += 5
    if (text.includes(q.phrase)) score += 2
  }
  return { score: Math.round(score * 1000) / 1000, matchedIn: [...matched], snippet: snippet(body, text, q) }
}

function snippet(body: string, lower: string, q: SearchQuery): string {
  let at = lower.indexOf(q.phrase)
  let len = q.phrase.length
  if (at < 0) {
    const term = q.terms.find((t) => lower.includes(t))
    if (term === undefined) return ''
    at = lower.indexOf(term)
    len = term.length
  }
  const start = Math.max(0, at - 40)
  const end = Math.min(body.length, at + len + 40)
  const text = body.slice(start, end).replace(/\s+/g, ' ').trim()
  return `${start > 0 ? '…' : ''}${text}${end < body.length ? '…' : ''}`
}
