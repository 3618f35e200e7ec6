import { NOUN_ALIASES, type Reading } from '../../read/reading.js'
import { stem } from '../../read/stem.js'

// One favourite of a kind, said twice (issue 27, session 11): "my favourite season is autumn" /
// "summer is my favourite season". A favourite is the one value of its holder's slot. When the kind
// is an everyday noun ("season", "food") the texts share no key word, so this is asked before the
// topic gate, as the job rule is; the holder ("my", "Lena's") must be the same word on both sides.

const HOLDER = String.raw`(my|our|his|her|their|\p{L}+['’]s)\s+(?:all[- ]time\s+)?favou?rite\s+([\p{L}-]+)`
// "is a comedy" names a kind of film, not the film: only a value said as the one thing is a favourite.
const HOLDER_FIRST = new RegExp(String.raw`(?<!\bone\s+of\s+)\b` + HOLDER + String.raw`\s+is\s+(?:the\s+)?(?!(?:a|an|one)\s)([\p{L}\d-]+)`, 'iu')
const VALUE_FIRST = new RegExp(String.raw`^\s*(?:the\s+)?([\p{L}\d-]+)\s+is\s+` + HOLDER + String.raw`\b`, 'iu')
// A change or a past taste said with it: "is now my favourite", "used to be".
const CHANGE = /\b(?:now|used\s+to|any\s?more|these\s+days|lately|was|became)\b/i

/** A word's stem, one name for two ("autumn" / "fall"). */
const one = (w: string): string => NOUN_ALIASES.get(stem(w.toLowerCase())) ?? stem(w.toLowerCase())

/** The holder, kind and value of the favourite a text states, or undefined. */
function favourite(r: Reading): readonly [holder: string, kind: string, value: string, said: string] | undefined {
  if (CHANGE.test(r.norm)) return
  const m = HOLDER_FIRST.exec(r.norm)
  if (m) return [m[1]!.toLowerCase(), one(m[2]!), one(m[3]!), m[3]!]
  const v = VALUE_FIRST.exec(r.norm)
  return v ? [v[2]!.toLowerCase(), one(v[3]!), one(v[1]!), v[1]!] : undefined
}

/** Two favourites of one kind of one holder, as a reason; null otherwise. */
export function favouriteRule(a: Reading, b: Reading): string | null {
  const [x, y] = [favourite(a), favourite(b)]
  return x && y && x[0] === y[0] && x[1] === y[1] && x[2] !== y[2] ? `one favourite each: "${x[3]}" vs "${y[3]}"` : null
}
