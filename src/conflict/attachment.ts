import { SYNONYMS, STOPWORDS, stem } from './lexicon.js'
import { CLASS_OF } from './cues.js'
import { isTimeWord, type Reading } from './reading.js'
import { hasStem } from './same-stem.js'

/** A few nouns for one thing that the general synonym list does not fold. */
const EXTRA: Record<string, string> = {
  [stem('booking')]: 'reserv', [stem('table')]: 'reserv', [stem('reservation')]: 'reserv',
  [stem('expires')]: 'expir', [stem('valid')]: 'expir', [stem('good')]: 'expir',
  [stem('reports')]: 'manag', [stem('manager')]: 'manag', [stem('boss')]: 'manag',
}
/** Update verbs and particles attach a new answer to the same attribute ("moves to 10:30", "staying at 9:15", "went out"). */
const LIGHT = new Set(['move', 'moved', 'moves', 'stay', 'staying', 'stays', 'change', 'changed', 'push', 'pushed', 'shift', 'shifted', 'switch', 'switched', 'now', 'become', 'became', 'remain', 'remains', 'still', 'out', 'up', 'off', 'down', 'back', 'set', 'reading', 'sitting'])
const canon = (s: string): string => EXTRA[s] ?? SYNONYMS.get(s) ?? s

/**
 * The word a value or name is attached to: the last content word before it in its clause
 * ("departs 8:05" -> depart; "boarding ... starts 7:25" -> start). Names and identifiers are left
 * out: they say which thing, not which attribute.
 */
export function attachedWords(r: Reading, at: number): string[] {
  if (at < 0) return []
  const out: string[] = []
  for (let i = r.tokens.length - 1; i >= 0 && out.length < 1; i--) {
    const t = r.tokens[i]!
    if (t.end > at) continue
    if (/[.;!?,:()–]/.test(r.norm.slice(t.end, at))) break
    if (STOPWORDS.has(t.lower) || LIGHT.has(t.lower) || CLASS_OF.has(t.lower) || t.capital || t.identifier || isTimeWord(t.lower) || /^\d/.test(t.lower)) continue
    out.push(t.stem)
  }
  return out
}

/**
 * Two values (or names) belong to different attributes when each is attached to a word the other
 * text never uses: "departs 7:45" / "arrives 11:20", "opens at 9" / "closes at 6", "lives in
 * Seattle" / "works in Bellevue". Then they are two facts, not one fact stated twice.
 */
export function differentAttributes(a: Reading, atA: number, b: Reading, atB: number): boolean {
  const own = (x: Reading, at: number, y: Reading): string[] => {
    const yc = new Set([...y.content].map(canon))
    return attachedWords(x, at).filter((s) => !hasStem(y.content, s) && !yc.has(canon(s)))
  }
  return own(a, atA, b).length > 0 && own(b, atB, a).length > 0
}
