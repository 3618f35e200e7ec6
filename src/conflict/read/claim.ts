import { extractValues } from './extract-values.js'
import { ADDITIVE_WORDS } from '../words/markers.js'
import { CONTRACTIONS, ON_OFF, PHRASES } from '../words/phrases.js'
import { CONTRAST } from '../words/classes.js'
import { LIGHT, SYNONYMS } from '../words/synonyms.js'
import { CLAIM_NEGATORS } from '../words/negation.js'
import { POLARITY, type PolarityEntry } from '../words/poles.js'
import { STOPWORDS } from '../words/stopwords.js'
import { stem } from './stem.js'
import { valueKey, type Value } from './values.js'

/** One content unit of a claim: a word that carries meaning, a typed value, or a negation. */
export interface Unit {
  readonly kind: 'word' | 'value' | 'neg'
  /** As written (after contractions are expanded). */
  readonly surface: string
  /** Canonical form used for matching: the stem, after synonyms. Values use their key. */
  readonly canon: string
  /** Porter stem of the lower-cased word (before synonyms), for prefix-negation checks. */
  readonly stem: string
  /** A name, an identifier or a contrast word ("Lisbon", "a1b2c3", "staging"): it picks one thing out of many. */
  readonly named: boolean
  /** Part of the topic (what the claim is about) rather than of its answer. */
  readonly topical: boolean
  /** An update or price verb ("moved to", "costs"): it attaches the answer and never counts as a difference. */
  readonly light?: boolean
  readonly polarity: readonly PolarityEntry[]
  readonly additive: boolean
  readonly value?: Value
}

/** An observation read for conflict detection; pure function of its text. */
export interface Claim {
  readonly text: string
  /** Words and values in order (negations excluded). */
  readonly units: readonly Unit[]
  /** Negation markers, each with the index in `units` of the first unit after it (-1 at the end). */
  readonly negations: ReadonlyArray<{ readonly unit: Unit; readonly head: number }>
  /** The claim with its answer masked: content words only, no values, names or negation. Compared by embedding. */
  readonly topic: string
}

const WORD_RE = /[A-Za-z][A-Za-z0-9]*(?:['’][A-Za-z]+)?|\d+[A-Za-z][A-Za-z0-9]*/g

function normalize(text: string): string {
  let t = text.normalize('NFC').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim()
  for (const [re, to] of CONTRACTIONS) t = t.replace(re, to)
  for (const [re, to] of PHRASES) t = t.replace(re, to)
  return t.replace(ON_OFF[0], ON_OFF[1])
}

/** Reads a text into a claim. */
export function parseClaim(text: string): Claim {
  const norm = normalize(text)
  const found = extractValues(norm)
  const raw: Array<{ unit: Unit; end: number } | { pendingCount: Value; text: string; end: number }> = []
  let cursor = 0
  const pushWords = (from: number, to: number): void => {
    const segment = norm.slice(from, to)
    WORD_RE.lastIndex = 0
    for (let m = WORD_RE.exec(segment); m; m = WORD_RE.exec(segment)) {
      const start = from + m.index
      for (const part of splitWord(m[0])) {
        const unit = wordUnit(part, isSentenceStart(norm, start))
        if (unit) raw.push({ unit, end: start + m[0].length })
      }
    }
  }
  for (const f of found) {
    pushWords(cursor, f.start)
    if (f.value.type === 'count' && f.value.unit === '' && f.value.per === null) raw.push({ pendingCount: f.value, text: f.text, end: f.end })
    else raw.push({ unit: valueUnit(f.value, f.text), end: f.end })
    cursor = f.end
  }
  pushWords(cursor, norm.length)

  // A bare number counts the word after it ("3 nodes"), else the content word before it ("Node 18").
  const units: Unit[] = []
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i]!
    if ('unit' in r) {
      units.push(r.unit)
      continue
    }
    const next = raw[i + 1]
    const prev = units.at(-1)
    const v = r.pendingCount as Extract<Value, { type: 'count' }>
    if (next && 'unit' in next && next.unit.kind === 'word' && !next.unit.named && !next.unit.polarity.length && !next.unit.additive) {
      units.push(valueUnit({ ...v, unit: next.unit.canon }, `${r.text} ${next.unit.surface}`))
      i++
    } else if (prev && prev.kind === 'word' && !prev.polarity.length) {
      units.push(valueUnit({ ...v, unit: prev.canon }, r.text))
    } else {
      units.push(valueUnit({ ...v, unit: 'number' }, r.text))
    }
  }

  // Each negation governs the first content unit after it (its head); a trailing "no" is an answer.
  const content: Unit[] = []
  const negations: Array<{ unit: Unit; head: number }> = []
  let pending: Array<{ unit: Unit; head: number }> = []
  for (const u of units) {
    if (u.kind === 'neg') {
      const n = { unit: u, head: -1 }
      negations.push(n)
      pending.push(n)
      continue
    }
    for (const p of pending) p.head = content.length
    pending = []
    content.push(u)
  }
  for (const n of pending) {
    if (n.unit.canon !== 'no') continue
    negations.splice(negations.indexOf(n), 1)
    content.push({ ...n.unit, kind: 'word' })
  }
  return { text, units: content, negations, topic: topicOf(content) }
}

