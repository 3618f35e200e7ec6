import type { Reading } from '../../read/reading.js'
import { KINDS } from '../../words/kinds.js'

// What a person has (issue 27, eighth round): "i have two golden retrievers" / "i don't have any
// pets". The two texts share no key word (a general noun against its kind), so this is asked
// before the topic gate, as the weekday rule is; the holder before the verb must be the same
// words on both sides.

const HOLDER = String.raw`^(i|we|[a-z]+(?: [a-z]+)?)\s+`
const HAS = new RegExp(HOLDER + String.raw`(?:have|has|owns?|'ve got)\s+(?:an?|one|two|three|four|\d+|some)\s+([a-z-]+(?:\s+[a-z-]+){0,2})`, 'i')
const HAS_NOT = new RegExp(HOLDER + String.raw`(?:do(?:es)? not (?:have|own) (?:any|an?)|ha(?:ve|s) no|ha(?:ve|s) never (?:had|owned) (?:any|an?))\s+([a-z-]+)`, 'i')
// A change said with it ("no pets anymore", "no kids yet"): the holder's history, not now.
const CHANGE = /\b(?:any\s?more|no longer|used to|now|since|yet|ago)\b/i

/** What a text says its holder has or has none of: [holder, word, text]. */
type Held = readonly [holder: string, word: string, text: string]
const memo = new WeakMap<Reading, { has?: Held; none?: Held }>()

/** A noun in the singular that KINDS lists, as a general noun or a kind ("retrievers" -> retriever); else undefined. */
function listed(word: string): string | undefined {
  const w = /^(?:children|kids?)$/.test(word) ? 'child' : word.replace(/(?<=[^s])s$/, '')
  return w in KINDS || Object.values(KINDS).some((ks) => ks.split(' ').includes(w)) ? w : undefined
}

function read(r: Reading): { has?: Held; none?: Held } {
  let m = memo.get(r)
  if (m) return m
  m = {}
  const text = r.norm.trim().replace(/’/g, "'").toLowerCase()
  if (!CHANGE.test(text)) {
    const n = HAS_NOT.exec(text)
    const none = n && listed(n[2]!)
    if (none) m.none = [n[1]!, none, n[0]]
    // The kind is the first of up to three words that names one ("two golden retrievers").
    const p = HAS.exec(text)
    const has = p?.[2]!.split(/\s+/).map(listed).find(Boolean)
    if (has) m.has = [p![1]!, has, p![0]]
  }
  memo.set(r, m)
  return m
}

/** A has/has-none pair of one holder, as a reason; null otherwise. */
export function possessionRule(a: Reading, b: Reading): string | null {
  const [x, y] = [read(a), read(b)]
  for (const [yes, no] of [[x.has, y.none], [y.has, x.none]]) {
    // "no pets" covers "two retrievers"; "no dog" covers "a dog".
    if (yes && no && yes[0] === no[0] && (yes[1] === no[1] || KINDS[no[1]]?.split(' ').includes(yes[1]))) {
      return `one side has none of what the other has: "${yes[2]}" vs "${no[2]}"`
    }
  }
  return null
}
