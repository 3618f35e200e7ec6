import { NEGATORS } from '../../words/negation.js'
import { ASKED, REFUSING, TAKES_PART } from '../../words/retractions.js'
import { ANTONYMS } from '../../words/poles.js'
import { isTimeWord, type Reading } from '../../read/reading.js'
import { hasStem, sameStem } from '../../read/same-stem.js'
import { stem } from '../../read/stem.js'
import { wordClass } from '../../read/part-of-speech.js'
import { PARTICLES, UNIVERSAL } from '../../words/negation-scope.js'
import { DETERMINERS, QUANTIFIED_DETERMINERS } from '../../words/determiners.js'
import type { Signal } from '../signal.js'
import { heldByAnother } from '../negation-holder.js'
import { openQuestionAt } from '../../read/open-question.js'
import { describesOther, insideLongerName, onlyNameTargeted } from '../cue-target.js'
import { boundedBefore, negatedInRestriction, otherModifier } from '../negation-object.js'

/** One side negates or retracts something the other states plainly ("has no projector" / "has a projector"). */
export function negationSignal(a: Reading, b: Reading): Signal | null {
  // Both negate one thing ("no longer supported" / "support has ended"): they agree.
  for (const s of a.negated.keys()) if (!isTimeWord(s) && hasStem(b.negated.keys(), s)) return null
  // "don't call after 9pm" / "calls only before 9pm": one side of a time bound each, two facts.
  const side = (r: Reading): string | undefined => /\b(before|after|until|till|past|from)\s+(?:\d|noon|midnight)/i.exec(r.norm)?.[1]?.toLowerCase().replace(/^(?:until|till)$/, 'before').replace(/^(?:past|from)$/, 'after')
  const [sa, sb] = [side(a), side(b)]
  if (sa && sb && sa !== sb) return null
  // "avoids caffeine after noon" / "has an espresso at 8am": the time is outside what is ruled out.
  for (const [x, y] of [[a, b], [b, a]] as const) {
    const bound = timeBound(x)
    const times = y.slots.slots.filter((t): t is Extract<typeof t, { kind: 'time' }> => t.kind === 'time')
    if (bound && times.length && times.every((t) => t.minutes.every((m) => (bound.side === 'after' ? m < bound.at : m > bound.at)))) return null
  }
  let otherSense: Signal | undefined
  let otherObject: Signal | undefined
  for (const [x, y, flip] of [[a, b, false], [b, a, true]] as const) {
    for (const [s, cue] of x.negated) {
      // Polar words ("not allergic", "not approved") are the antonym check's; a cue the other side
      // shares ("allergic" on both sides) negates the same way there.
      if (isTimeWord(s) || s.length < 2 || ANTONYMS.has(s)) continue
      const head = x.tokens.find((t) => t.lower === cue.split(' ')[0])
      if (head && !NEGATORS.has(head.lower) && y.tokens.some((t) => sameStem(t.stem, head.stem))) continue
      // A dislike ("dislikes long meetings") clashes with liking or taking the thing, not with
      // merely naming it ("asked to cap meetings at 30 min").
      if (head && isDislike(head.stem) && !y.poles.get('preference')?.some((p) => p.pole > 0) && !CONSUMES.test(y.norm)) continue
      if (!hasStem(y.content, s) || hasStem(y.negated.keys(), s)) continue
      if (head && NEGATORS.has(head.lower) && universalOnly(x, head, y)) continue
      const said = y.tokens.filter((t) => sameStem(t.stem, s))
      if (said.length && said.every((t) => openQuestionAt(y, t.start))) continue
      // "Nancy has been retired to the paddock": a name is no claim; the cue reaches nothing else (cue-target.ts).
      if (onlyNameTargeted(x, cue, y)) continue
      // "a neighbour with no children" / "Bram has two children": the lack is the neighbour's (negation-holder.ts).
      if (head && NEGATORS.has(head.lower) && heldByAnother(x, head, y)) continue
      // "the match was postponed" / "the match will be replayed next Wednesday": a postponement
      // moves the thing to a later day, which the other side names (ninth round).
      if (head && head.stem === POSTPONE && LATER.test(y.norm)) continue
      // "used to hate olives" / "loves olives now": what held then and what holds now are both true.
      const [tx, ty] = [x.tokens.find((t) => sameStem(t.stem, s)), y.tokens.find((t) => sameStem(t.stem, s))]
      // "not on New Year's Eve" / "for New Year": a word of a longer name names another thing (cue-target.ts).
      if (tx && ty && insideLongerName(x, tx, y, ty)) continue
      // Another object than the one the other side states (negation-object.ts, rule 31): a negation in a
      // clause of when or if; one noun with two phrases after it; a state before a bound.
      // Weighed, not vetoed: the negation stays a difference, so a second one beside it still tells two subjects.
      if ((head && NEGATORS.has(head.lower) && (negatedInRestriction(x, head) || boundedBefore(x, head, s, y))) ||
        (tx && ty && otherModifier(x, tx, y, ty))) {
        otherObject ??= { ...found(flip, ty?.lower ?? s, cue, false), otherObject: true }
        continue
      }
      // "the depot open day was cancelled" / "the depot gate": the day is cancelled; "Birgit's flight
      // was cancelled": the flight. A word that only says whose or which (cue-target.ts).
      if (head && !NEGATORS.has(head.lower) && tx && ty && tx.start < head.start && describesOther(x, tx, head, y, ty)) continue
      // A retraction is of its clause's head ("the 5pm train to Leeds is cancelled" cancels the
      // train): a word in a phrase after a preposition before the verb counts only if the other
      // side names what that phrase hangs on.
      if (head && !NEGATORS.has(head.lower) && tx && tx.start < head.start) {
        const clauseStart = Math.max(...[...x.norm.slice(0, tx.start).matchAll(/[.;!?,()–]/g)].map((m) => m.index + 1), 0)
        const before = x.tokens.filter((t) => t.start >= clauseStart && t.start < tx.start)
        const prep = before.findIndex((t) => /^(?:to|from|in|at|on|for|of|with|near|by)$/.test(t.lower))
        const hang = prep > 0 ? before.slice(0, prep).reverse().find((t) => x.content.has(t.stem) && !/^\d/.test(t.lower)) : undefined
        if (hang && !hasStem(y.content, hang.stem)) continue
      }
      // A retraction negates its clause's head: in "the payroll export failed" the export failed,
      // and "payroll" only says which one, so the other side must name the export too.
      if (head && !NEGATORS.has(head.lower) && tx) {
        const next = x.tokens[x.tokens.indexOf(tx) + 1]
        // "Python 2 was sunset": the number says which one, and the other side must name it too.
        if (next && /^\d/.test(next.lower) && /^\s+$/.test(x.norm.slice(tx.end, next.start)) && !y.tokens.some((t) => t.lower === next.lower)) continue
        if (next && next !== head && /^\s+$/.test(x.norm.slice(tx.end, next.start)) && x.content.has(next.stem) && !hasStem(y.content, next.stem) &&
          !/^(?:after|before|until|till|since|during|past|around|about)$/.test(next.lower)) continue
      }
      // The one who refuses is retracted from taking part (read/reading.ts): against a text that
      // does not say they took part ("Okoye is from Lagos", "offered Marisol the job"), a refusal
      // retracts nothing it says (issue 27, synthetic conversations).
      // A refusal answers an offer: "offered Marisol the job" / "Marisol turned down the job" both hold.
      if (head && REFUSING.test(head.stem) && !TAKES_PART.test(y.norm) && (ASKED.test(y.norm) || (tx && tx.start < head.start))) continue
      // A retraction word between a determiner and a noun says what kind of thing it is ("a retired
      // racing greyhound", "the cancelled flight"): it retracts that thing, so the other side must
      // name it (issue 27, synthetic conversations).
      if (head && !NEGATORS.has(head.lower) && tx && tx.start > head.start) {
        const i = x.tokens.indexOf(head)
        const next = x.tokens.slice(i + 1, i + 3).filter((t) => x.content.has(t.stem))
        if (DETERMINERS.has(x.tokens[i - 1]?.lower ?? '') && x.content.has(x.tokens[i + 1]?.stem ?? '') &&
          !next.includes(tx) && !next.some((t) => hasStem(y.content, t.stem))) continue
      }
      // "blood sugar dropped from about 160 to about 120": a level that moves between amounts.
      if (head && !NEGATORS.has(head.lower) && head.stem !== POSTPONE && LEVEL_MOVE.test(x.norm.slice(head.end))) continue
      // After a determiner with no noun behind it, a retraction word is itself the noun ("postcards
      // from every stop", "the last stop", "a drop in the ocean"): it retracts nothing. ("The
      // cancellation of the bus" still names what it retracts.)
      if (head && !NEGATORS.has(head.lower)) {
        const i = x.tokens.indexOf(head)
        const after = x.tokens[i + 1]
        const before = x.tokens[i - 1]?.lower ?? ''
        if ((QUANTIFIED_DETERMINERS.has(before) || (/^(?:last|first|next|final|other|second|third)$/.test(before) && QUANTIFIED_DETERMINERS.has(x.tokens[i - 2]?.lower ?? ''))) &&
          (!after || (after.lower !== 'of' && (!x.content.has(after.stem) || !/^\s+$/.test(x.norm.slice(head.end, after.start)))))) continue
      }
      // "has never programmed" / "the PhD program": one stem, a verb on one side and a noun on the
      // other, is no shared predicate. Weighed, not vetoed (confidence.ts): a surer match may follow.
      if (tx && ty) {
        const [cx, cy] = [wordClass(x.tokens, x.tokens.indexOf(tx), x.norm), wordClass(y.tokens, y.tokens.indexOf(ty), y.norm)]
        if (cx && cy && cx !== cy) {
          otherSense ??= found(flip, ty.lower, cue, true)
          continue
        }
      }
      // "cannot get out of a low chair" / "two cups of tea out of habit": a particle is its verb's.
      if (tx && ty && PARTICLES.has(tx.lower)) {
        const [vx, vy] = [x.tokens[x.tokens.indexOf(tx) - 1], y.tokens[y.tokens.indexOf(ty) - 1]]
        if (!vx || !vy || !sameStem(vx.stem, vy.stem)) continue
      }
      if (tx && ty && x.pastAt(tx.start) !== y.pastAt(ty.start)) continue
      // "won't give up" / "give it my best", "doesn't speak" / "speak up": a particle makes another verb.
      if (tx && ty && particle(x, tx) !== particle(y, ty)) continue
      return found(flip, ty?.lower ?? s, cue, false)
    }
  }
  return otherSense ?? otherObject ?? null
}

