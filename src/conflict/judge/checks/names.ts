import { differentAttributes, SUBJECT_CLASSES } from '../attachment.js'
import { ANTONYMS } from '../../words/poles.js'
import type { Reading } from '../../read/reading.js'
import { sameStem } from '../../read/same-stem.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'
import { DETERMINERS } from '../../words/determiners.js'
import { twoRoles } from '../name-role.js'
import { inList } from '../../read/list-member.js'

// Another name in the place of one: a member of a closed class (words/classes.ts) or a lone name.

/** The entities of one text the other does not name. */
export function unmatched(x: Reading, y: Reading): Reading['entities'] {
  return x.entities.filter((e) => !e.stem.split(' ').some((s) => y.tokens.some((t) => sameStem(t.stem, s))))
}

const MODIFIER_CLASSES = SUBJECT_CLASSES

/** Another name in the same place: UPS vs FedEx, Spanish vs English, Kevin vs Omar. */
export function substitutionSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const [ua, ub] = [unmatched(a, b), unmatched(b, a)]
  // "does not accept checks" chooses nothing: a negated member answers no question.
  const asserted = (r: Reading) => (e: Reading['entities'][number]): boolean => !e.cls || !r.negated.has(e.stem)
  // Two names in two roles are no answer, but they are what tells two subjects or two events apart
  // ("dinner with Greta on Friday" / "dinner in Bergen on Saturday"): kept, marked, for the
  // detector's blockers, unless a pair of names in one role is found (session 11, names28).
  let roles: Signal | null = null
  for (const e of ua.filter(asserted(a))) {
    if (!e.cls) continue
    const f = ub.filter(asserted(b)).find((x) => x.cls === e.cls)
    // "lives with my two brothers" / "has a younger sister": one has many relatives at once; a
    // relative is one answer only where it says who someone is ("Tom is my brother") (eighth round).
    if (f && e.cls === 'family' && !(relation(a, e.start) && relation(b, f.start))) continue
    // "Wren, Gareth, Elin and Wren's father are coming": a relative in a list is one of several (session 12).
    if (f && e.cls === 'family' && (inList(a.norm, e.start) || inList(b.norm, f.start))) continue
    if (f && !differentAttributes(a, e.start, b, f.start)) {
      // "the red car is a Toyota" / "the blue car is a Honda": a modifier and a name both differ, two subjects.
      // "shipped the mobile app" / "shipped the web dashboard": a member before two different
      // nouns says which item, not which value (ninth round); after "is" it is the value ("is on
      // the Enterprise plan" / "is Pro tier").
      const heads = !!e.modifies && !!f.modifies && !relation(a, e.start) && !relation(b, f.start) && twoHeads(a, e, b, f)
      const names = ua.filter((n) => !n.cls).length === 1 && ub.filter((n) => !n.cls).length === 1
      const s: Signal = { kind: 'substitution', reason: `different ${e.cls}: "${e.text}" vs "${f.text}"`, modifier: heads || MODIFIER_CLASSES.has(e.cls), twice: heads || (names && MODIFIER_CLASSES.has(e.cls)) }
      if (!twoRoles(a, e, b, f)) return s
      roles ??= inRoles(s, e, f)
    }
  }
  // Names that are antonyms ("Celsius" / "Fahrenheit") are the antonym check's, not two subjects.
  const plain = (e: Reading['entities'][number]): boolean => !e.cls && !ANTONYMS.has(e.stem)
  // "by email, not DMs", "email over Slack": a name said not to be the one, or ranked below it, chooses nothing.
  const chosen = (r: Reading) => (e: Reading['entities'][number]): boolean => !r.negated.has(e.stem) && !r.orders.some((o) => o.worse === e.stem)
  const [na, nb] = [ua.filter(plain).filter(chosen(a)), ub.filter(plain).filter(chosen(b))]
  const [x, y] = [na[0], nb[0]]
  // A name guessed from a sentence's start ("Rafa knows ...") stands against a person's name, not
  // against a name that labels a thing ("Terraform Cloud bill", "our Slack bot").
  // A name before a noun says which one ("the LGBTQ community", "Sony Music legal"): against a
  // name that stands alone it answers no question the other answers.
  const mismatched = x && y && ((x.guessed && y.modifies) || (y.guessed && x.modifies) || (!x.guessed && !y.guessed && beforeNoun(a, x) !== beforeNoun(b, y)))
  // "Model 3", "Bistro 9": a name with a number is a label of a series, not one more name.
  const numbered = (r: Reading, e: Reading['entities'][number] | undefined): boolean => !!e && /^\s*\d/.test(r.norm.slice(e.start + e.text.length))
  if (na.length === 1 && nb.length === 1 && !mismatched && !placeAndPerson(a, x!, b, y!) && !numbered(a, x) && !numbered(b, y) && !abbreviates(x!.text, y!.text) && !differentAttributes(a, x!.start, b, y!.start)) {
    const s: Signal = { kind: 'substitution', reason: `different name in the same place: "${x!.text}" vs "${y!.text}"`, modifier: true, names: [{ text: x!.text, start: x!.start }, { text: y!.text, start: y!.start }] }
    return twoRoles(a, x!, b, y!) ? inRoles(s, x!, y!) : s
  }
  return roles
}

