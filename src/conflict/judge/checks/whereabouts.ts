import type { Reading } from '../../read/reading.js'
import { hasStem } from '../../read/same-stem.js'
import { stem } from '../../read/stem.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'

// Where one subject is, said twice (issue 27, session 11): "the concert is at the Apollo" / "the
// concert is at the town hall", "he is back home" / "is still in the hospital", "got back from
// Peru" / "is still in Peru", "noon in the kitchen" / "virtual only". The place words share no
// antonym group and are seldom names, so neither the antonym nor the name check sees them.
//
// Places nest (a room in an office, a venue in a city, home in Denver), so two places clash only
// at one level: two venues after "is at the", two rooms after "is in the", home against a place
// with a determiner, online against any place, back from a place against still in it.

type Where = { readonly level: 'at' | 'in' | 'home' | 'online' | 'away'; readonly place: string }

const PLACE = String.raw`([a-z][a-z'’-]*(?:\s+(?!(?:on|in|at|for|after|before|until|till|with|and|or|but|this|next|all|since|from|to|by|of|until)\b)[a-z][a-z'’-]*)?)`
const ON_SITE = new RegExp(String.raw`\b(?:is|are|am|was|were|be)\s+(?:still\s+|now\s+|currently\s+|already\s+|right\s+)?(?:held\s+)?(at|in)\s+the\s+` + PLACE, 'i')
// "noon in the kitchen": a place after a time, as a note gives an event's where and when.
const NOTED = new RegExp(String.raw`\b(?:noon|midnight|\d{1,2}(?::\d\d)?\s*(?:am|pm)?)\s+(at|in)\s+the\s+` + PLACE, 'i')
const HOME = /\b(?:back|at|is)\s+home\b(?!\s+to\b)/i
const ONLINE = /\b(?:virtual|online)(?:\s+only)?\b|\b(?:on|to|via|over)\s+(?:zoom|teams|skype|webex)\b/i
const AWAY = /\b(?:back|returned|home)\s+from\s+(?:the\s+)?([a-z][a-z-]*)/i
const STILL_IN = /\bstill\s+(?:in|at)\s+(?:the\s+)?([a-z][a-z-]*)/i
// "in the middle of", "at the moment": words after "in the" / "at the" that name no place.
const NOT_A_PLACE = /^(?:middle|moment|end|start|beginning|process|mood|way|same|past|future|meantime|lead|loop|works|red|black|top|bottom|back|front|least|latest|earliest|most|time|weekend|morning|afternoon|evening|night)\b/

const memo = new WeakMap<Reading, Where | null>()

/** Where a text puts its subject, or null. */
function whereabouts(r: Reading): Where | null {
  let w = memo.get(r)
  if (w !== undefined) return w
  const text = r.norm
  const away = AWAY.exec(text)
  const site = ON_SITE.exec(text) ?? NOTED.exec(text)
  w = away ? { level: 'away', place: stem(away[1]!.toLowerCase()) }
    : ONLINE.test(text) ? { level: 'online', place: 'online' }
    : HOME.test(text) ? { level: 'home', place: 'home' }
    : site && !NOT_A_PLACE.test(site[2]!.toLowerCase()) ? { level: site[1]!.toLowerCase() as 'at' | 'in', place: site[2]!.toLowerCase() }
    : null
  // A place said not to hold ("is not at the office") is no whereabouts.
  if (w && w.place.split(/\s+/).some((p) => r.negated.has(stem(p)))) w = null
  memo.set(r, w)
  return w
}

/** Whether two whereabouts cannot both hold, by their levels (see above). */
function clash(x: Where, y: Where): boolean {
  if (x.level === 'online' || x.level === 'home') return y.level === 'in' || y.level === 'at'
  return x.level === y.level && x.level !== 'away'
}

/** Back from a place against still in it: "got back from Peru" / "is still in Peru". */
function stillThere(x: Where | null, other: Reading): boolean {
  const still = STILL_IN.exec(other.norm)
  return x?.level === 'away' && !!still && stem(still[1]!.toLowerCase()) === x.place
}

/** One subject in two places at once, as a signal; null otherwise. */
export function whereaboutsSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const [x, y] = [whereabouts(a), whereabouts(b)]
  if (stillThere(x, b) || stillThere(y, a)) return { kind: 'substitution', reason: `back from a place and still in it: "${say((x?.level === 'away' ? x : y)!)}"` }
  if (!x || !y || x.place === y.place) return null
  // The same place named on the other side ("the hospital" / "at the hospital's cafe") is one place.
  const named = (w: Where, other: Reading): boolean => w.level !== 'away' && w.place.split(/\s+/).some((p) => hasStem(other.content, stem(p)))
  if (named(x, b) || named(y, a)) return null
  if (!clash(x, y) && !clash(y, x)) return null
  return { kind: 'substitution', reason: `in two places at once: "${say(x)}" vs "${say(y)}"` }
}

const say = (w: Where): string => (w.level === 'away' ? `back from ${w.place}` : w.place)