/**
 * "not all politicians are honest" / "most politicians are honest": a denied universal grants that
 * some are, so it meets only a universal on the other side ("all of them are honest"). public30.
 */
function universalOnly(x: Reading, head: Reading['tokens'][number], y: Reading): boolean {
  return UNIVERSAL.test(x.tokens[x.tokens.indexOf(head) + 1]?.lower ?? '') && !y.tokens.some((t) => UNIVERSAL.test(t.lower) || t.lower === 'always')
}

function found(flip: boolean, word: string, cue: string, otherSense: boolean): Signal {
  const [p, q] = flip ? [`"${word}"`, `"${cue}"`] : [`"${cue}"`, `"${word}"`]
  return { kind: 'negation', reason: `one side negates or retracts what the other states: ${p} vs ${q}`, ...(otherSense ? { otherSense } : {}) }
}

const POSTPONE = stem('postponed')
/** What follows a word that moves a level: "from about 160", "to 5%", "by 20 dollars". */
const LEVEL_MOVE = /^\s+(?:from|to|by)\s+(?:about\s+|around\s+|almost\s+|nearly\s+|roughly\s+|over\s+|under\s+)?[$€£]?\d/i
/** What says a thing happens later: a future, a next day, a new date. */
const LATER = /\b(?:will|'ll|going to|next|new date|rescheduled|moved to|now on)\b/i

/** The particle right after a word ("give up", "speak up"), or ''. */
function particle(r: Reading, t: Reading['tokens'][number]): string {
  const n = r.tokens[r.tokens.indexOf(t) + 1]
  return n && /^(?:up|out|off|down|away|back)$/.test(n.lower) && /^\s+$/.test(r.norm.slice(t.end, n.start)) ? n.lower : ''
}

/** A clock time a text bounds its statement by: "after noon", "before 9am". */
function timeBound(r: Reading): { side: 'after' | 'before'; at: number } | null {
  for (const t of r.slots.slots) {
    if (t.kind !== 'time' || t.minutes.length !== 1) continue
    const m = /\b(after|past|from|before|until|till|by)\s*$/i.exec(r.norm.slice(Math.max(0, (r.slots.at.get(t) ?? 0) - 8), r.slots.at.get(t) ?? 0))
    if (m) return { side: /^(?:after|past|from)$/i.test(m[1]!) ? 'after' : 'before', at: t.minutes[0]! }
  }
  return null
}

/** Taking, eating, choosing: what a dislike cannot do. */
const CONSUMES = /\b(?:ate|eats?|eating|had|has|have|having|drank|drinks?|drinking|ordered|orders?|ordering|picked|picks?|chose|chooses|choose|booked|books?|took|takes?|bought|buys?|uses?|used|using|signed up|joined|adopted|adopts?|owns?|keeps?|got|gets)\b/i
const isDislike = (s: string): boolean => ANTONYMS.get(s)?.some((p) => p.group === 'preference' && p.pole < 0) === true

/**
 * A word negated by its prefix against the word itself: "unassigned" / "assigned to Ruth",
 * "non-binding" / "binding". Only when the other text uses the bare word, so "understand" or
 * "unit" never count.
 */
export function prefixSignal(a: Reading, b: Reading): Signal | null {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const t of x.tokens) {
      const m = /^(?:un|non-?)(\p{L}{4,})$/u.exec(t.lower)
      // "not ungovernable": a denied negation grants the bare word, so it meets no "governable" (public30).
      if (!m || ANTONYMS.has(t.stem) || x.negated.has(t.stem)) continue
      const bare = y.tokens.find((u) => u.lower === m[1] || sameStem(u.stem, stem(m[1]!)))
      if (!bare || y.negated.has(bare.stem) || x.tokens.some((u) => u !== t && sameStem(u.stem, bare.stem))) continue
      if (x.pastAt(t.start) !== y.pastAt(bare.start)) continue
      return { kind: 'negation', reason: `one side negates what the other states: "${t.lower}" vs "${bare.lower}"` }
    }
  }
  return null
}