/** A name signal name-role.ts vetoed: the same difference, said as two roles, that never flags. */
function inRoles(s: Signal, x: Reading['entities'][number], y: Reading['entities'][number]): Signal {
  return { ...s, reason: `two roles: "${x.text}" vs "${y.text}"`, roles: true, names: [{ text: x.text, start: x.start }, { text: y.text, start: y.start }] }
}

/** The nouns right after two members differ, and neither text names the other's ("keys" names "key"). */
function twoHeads(a: Reading, e: Reading['entities'][number], b: Reading, f: Reading['entities'][number]): boolean {
  const head = (r: Reading, x: typeof e): Reading['tokens'][number] | undefined => r.tokens.find((t) => t.start >= x.start + x.text.length)
  const [ha, hb] = [head(a, e), head(b, f)]
  const names = (r: Reading, t: NonNullable<typeof ha>): boolean => r.norm.toLowerCase().includes(t.lower.replace(/s$/, ''))
  return !!ha && !!hb && !/^\d/.test(ha.lower) && !/^\d/.test(hb.lower) && !sameStem(ha.stem, hb.stem) && !names(b, ha) && !names(a, hb)
}

/** A relative named after "is"/"was" (at most two words between): "Tom is my older brother". */
function relation(r: Reading, at: number): boolean {
  return /\b(?:is|are|was|were|am|'s)\s+(?:\S+\s+){0,2}$/i.test(r.norm.slice(Math.max(0, at - 40), at))
}

/**
 * A name after a preposition of place ("tickets to Halifax", "flying in from Accra") against one
 * with no preposition before it, a verb's object or a number's kind ("made Sam a cake", "ate two
 * Abena bowls"): two roles, not two answers (issue 27, eleventh round).
 */
function placeAndPerson(a: Reading, x: Reading['entities'][number], b: Reading, y: Reading['entities'][number]): boolean {
  const before = (r: Reading, e: Reading['entities'][number]): string => /(\S+)\s+$/.exec(r.norm.slice(Math.max(0, e.start - 30), e.start))?.[1] ?? ''
  const place = (w: string): boolean => /^(?:to|from|in|at|near|into)$/i.test(w)
  const verb = (w: string): boolean => /^\p{Ll}+$/u.test(w) && !DETERMINERS.has(w) && !/^(?:to|from|in|at|near|into|on|onto|with|for|by|of|about|and|or|is|are|was|were|be|than|like|as)$/.test(w)
  const [wa, wb] = [before(a, x), before(b, y)]
  return (place(wa) && verb(wb)) || (place(wb) && verb(wa))
}

/** Whether a name stands before a noun it modifies, not before a word that says when or how ("Omar since the reorg"). */
function beforeNoun(r: Reading, e: Reading['entities'][number]): boolean {
  return !!e.modifies && !/^\s+(?:since|until|till|after|before|during|once|again|now|today|too|as|via|per|through|instead|anymore)\b/i.test(r.norm.slice(e.start + e.text.length))
}

/** "DD" for "Datadog", "LH" for "Lufthansa": an all-caps short form whose letters run through the long one. */
function abbreviates(x: string, y: string): boolean {
  const [s, l] = x.length <= y.length ? [x, y] : [y, x]
  if (!/^[A-Z]{2,5}$/.test(s)) return false
  const lower = l.toLowerCase()
  if (lower[0] !== s[0]!.toLowerCase()) return false
  let at = 0
  for (const ch of s.toLowerCase()) {
    at = lower.indexOf(ch, at)
    if (at < 0) return false
    at++
  }
  return true
}
