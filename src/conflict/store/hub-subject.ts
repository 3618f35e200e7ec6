import type { Reading } from '../read/reading.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { differentAttributes, differentObjects } from '../judge/attachment.js'
import { FACTORS } from '../judge/confidence.js'
import { CLASS_OF } from '../words/classes.js'
import { KINDS } from '../words/kinds.js'

// A store-level rule of the free-text conflict listing (issue 27, session 10). In a stream of
// observations nearly every fact is about the same one or two people ("Abena ...", "Kenji ..."),
// so two facts that open with that name are "about one subject" almost for free, and a flag that
// rests on the name and a kind of value ("Sam has never seen the Rockies" / "Sam saw a black
// bear"; "Gina owns a store where she sells fashion pieces" / "... acquired new unique pieces") is
// weak evidence. Such a pair keeps its flag only when what differs is one attribute said twice:
// the same word carries the two values ("Abena's A1C was 7.2" / "... was 6.1", "goes climbing
// three times a week" / "climbs twice a week"), or one verb is negated and stated of one object
// ("cannot walk" / "walks every morning"). Another verb or another object is another claim.
//
// Who counts as a hub is the store's to say (facts/free-text-conflicts.ts keeps the counts as
// facts come and go, by HUB_SHARE and HUB_MIN_FACTS of store/subject-name.ts); this file only
// weighs a pair once it is told the two texts share one.

/** What the rule does to one pair: the factor its confidence is multiplied by, and the note the reason gets. */
export interface HubWeight {
  readonly factor: number
  readonly note: string
}

/**
 * How a shared hub subject weighs on a flag: null when the two texts say one attribute of it.
 * @param name - the hub's name, as the store counted it (lower case)
 * @param share - the share of the store's free-text facts that open with it
 */
export function hubWeight(a: Reading, b: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason'>, name: string, share: number): HubWeight | null {
  if (oneAttribute(a, b, verdict)) return null
  return { factor: FACTORS.hubSubject, note: `"${name}" opens ${Math.round(share * 100)}% of the store's facts that open with a name, and the two say different things of ${name}` }
}

/** Whether what differs is one attribute said twice (see above). */
function oneAttribute(a: Reading, b: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason'>): boolean {
  const q = /"([^"]+)" vs "([^"]+)"/.exec(verdict.reason)
  // A check whose reason quotes no two sides (a possession, a diet): nothing to weigh here.
  if (!q) return true
  const [sa, sb] = [span(a, q[1]!), span(b, q[2]!)]
  if (!sa || !sb) return true
  if (verdict.kind === 'value' || verdict.kind === 'substitution') return !differentAttributes(a, sa.start, b, sb.start)
  // A negated or opposed verb: one object, or none said, is one claim; so is a kind and the class
  // it belongs to ("plays the guitar" / "has never played a musical instrument").
  return !differentObjects(a, sa.end, b, sb.end) || classOfOther(objectPhrase(a, sa.end), objectPhrase(b, sb.end))
}

/** The words after a verb up to the end of its clause, at most four: where its object stands. */
function objectPhrase(r: Reading, end: number): string[] {
  const clause = r.norm.slice(end).split(/[.;!?,:()–]/)[0] ?? ''
  return clause.toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter(Boolean).slice(0, 4)
}

/** Whether a word of one phrase names the class (or kind, words/kinds.ts) of a word of the other. */
function classOfOther(x: readonly string[], y: readonly string[]): boolean {
  const singular = (w: string): string => w.replace(/(?<=\w{3})s$/, '')
  const covers = (general: string, member: string): boolean =>
    CLASS_OF.get(singular(member)) === singular(general) || (KINDS[singular(general)] ?? '').split(' ').includes(singular(member))
  return x.some((w) => y.some((v) => covers(w, v) || covers(v, w)))
}

/** Where a quoted side of the reason stands: the last occurrence of its last word, back to its first. */
export function span(r: Reading, phrase: string): { start: number; end: number } | null {
  // "€210,000" is the token "210,000": a comma or point inside a number does not split it (hub33).
  const words = phrase.toLowerCase().split(/[^\p{L}\p{N},.]+/u).map((w) => w.replace(/^[,.]+|[,.]+$/g, '')).filter(Boolean)
  const last = words.at(-1)
  if (!last) return null
  const i = r.tokens.findLastIndex((t) => t.lower === last)
  if (i < 0) return null
  const first = r.tokens.slice(Math.max(0, i - words.length + 1), i + 1).find((t) => t.lower === words[0])
  return { start: (first ?? r.tokens[i]!).start, end: r.tokens[i]!.end }
}
