import type { Reading } from '../../read/reading.js'
import { GENERAL_ALIAS, KINDS, LASTING_STATES, PLURALS } from '../../words/kinds.js'
import { ANTONYMS, type Pole } from '../../words/poles.js'
import { stem } from '../../read/stem.js'

// What a person has and what a person is (issue 27, eighth round): "i have two golden retrievers" /
// "i don't have any pets", "I'm married" / "I'm single". The two texts share no key word (a
// general noun against its kind, a state against another), so this is asked before the topic
// gate, as the weekday rule is; the holder before the verb must be the same words on both sides.

const NOUN = String.raw`([a-z-]+(?:\s+[a-z-]+){0,2})`
const HAS = new RegExp(String.raw`^(i|we|[a-z]+(?:\s+[a-z]+)?)\s+(?:have|has|own|owns|'ve got|have got|has got)\s+(?:a|an|one|two|three|four|five|six|\d+|several|some)\s+${NOUN}(?=$|[\s,.;!?])`, 'i')
const HAS_NOT = new RegExp(String.raw`^(i|we|[a-z]+(?:\s+[a-z]+)?)\s+(?:(?:do|does|did)\s*n[o']t\s+(?:have|own)\s+(?:any|a|an)|(?:have|has)\s+no|(?:have|has)\s+never\s+(?:had|owned)\s+(?:any|a|an))\s+([a-z-]+)`, 'i')
const IS = /^(i|we|[a-z]+)\s*(?:am|'m|is|are|'re)\s+([a-z-]+)/i
// A change said with the state ("no pets anymore", "not married yet"): the holder's history, not now.
const CHANGE = /\b(?:any\s?more|no longer|used to|now|these days|since|yet|again|ago|before)\b/i

interface Held { readonly holder: string; readonly noun: string; readonly negated: boolean; readonly text: string }

const memo = new WeakMap<Reading, { has: Held | null; state: { holder: string; state: string; text: string } | null }>()

function singular(w: string): string {
  return PLURALS[w] ?? w.replace(/(?<=[^s])s$/, '')
}

/** The general noun a kind falls under, or the noun itself. */
function covers(general: string, kind: string): boolean {
  return general === kind || (KINDS[general]?.includes(kind) ?? false)
}

function read(r: Reading): { has: Held | null; state: { holder: string; state: string; text: string } | null } {
  let m = memo.get(r)
  if (m) return m
  const text = r.norm.trim().replace(/[’]/g, "'")
  let has: Held | null = null
  if (!CHANGE.test(text)) {
    const n = HAS_NOT.exec(text)
    if (n) {
      const noun = singular(n[2]!.toLowerCase())
      has = { holder: n[1]!.toLowerCase(), noun: GENERAL_ALIAS[noun] ?? noun, negated: true, text: n[0] }
    }
    else {
      const p = HAS.exec(text)
      // The kind is the first of up to three words that names one ("two golden retrievers" -> retriever).
      const noun = p && p[2]!.toLowerCase().split(/\s+/).map(singular).find((w) => Object.entries(KINDS).some(([g, ks]) => g === w || ks.includes(w)))
      if (p && noun) has = { holder: p[1]!.toLowerCase(), noun, negated: false, text: p[0] }
    }
  }
  const s = CHANGE.test(text) ? null : IS.exec(text)
  const state = s && personPoles(s[2]!.toLowerCase()).length ? { holder: s[1]!.toLowerCase(), state: s[2]!.toLowerCase(), text: s[0] } : null
  m = { has, state }
  memo.set(r, m)
  return m
}

/** The poles of a lasting state of a person ("married", "left-handed"), from the antonym groups. */
function personPoles(word: string): readonly Pole[] {
  for (const w of [stem(word), word.replace(/-/g, ''), word.replace(/-handed$/, '')]) {
    const poles = ANTONYMS.get(w)?.filter((p) => LASTING_STATES.has(p.group))
    if (poles?.length) return poles
  }
  return []
}

/** A has/has-not pair or two states of one holder, as a reason; null otherwise. */
export function possessionRule(a: Reading, b: Reading): { kind: 'negation' | 'antonym'; reason: string } | null {
  const [x, y] = [read(a), read(b)]
  if (x.has && y.has && x.has.holder === y.has.holder && x.has.negated !== y.has.negated) {
    const [no, yes] = x.has.negated ? [x.has, y.has] : [y.has, x.has]
    if (KINDS[no.noun] !== undefined && covers(no.noun, yes.noun)) return { kind: 'negation', reason: `one side has none of what the other has: "${yes.text}" vs "${no.text}"` }
  }
  if (x.state && y.state && x.state.holder === y.state.holder) {
    const pb = personPoles(y.state.state)
    const p = personPoles(x.state.state).find((q) => pb.some((o) => o.group === q.group && o.pole === -q.pole))
    if (p) return { kind: 'antonym', reason: `opposite ${p.group}: "${x.state.text}" vs "${y.state.text}"` }
  }
  return null
}
