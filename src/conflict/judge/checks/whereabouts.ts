import type { Reading } from '../../read/reading.js'
import { hasStem } from '../../read/same-stem.js'
import { stem } from '../../read/stem.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'
import { CALL_TOOLS, NOT_PLACES } from '../../words/whereabouts.js'

// Where one subject is, said twice (issue 27, session 11): "the concert is at the Apollo" / "the
// concert is at the town hall", "he is back home" / "is still in the hospital", "got back from
// Peru" / "is still in Peru", "noon in the kitchen" / "virtual only". The place words share no
// antonym group and are seldom names, so neither the antonym nor the name check sees them.
//
// Places nest (a room in an office, a venue in a city, home in Denver), so two places clash only
// at one level: two venues after "is at the", two rooms after "is in the", home against a place
// with a determiner, online against any place, back from a place against still in it.

type Where = { readonly level: 'at' | 'in' | 'home' | 'online' | 'away'; readonly place: string; readonly who: readonly string[] }

const PLACE = String.raw`([a-z][a-z'’-]*(?:\s+(?!(?:on|in|at|for|after|before|until|till|with|and|or|but|this|next|all|since|from|to|by|of|until)\b)[a-z][a-z'’-]*)?)`
const ON_SITE = new RegExp(String.raw`\b(?:is|are|am|was|were|be)\s+(?:still\s+|now\s+|currently\s+|already\s+|right\s+)?(?:held\s+)?(at|in)\s+the\s+` + PLACE, 'i')
// "noon in the kitchen": a place after a time, as a note gives an event's where and when.
const NOTED = new RegExp(String.raw`\b(?:noon|midnight|\d{1,2}(?::\d\d)?\s*(?:am|pm)?)\s+(at|in)\s+the\s+` + PLACE, 'i')
const HOME = /\b(?:back|at|is)\s+home\b(?!\s+to\b)/i
const ONLINE = new RegExp(String.raw`\b(?:virtual|online)(?:\s+only)?\b|\b(?:on|to|via|over)\s+(?:${CALL_TOOLS.replace(/ /g, '|')})\b`, 'i')
const AWAY = /\b(?:back|returned|home)\s+from\s+(?:the\s+)?([a-z][a-z-]*)/i
const STILL_IN = /\bstill\s+(?:in|at)\s+(?:the\s+)?([a-z][a-z-]*)/i
const NOT_A_PLACE = new RegExp(`^(?:${NOT_PLACES.replace(/ /g, '|')})\\b`)

// "at the pub on Fridays" / "at the school hall on Mondays": two days, a place each.
const DAY = /\b(?:(?:mon|tues?|wednes|thurs?|fri|satur|sun)days?|mon|tue|wed|thu|fri)\b|\bweekends?\b/gi
const days = (r: Reading): Set<string> => new Set([...r.norm.matchAll(DAY)].map((m) => m[0].slice(0, 3).toLowerCase()))

const memo = new WeakMap<Reading, Where | null>()

/** Where a text puts its subject, or null. */
function whereabouts(r: Reading): Where | null {
  let w = memo.get(r)
  if (w !== undefined) return w
  const text = r.norm
  const [away, online, home, site] = [AWAY.exec(text), ONLINE.exec(text), HOME.exec(text), ON_SITE.exec(text) ?? NOTED.exec(text)]
  const at = (level: Where['level'], place: string, m: RegExpExecArray): Where => ({ level, place, who: who(r, m.index) })
  w = away ? at('away', stem(away[1]!.toLowerCase()), away)
    : online ? at('online', 'online', online)
    : home ? at('home', 'home', home)
    : site && !NOT_A_PLACE.test(site[2]!.toLowerCase()) ? at(site[1]!.toLowerCase() as 'at' | 'in', site[2]!.toLowerCase(), site)
    : null
  // A place said not to hold ("is not at the office") is no whereabouts.
  if (w && w.place.split(/\s+/).some((p) => r.negated.has(stem(p)))) w = null
  memo.set(r, w)
  return w
}

/**
 * Whose whereabouts: the key words of the clause before the place ("sam's luggage is still in",
 * "the spare keys are in"), so a thing of the subject's is not the subject. Empty for a pronoun.
 */
function who(r: Reading, end: number): string[] {
  const from = Math.max(...[...r.norm.slice(0, end).matchAll(/[,;:]|\b(?:and|but)\b/g)].map((m) => m.index! + 1), 0)
  return r.tokens.filter((t) => t.start >= from && t.end <= end && r.keys.has(t.stem) && !MOVED.test(t.lower)).map((t) => t.stem)
}
// "we moved the retro to Teams": the verb that moves a thing is not part of whose place it is.
const MOVED = /^(?:mov|relocat|switch|shift|transferr?)(?:e|es|ed|ing)?$/

/** One subject on both sides: the same key words, or a pronoun on one side ("he is back home"). */
const sameWho = (x: readonly string[], y: readonly string[]): boolean =>
  x.length === 0 || y.length === 0 || (x.every((k) => y.includes(k)) && y.every((k) => x.includes(k)))

/** Whether two whereabouts cannot both hold, by their levels (see above). */
function clash(x: Where, y: Where): boolean {
  if (x.level === 'online' || x.level === 'home') return y.level === 'in' || y.level === 'at'
  return x.level === y.level && x.level !== 'away'
}

/** Back from a place against still in it: "got back from Peru" / "is still in Peru". */
function stillThere(x: Where | null, other: Reading): boolean {
  const still = STILL_IN.exec(other.norm)
  return x?.level === 'away' && !!still && stem(still[1]!.toLowerCase()) === x.place && sameWho(x.who, who(other, still.index))
}

/** One subject in two places at once, as a signal; null otherwise. */
export function whereaboutsSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const [da, db] = [days(a), days(b)]
  if (da.size && db.size && ![...da].some((d) => db.has(d))) return null
  const [x, y] = [whereabouts(a), whereabouts(b)]
  if (stillThere(x, b) || stillThere(y, a)) return { kind: 'substitution', reason: `back from a place and still in it: "${say((x?.level === 'away' ? x : y)!)}"` }
  if (!x || !y || x.place === y.place || !sameWho(x.who, y.who)) return null
  // The same place named on the other side ("the hospital" / "at the hospital's cafe") is one place.
  const named = (w: Where, other: Reading): boolean => w.level !== 'away' && w.place.split(/\s+/).some((p) => hasStem(other.content, stem(p)))
  if (named(x, b) || named(y, a)) return null
  if (!clash(x, y) && !clash(y, x)) return null
  return { kind: 'substitution', reason: `in two places at once: "${say(x)}" vs "${say(y)}"` }
}

const say = (w: Where): string => (w.level === 'away' ? `back from ${w.place}` : w.place)
