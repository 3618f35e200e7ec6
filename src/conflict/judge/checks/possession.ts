import type { Reading } from '../../read/reading.js'
import { KINDS, LASTING_STATES } from '../../words/kinds.js'
import { ANTONYMS } from '../../words/poles.js'

// What a person has and what a person is (issue 27, eighth round): "i have two golden retrievers" /
// "i don't have any pets", "I'm married" / "I'm single". The two texts share no key word (a
// general noun against its kind, a state against another), so this is asked before the topic
// gate, as the weekday rule is; the holder before the verb must be the same words on both sides.

const HOLDER = String.raw`^(i|we|[a-z]+(?: [a-z]+)?)\s+`
const HAS = new RegExp(HOLDER + String.raw`(?:have|has|owns?|'ve got)\s+(?:a|an|one|two|three|four|five|six|\d+|several|some)\s+([a-z-]+(?:\s+[a-z-]+){0,2})`, 'i')
const HAS_NOT = new RegExp(HOLDER + String.raw`(?:do(?:es)? not (?:have|own) (?:any|an?)|ha(?:ve|s) no|ha(?:ve|s) never (?:had|owned) (?:any|an?))\s+([a-z-]+)`, 'i')
const IS = new RegExp(HOLDER.replace(String.raw`\s+`, '') + String.raw`\s*(?:am|'m|is|are|'re)\s+([a-z-]+)`, 'i')
// A change said with it ("no pets anymore", "not married yet"): the holder's history, not now.
const CHANGE = /\b(?:any\s?more|no longer|used to|now|these days|since|yet|again|ago|before)\b/i

/** What a text says its holder has or has none of ("has" / "none"), or is ("is"): [holder, word, text]. */
type Held = readonly [holder: string, word: string, text: string]
const memo = new WeakMap<Reading, { has?: Held; none?: Held; is?: Held }>()

/** A noun in the singular that KINDS lists, as a general noun or a kind ("retrievers" -> retriever); else undefined. */
function listed(word: string): string | undefined {
  const w = /^(?:children|kids?)$/.test(word) ? 'child' : word.replace(/(?<=[^s])s$/, '')
  return w in KINDS || Object.values(KINDS).some((ks) => ks.split(' ').includes(w)) ? w : undefined
}

function read(r: Reading): { has?: Held; none?: Held; is?: Held } {
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
    const s = IS.exec(text)
    if (s && poles(s[2]!).length) m.is = [s[1]!, s[2]!, s[0]]
  }
  memo.set(r, m)
  return m
}

/** The poles of a lasting state of a person ("married", "left-handed"), from the antonym groups. */
function poles(word: string): ReadonlyArray<{ group: string; pole: number }> {
  return (ANTONYMS.get(word.replace(/-/g, '')) ?? ANTONYMS.get(word) ?? []).filter((p) => LASTING_STATES.has(p.group))
}

/** A has/has-none pair or two lasting states of one holder, as a reason; null otherwise. */
export function possessionRule(a: Reading, b: Reading): { kind: 'negation' | 'antonym'; reason: string } | null {
  const [x, y] = [read(a), read(b)]
  for (const [yes, no] of [[x.has, y.none], [y.has, x.none]]) {
    // "no pets" covers "two retrievers"; "no dog" covers "a dog".
    if (yes && no && yes[0] === no[0] && (yes[1] === no[1] || KINDS[no[1]]?.split(' ').includes(yes[1]))) {
      return { kind: 'negation', reason: `one side has none of what the other has: "${yes[2]}" vs "${no[2]}"` }
    }
  }
  if (x.is && y.is && x.is[0] === y.is[0]) {
    const pb = poles(y.is[1])
    const p = poles(x.is[1]).find((q) => pb.some((o) => o.group === q.group && o.pole === -q.pole))
    if (p) return { kind: 'antonym', reason: `opposite ${p.group}: "${x.is[2]}" vs "${y.is[2]}"` }
  }
  return null
}
