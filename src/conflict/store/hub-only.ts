import type { Reading } from '../read/reading.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { attachedWords, canon, UPDATE } from '../judge/attachment.js'
import { attributeAt } from '../judge/value-of.js'
import { datedEvents } from '../judge/date-events.js'
import { FACTORS } from '../judge/confidence.js'
import { sameStem } from '../read/same-stem.js'
import { stem } from '../read/stem.js'
import { DETERMINERS } from '../words/determiners.js'
import { CLASS_OF } from '../words/classes.js'
import { KINDS } from '../words/kinds.js'
import { span, type HubWeight } from './hub-subject.js'
import { escapeRe } from '../read/escape-re.js'

// A store-level rule of the free-text conflict listing (issue 27, session 13, hub37, rule 32). In
// an assistant's notes about its user every note carries "the user", as a diary carries its
// person's name: two notes whose only shared key is the hub say nothing of one ATTRIBUTE ("The
// user's long run is twelve miles" / "Lapwing is 62 feet long", "The user's mooring costs £2,640 a
// year" / "The user has £4,200 saved"). Such a value clash needs evidence that the two values are of
// one thing: the same head (what a value counts, prices, labels, dates: judge/value-of.ts,
// judge/date-events.ts), the same word framing it ("lives in Leeds" / "lives in York"), the hub
// itself after a copula ("The user is 34" / "is 36"), or a word of change ("moved to"). Without it
// the flag is lowered below the threshold. One function a reading, so each can be switched off.

/** A value's heads (stems) and whether a word of change gives it as a new answer to anything. */
interface Frame {
  readonly heads: readonly string[]
  readonly change: boolean
}

/** The checks whose reason quotes two values or names: what this rule weighs. */
const WEIGHED: ReadonlySet<TextConflictVerdict['kind']> = new Set(['value', 'substitution'])

/** The hub's own words, as stems: "the user" -> user, "abena" -> abena. */
const hubWords = (name: string): string[] => name.split(' ').filter((w) => !DETERMINERS.has(w)).map(stem)

/** Whether every key the two texts share is a word of the hub (and they share one). */
export function onlyTheHub(shared: readonly string[], name: string): boolean {
  const hub = hubWords(name)
  return shared.length > 0 && shared.every((s) => hub.some((h) => sameStem(s, h)))
}

/**
 * "a 5-mile tempo run", "his Sunday long runs": a value between a determiner and a noun is a value
 * of that noun, not of the verb before the determiner ("starts his Sunday long runs").
 */
export function modifiedHead(r: Reading, at: number, text: string): string[] | null {
  const i = r.tokens.findIndex((t) => t.start >= at)
  const det = r.tokens[i - 1]
  if (!det || !DETERMINERS.has(det.lower)) return null
  const of = attributeAt(r, at, text)
  return of && of.kind !== 'label' ? [...of.phrase] : null
}

/** The thing a date dates (its head, and the verb passed on the way: "the job starts" -> job, start). */
export function datedHead(r: Reading, at: number, end: number): string[] {
  const slots = [...r.slots.at].filter(([s, p]) => s.kind === 'date' && p >= at && p < end).map(([s]) => s)
  const e = datedEvents(r).find((x) => slots.includes(x.slot))
  return e?.head ? [e.head.stem, ...(e.head.verb ? [e.head.verb] : [])] : []
}

/** The words around a value: its head (what it counts, prices, labels), the word it is attached to, a copula's subject. */
export function framedBy(r: Reading, at: number, end: number, text: string, hub: readonly string[]): Frame {
  const clause = r.norm.slice(Math.max(0, r.norm.lastIndexOf(',', at), r.norm.lastIndexOf('.', at - 2)), at)
  const change = clause.toLowerCase().split(/[^\p{L}]+/u).some((w) => UPDATE.test(w))
  const modified = modifiedHead(r, at, text)
  if (modified) return { heads: modified, change }
  const attached = attachedWords(r, at)
  // The hub is a value's head only as a copula's subject ("The user is 34"): "The user has £4,200"
  // gives the hub as the word before the value only because "has" is a stopword.
  const ofHub = /\b(?:is|was|turned|turns)\s+(?:now\s+|still\s+|aged\s+)?$/i.test(r.norm.slice(0, at))
  const heads = [...(attributeAt(r, at, text)?.phrase ?? []), ...datedHead(r, at, end), ...attached].filter((h) => ofHub || !hub.some((w) => sameStem(w, h)))
  // "Biscuit turns 5": the word before the value is the verb, and the subject is still what it measures.
  return { heads: ofHub ? [...heads, ...hub] : heads, change }
}

/** Whether two frames name one thing: a head met by stem or synonym, or a kind and its class ("children" / "daughters"). */
export function oneThing(x: Frame, y: Frame): boolean {
  if (x.change || y.change) return true
  const kin = (g: string, m: string): boolean => CLASS_OF.get(m) === g || (KINDS[g] ?? '').split(' ').some((k) => sameStem(stem(k), m))
  return x.heads.some((h) => y.heads.some((k) => sameStem(h, k) || canon(h) === canon(k) || kin(h, k) || kin(k, h)))
}

/**
 * Where a quoted side stands: as written when the text has it ("twelve miles" of "twelve miles this
 * week, building to twenty miles", "30-mile", one token), else by its words (store/hub-subject.ts).
 */
function where(r: Reading, text: string): { start: number; end: number } | null {
  const at = [...r.norm.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(text)}(?![\\p{L}\\p{N}])`, 'giu'))].at(-1)?.index
  return at !== undefined ? { start: at, end: at + text.length } : span(r, text)
}

/**
 * How sharing only the hub weighs on a value clash: null when the two texts share more, or say
 * their values of one thing.
 * @param name - the store's hub, as counted (lower case: "the user", "abena")
 */
export function hubOnlyWeight(a: Reading, b: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason' | 'shared'>, name: string): HubWeight | null {
  if (!WEIGHED.has(verdict.kind) || !onlyTheHub(verdict.shared, name)) return null
  const q = /"([^"]+)" vs "([^"]+)"/.exec(verdict.reason)
  const [sa, sb] = q ? [where(a, q[1]!), where(b, q[2]!)] : [null, null]
  if (!q || !sa || !sb) return null
  const hub = hubWords(name)
  const [x, y] = [framedBy(a, sa.start, sa.end, q[1]!, hub), framedBy(b, sb.start, sb.end, q[2]!, hub)]
  if (oneThing(x, y)) return null
  // The heads as the texts write them ("fell race", not the stems "fall race").
  const said = (r: Reading, f: Frame, v: string): string =>
    f.heads.length ? `"${v}" of ${[...new Set(f.heads.map((h) => r.tokens.find((t) => t.stem === h)?.lower ?? h))].join(' ')}` : `"${v}" of nothing it names`
  return { factor: FACTORS.hubOnly, note: `two notes about ${name} that share nothing else (${said(a, x, q[1]!)}, ${said(b, y, q[2]!)})` }
}