function isSentenceStart(text: string, index: number): boolean {
  const before = text.slice(0, index).trimEnd()
  return before === '' || /[.!?:;]$/.test(before)
}

/** "thread-safe" -> thread, safe; "user's" -> user. */
function splitWord(word: string): string[] {
  return word.replace(/['’]s$/i, '').replace(/['’]$/, '').split(/[-']/).filter(Boolean)
}

function wordUnit(surface: string, sentenceStart: boolean): Unit | null {
  const lower = surface.toLowerCase()
  if (CLAIM_NEGATORS.has(lower) || lower === 'non') {
    return { kind: 'neg', surface, canon: lower, stem: lower, named: false, topical: false, polarity: POLARITY.get(stem(lower)) ?? [], additive: false }
  }
  const hasDigit = /\d/.test(surface)
  const innerCaps = /[A-Z]/.test(surface.slice(1))
  const capital = /^[A-Z]/.test(surface)
  const s = stem(lower)
  const polarity = POLARITY.get(s) ?? []
  const known = STOPWORDS.has(lower) || polarity.length > 0 || SYNONYMS.has(s) || CONTRAST.has(lower)
  // A capital mid-sentence marks a name ("the US bucket", "runs on Ubuntu"). At the start of a
  // sentence a capital says nothing, so an unknown capitalized first word ("Alice", but also
  // "Rent") counts as a name when two claims differ there, yet stays part of the topic.
  const proper = hasDigit || innerCaps || (capital && !sentenceStart) || (surface.length === 1 && capital && !sentenceStart)
  const initialName = capital && sentenceStart && !known
  if (!proper && STOPWORDS.has(lower)) return null
  if (lower === 'i') return null
  const canon = SYNONYMS.get(s) ?? s
  const contrast = CONTRAST.has(lower)
  return {
    kind: 'word',
    surface,
    canon,
    stem: s,
    named: proper || initialName || contrast,
    light: LIGHT.has(canon),
    topical: !proper && !contrast && polarity.length === 0 && !ADDITIVE_WORDS.has(lower) && !LIGHT.has(canon),
    polarity,
    additive: ADDITIVE_WORDS.has(lower),
  }
}

function valueUnit(value: Value, text: string): Unit {
  const key = `§${valueKey(value)}`
  return { kind: 'value', surface: text, canon: key, stem: key, named: false, topical: false, polarity: [], additive: false, value }
}

/**
 * The topic: the claim's words minus its answer (values, names, polarity words, update verbs).
 * A claim made only of names ("The VM has 16 GB of RAM") keeps them, so it still has a topic.
 */
function topicOf(units: readonly Unit[]): string {
  const words = units.filter((u) => u.kind === 'word')
  for (const pick of [(u: Unit) => u.topical, (u: Unit) => !u.polarity.length && !u.additive, () => true]) {
    const chosen = words.filter(pick)
    if (chosen.length) return chosen.map((u) => topicWord(u.canon.toLowerCase())).join(' ')
  }
  return ''
}

/** A negating un-/non- prefix says nothing about the topic: "uncached" is about caching. */
function topicWord(w: string): string {
  const m = /^(?:un|non)-?(.{4,})$/.exec(w)
  return m ? m[1]! : w
}
