import { complementModifier, differentAttributes, differentObjects, differentQualifiers, qualifiedDays, SUBJECT_CLASSES } from './attachment.js'
import { ANTONYMS } from '../words/poles.js'
import { DIETS } from '../words/diets.js'
import { NEGATORS } from '../words/negation.js'
import { STOPWORDS } from '../words/stopwords.js'
import { stem } from '../read/stem.js'
import type { Reading } from '../read/reading.js'
import { isTimeWord, KIND_OF } from '../read/reading.js'
import { hasStem, sameStem } from '../read/same-stem.js'
import { compareSlots } from './slot-compare.js'

export { hasStem, sameStem }

/** One reason two related observations cannot both hold now. */
export interface Signal {
  readonly kind: 'value' | 'negation' | 'antonym' | 'preference' | 'substitution' | 'exclusive' | 'diet'
  readonly reason: string
  /** For substitutions: the names differ in a modifier of the subject (Alice's / Bob's, staging / production). */
  readonly modifier?: boolean
  /** For substitutions: a modifier and a name both differ. */
  readonly twice?: boolean
  /** For values: how many kinds of value differ, and whether one of them is a period (last year / this year). */
  readonly kinds?: number
  readonly period?: boolean
  /** For values: where each clashing value stands in its reading's `norm` (-1: not known). */
  readonly at?: readonly [number, number]
  /** For a name against a name: where each stands in its reading's `norm` (the confidence asks whether it is a value there). */
  readonly names?: readonly [{ readonly text: string; readonly start: number }, { readonly text: string; readonly start: number }]
}


const EVENTFUL: ReadonlySet<string> = new Set(['time', 'span', 'date', 'reldate'])

/** Whether one text speaks of the past and the other of the present, so their values are both true. */
export function differentTimes(a: Reading, b: Reading): boolean {
  return a.past !== b.past || (a.present && !b.present && b.simplePast) || (b.present && !a.present && a.simplePast)
}

/** Values of one kind that no reading reconciles: 3pm vs 4pm, 30°C vs 68°F, 1 GB vs 500 MB. */
export function valueSignal(a: Reading, b: Reading): Signal | null {
  // "used to work at Stripe" / "at Shopify now": a past value and a present one are both true.
  if (differentTimes(a, b)) return null
  // Times and dates belong to events ("departs" / "arrives", "expires" / "was signed"); amounts,
  // sizes and frequencies are read as one attribute whatever verb carries them ("runs twice a
  // month" / "is processed once a month").
  // Label numbers ("PR 221", "Gate 12") say which thing, as times say which event: both are
  // compared only when said of one attribute ("reviewed PR 221" / "approved PR 223" are two PRs).
  const labelled = (sl: (typeof a.slots.slots)[number]): boolean => EVENTFUL.has(sl.kind) || (sl.kind === 'count' && sl.unit.startsWith('#'))
  const clashes = compareSlots(a.slots, b.slots).clashes.filter((c) => {
    const [atA, atB] = [a.slots.at.get(c.slots[0]) ?? -1, b.slots.at.get(c.slots[1]) ?? -1]
    if (labelled(c.slots[0]) && differentAttributes(a, atA, b, atB)) return false
    // "opens at 7 on weekdays" / "opens at 9 on weekends": values for days that do not meet.
    const [da, db] = [atA >= 0 ? qualifiedDays(a, atA) : null, atB >= 0 ? qualifiedDays(b, atB) : null]
    // "after noon", "before 9am": a bound on a time, not the time of the thing.
    const bounded = (r: Reading, at: number): boolean => at >= 0 && /\b(?:after|past|before|until|till|by)\s*$/i.test(r.norm.slice(Math.max(0, at - 8), at))
    if (c.slots[0].kind === 'time' && (bounded(a, atA) || bounded(b, atB))) return false
    // "next cleaning booked for Oct" / "last one was April": two occurrences, not one date twice.
    const [oa, ob] = [occurrence(a, atA), occurrence(b, atB)]
    if (oa && ob && oa !== ob) return false
    return c.slots[0].kind === 'date' || !(da && db && ![...da].some((d) => db.has(d)))
  })
  // "closed on Sundays" / "hours: Mon–Sat": days said to be off are not the days of the thing;
  // open and closed days are the antonym check's, which compares them as days.
  const off = (r: Reading, sl: (typeof clashes)[number]['slots'][number]): boolean => {
    const at = r.slots.at.get(sl) ?? -1
    return sl.kind === 'date' && at >= 0 && /\b(?:closed|shut|not|no|never|except|off|without)\b[^.;!?,]*$/i.test(r.norm.slice(Math.max(0, at - 30), at))
  }
  const c = clashes.find((x) => !off(a, x.slots[0]) && !off(b, x.slots[1]))
  if (!c) return null
  // "Version 1 of the API" / "Version 2": a version that differs says which release, like a name.
  const version = clashes.some((x) => x.slots[0].kind === 'version')
  const period = version || clashes.some((x) => x.slots.some((s) => s.kind === 'reldate' || (s.kind === 'date' && s.d === undefined && s.m === undefined)))
  const at: [number, number] = [a.slots.at.get(c.slots[0]) ?? -1, b.slots.at.get(c.slots[1]) ?? -1]
  return { kind: 'value', reason: `different ${valueKindName(c.kind, c.slots[0].kind)}: "${c.a}" vs "${c.b}"`, kinds: clashes.length, period, modifier: version, at }
}

/** A value kind a person reads: "number" for a bare count, "number of seats", "relative date". */
function valueKindName(kind: string, slot: string): string {
  if (slot === 'reldate') return 'relative date'
  if (slot === 'freq') return 'frequency'
  if (slot === 'count') return kind === '' ? 'number' : kind.startsWith('#') ? `${kind.slice(1)} number` : `number of ${kind}`
  return kind || slot
}

/** Which occurrence the clause of a value speaks of: the last one, or the next one. */
function occurrence(r: Reading, at: number): 'last' | 'next' | null {
  if (at < 0) return null
  const m = /\b(last|previous|prior|next|upcoming|following)\b(?![^.;!?]*\b(?:last|previous|prior|next|upcoming|following)\b)[^.;!?]*$/i.exec(r.norm.slice(0, at))
  return m ? (/^(?:last|previous|prior)$/i.test(m[1]!) ? 'last' : 'next') : null
}

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
      // "used to hate olives" / "loves olives now": what held then and what holds now are both true.
      const [tx, ty] = [x.tokens.find((t) => sameStem(t.stem, s)), y.tokens.find((t) => sameStem(t.stem, s))]
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
      if (tx && ty && x.pastAt(tx.start) !== y.pastAt(ty.start)) continue
      // "won't give up" / "give it my best", "doesn't speak" / "speak up": a particle makes another verb.
      if (tx && ty && particle(x, tx) !== particle(y, ty)) continue
      const word = ty?.lower ?? s
      const [p, q] = flip ? [`"${word}"`, `"${cue}"`] : [`"${cue}"`, `"${word}"`]
      return { kind: 'negation', reason: `one side negates or retracts what the other states: ${p} vs ${q}` }
    }
  }
  return null
}

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
      if (!m || ANTONYMS.has(t.stem)) continue
      const bare = y.tokens.find((u) => u.lower === m[1] || sameStem(u.stem, stem(m[1]!)))
      if (!bare || y.negated.has(bare.stem) || x.tokens.some((u) => u !== t && sameStem(u.stem, bare.stem))) continue
      if (x.pastAt(t.start) !== y.pastAt(bare.start)) continue
      return { kind: 'negation', reason: `one side negates what the other states: "${t.lower}" vs "${bare.lower}"` }
    }
  }
  return null
}

/** Opposite poles of one antonym group: approved/rejected, on/off, finished/still running. */
export function antonymSignal(a: Reading, b: Reading): Signal | null {
  for (const [group, pa] of a.poles) {
    const pb = b.poles.get(group)
    if (!pb) continue
    const pure = (ps: typeof pa, pole: number): boolean => ps.every((p) => p.pole === pole)
    for (const pole of [1, -1] as const) {
      const aPure = pure(pa, pole) && pb.some((p) => p.pole === -pole)
      const bPure = pure(pb, pole) && pa.some((p) => p.pole === -pole)
      if (!aPure && !bPure) continue
      // "opens at 9" / "opens at 9am and closes at 9pm": the other side states this pole too.
      // (Only where the pole is qualified by a time: "60% done" beside "still running" is no opening hour.)
      const timed = (r: Reading, end: number): boolean => /^\s*(?:at|from|until|till|by|on)?\s*(?:\d|noon|midnight)/i.test(r.norm.slice(end))
      if (group !== 'preference' && ((aPure && timed(a, pa[0]!.end) && pb.some((p) => p.pole === pole)) || (bPure && timed(b, pb[0]!.end) && pa.some((p) => p.pole === pole)))) continue
      if (group === 'preference' && !sharedObject(a, b)) continue
      const ea = (aPure ? pa[0] : pa.find((p) => p.pole === -pole))!
      const eb = (bPure ? pb[0] : pb.find((p) => p.pole === -pole))!
      if (a.pastAt(ea.end - 1) !== b.pastAt(eb.end - 1)) continue
      // "accepts credit cards" / "does not accept checks": opposite verbs about two objects.
      if (differentObjects(a, ea.end, b, eb.end) || differentQualifiers(a, ea.end, b, eb.end) || differentPlaces(a, b)) continue
      const [wa, wb] = [ea.word, eb.word]
      return { kind: group === 'preference' ? 'preference' : 'antonym', reason: `opposite ${group}: "${wa}" vs "${wb}"` }
    }
  }
  return null
}

/**
 * Opposite orders of preference: "prefers trains to flying" / "would rather fly than take the
 * train"; or an order against a plain liking of what it ranks lower.
 */
export function orderSignal(a: Reading, b: Reading): Signal | null {
  const near = (x: string, y: string): boolean => sameStem(x, y) || (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x)))
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const o of x.orders) {
      const opposite = y.orders.find((p) => near(p.better, o.worse) && near(p.worse, o.better))
      if (opposite) return { kind: 'preference', reason: `opposite preference: "${o.better}" over "${o.worse}" vs "${opposite.better}" over "${opposite.worse}"` }
    }
  }
  return null
}

/** Liking and disliking clash only over one thing: a shared word beyond the person's name. */
function sharedObject(a: Reading, b: Reading): boolean {
  const first = (r: Reading): string | undefined => r.tokens.find((t) => r.content.has(t.stem))?.stem
  const names = new Set([first(a), first(b), ...a.tokens.filter((t) => t.capital).map((t) => t.stem)])
  for (const s of a.content) if (!names.has(s) && hasStem(b.content, s) && !isPreferenceWord(a, s)) return true
  return false
}
function isPreferenceWord(r: Reading, s: string): boolean {
  return ANTONYMS.get(s)?.some((p) => p.group === 'preference') === true || r.poles.get('preference')?.some((p) => p.word === s) === true
}

function unmatched(x: Reading, y: Reading): Reading['entities'] {
  return x.entities.filter((e) => !e.stem.split(' ').some((s) => y.tokens.some((t) => sameStem(t.stem, s))))
}

const MODIFIER_CLASSES = SUBJECT_CLASSES

/** Another name in the same place: UPS vs FedEx, Spanish vs English, Kevin vs Omar. */
export function substitutionSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const [ua, ub] = [unmatched(a, b), unmatched(b, a)]
  // "does not accept checks" chooses nothing: a negated member answers no question.
  const asserted = (r: Reading) => (e: Reading['entities'][number]): boolean => !e.cls || !r.negated.has(e.stem)
  for (const e of ua.filter(asserted(a))) {
    if (!e.cls) continue
    const f = ub.filter(asserted(b)).find((x) => x.cls === e.cls)
    if (f && !differentAttributes(a, e.start, b, f.start)) {
      // "the red car is a Toyota" / "the blue car is a Honda": a modifier and a name both differ, two subjects.
      const names = ua.filter((n) => !n.cls).length === 1 && ub.filter((n) => !n.cls).length === 1
      return { kind: 'substitution', reason: `different ${e.cls}: "${e.text}" vs "${f.text}"`, modifier: MODIFIER_CLASSES.has(e.cls), twice: names && MODIFIER_CLASSES.has(e.cls) }
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
  if (na.length === 1 && nb.length === 1 && !mismatched && !numbered(a, x) && !numbered(b, y) && !abbreviates(x!.text, y!.text) && !differentAttributes(a, x!.start, b, y!.start)) {
    return { kind: 'substitution', reason: `different name in the same place: "${x!.text}" vs "${y!.text}"`, modifier: true, names: [{ text: x!.text, start: x!.start }, { text: y!.text, start: y!.start }] }
  }
  return null
}

/** Whether a name stands before a noun it modifies, not before a word that says when or how ("Omar since the reorg"). */
function beforeNoun(r: Reading, e: Reading['entities'][number]): boolean {
  return !!e.modifies && !/^\s+(?:since|until|till|after|before|during|once|again|now|today|too|as|via|per|through|instead|anymore)\b/i.test(r.norm.slice(e.start + e.text.length))
}

/** Another modifier of one noun said of one subject: "on the platform team" / "moved to the payments team". */
export function complementSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const m = complementModifier(a, b)
  return m ? { kind: 'substitution', reason: `a different answer about the same subject: ${m.text}` } : null
}

/**
 * Another identifier of the same shape in the same place, after a subject both texts name: "the
 * replica is in us-east-1" / "replica lives in eu-west-1", "invoices go to billing@acme.com" /
 * "send invoices to ap@acme.com". An identifier that labels its noun ("PR #518", "db-02 is down")
 * says which thing, not what is said of it, and is left alone.
 */
export function identifierSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const shape = (s: string): string => s.replace(/\p{L}+/gu, 'a').replace(/\d+/g, '0')
  const placed = (x: Reading, y: Reading): Reading['tokens'] => x.tokens.filter((t, i) => {
    // Amounts with their unit ("2pm", "16gb") are values, the value check's business.
    if (!t.identifier || !/^\p{L}/u.test(t.lower) || y.tokens.some((u) => u.stem === t.stem)) return false
    const prev = x.tokens[i - 1]
    // After a function word, a verb, an update word ("still", "now") or a label ("region: us-east-1").
    const labelled = !!prev && /^\s*[:=]\s*$/.test(x.norm.slice(prev.end, t.start))
    if (!prev || !(labelled || STOPWORDS.has(prev.lower) || /^(?:still|now|currently)$/.test(prev.lower) || /^[a-z]+(?:s|ed)$/.test(prev.lower)) || prev.identifier) return false
    // The subject: a key both texts name before their identifier.
    return x.tokens.slice(0, i).some((u) => x.keys.has(u.stem) && y.tokens.some((v) => v.start < (y.tokens.find((w) => w.identifier && !x.tokens.some((z) => z.stem === w.stem))?.start ?? -1) && sameStem(v.stem, u.stem)))
  })
  // One identifier of a shape on each side ("us-east-1" / "eu-west-1"; an "s3" beside is another shape).
  const [pa, pb] = [placed(a, b), placed(b, a)]
  for (const x of pa) {
    const [ia, ib] = [pa.filter((t) => shape(t.lower) === shape(x.lower)), pb.filter((t) => shape(t.lower) === shape(x.lower))]
    // "reviewed PR 221" / "approved PR 223": said of two things, not two answers to one.
    if (ia.length === 1 && ib.length === 1 && !differentAttributes(a, ia[0]!.start, b, ib[0]!.start)) return { kind: 'substitution', reason: `different identifier in the same place: "${ia[0]!.lower}" vs "${ib[0]!.lower}"` }
  }
  return null
}

/** "the only admin is Alice" / "admins: Alice and Bob"; "Tuesdays only" / "any day"; "9–5" / "24/7". */
export function exclusiveSignal(a: Reading, b: Reading): Signal | null {
  // Hours against around the clock: "support hours are 9–5 ET" / "support is staffed 24/7".
  const always = /\b24\s*\/\s*7\b|\b(?:a)?round[-\s]the[-\s]clock\b|\b24\s+hours\s+a\s+day\b/i
  for (const [x, y] of [[a, b], [b, a]] as const) {
    const span = x.slots.slots.find((s) => s.kind === 'span')
    if (span && always.test(y.text) && !always.test(x.text)) return { kind: 'exclusive', reason: `one side gives hours ("${span.text.trim()}"), the other says around the clock` }
  }
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const clause of x.exclusive) {
      if (![...clause].some((s) => hasStem(y.keys, s))) continue
      // What "only" keeps is of one kind ("only wire transfers", "the only admin, Alice"); another
      // thing of that kind is an addition, a thing of another kind ("virtual only" / "learning
      // the piano") or the one a clause is about ("Colm booked ...") is not.
      const kinds = new Set(x.entities.filter((e) => e.stem.split(' ').every((s) => clause.has(s))).map((e) => e.cls))
      const extra = unmatched(y, x).filter((e) => kinds.has(e.cls) && (e.cls !== null || !/^\s*$|[.;!?:,]\s*$/.test(y.norm.slice(0, e.start))))
      if (y.universal) return { kind: 'exclusive', reason: 'one side restricts ("only") what the other allows always' }
      if (extra.length) return { kind: 'exclusive', reason: `one side says "only", the other adds "${extra[0]!.text}"` }
    }
  }
  return null
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

/** A diet on one side, a food that breaks it eaten on the other ("vegan" / "ordered the steak"). */
export function dietSignal(a: Reading, b: Reading): Signal | null {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const { diet, breaks } of DIETS) {
      const d = diet.exec(x.norm)
      const f = breaks.exec(y.norm)
      if (!d || !f || diet.test(y.norm) || breaks.test(x.norm)) continue
      // "not vegan any more", "no steak": a negated diet or food says nothing against the other.
      if (/\b(?:not|no|never|without)\s+(?:\w+\s+)?$/i.test(x.norm.slice(0, d.index)) || /\b(?:not|no|never|without|free)\s+(?:\w+\s+)?$/i.test(y.norm.slice(0, f.index))) continue
      return { kind: 'diet', reason: `"${d[0]}" vs "${f[0]}"` }
    }
  }
  return null
}

/** Giving something up or refusing it again: a stance against what the clause names. */
const AGAINST = /\bnever\b[^.;!?,]*\bagain\b|\bno\s+more\b|\bnot\s+any\s*more\b|\b(?:gone|went|going)\s+off\b|\b(?:sick|tired)\s+of\b|\bdone\s+with\b|\b(?:gave|give|giving|gives)\s+up\b|\bquit\b/i

/** The stance each clause of a text takes toward the keys it names: liking (+1) or against (-1). */
function stances(r: Reading): Map<string, { pole: 1 | -1; cue: string; at: number }> {
  const out = new Map<string, { pole: 1 | -1; cue: string; at: number }>()
  const prefs = r.poles.get('preference') ?? []
  // The person a text is about is not the object of their liking.
  const subject = new Set([...r.leadingName, r.tokens.find((t) => r.content.has(t.stem))?.stem])
  for (const m of r.norm.matchAll(/[^.;!?,]+/g)) {
    const [start, end] = [m.index, m.index + m[0].length]
    const inClause = prefs.filter((p) => p.end > start && p.end <= end)
    const against = AGAINST.exec(m[0])
    const poles = new Set<number>(inClause.map((p) => p.pole))
    if (against) poles.add(-1)
    if (poles.size !== 1) continue
    const pole = [...poles][0] as 1 | -1
    const cue = against?.[0] ?? inClause[0]!.word
    for (const t of r.tokens) {
      if (t.start < start || t.end > end || !r.keys.has(t.stem) || subject.has(t.stem) || t.identifier) continue
      if (ANTONYMS.get(t.stem)?.some((p) => p.group === 'preference') || cue.includes(t.lower)) continue
      for (const k of [t.stem, ...(KIND_OF.get(t.stem) ?? [])]) out.set(k, { pole, cue, at: t.start })
    }
  }
  return out
}

/**
 * Opposite stances toward one thing both texts name, beyond the person: "likes flying Delta" /
 * "never book me on Delta again", "loves the new espresso machine" / "gone off the espresso
 * machine". Clauses that carry dates or times are left to the value checks ("wants meetings before
 * noon" / "avoid meetings on Fridays" are two facts).
 */
export function stanceSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b)) return null
  const [sa, sb] = [stances(a), stances(b)]
  for (const [k, x] of sa) {
    const y = [...sb].find(([j]) => sameStem(j, k))?.[1]
    if (!y || x.pole === y.pole) continue
    if (a.slots.slots.length && b.slots.slots.length) continue
    if (a.pastAt(x.at) !== b.pastAt(y.at)) continue
    const word = a.tokens.find((t) => t.start === x.at)?.lower ?? k
    return { kind: 'preference', reason: `opposite stance toward "${word}": "${x.cue}" vs "${y.cue}"` }
  }
  return null
}

/** "the wifi in the office is slow" / "the wifi at home is fast": said of two places, two facts. */
function differentPlaces(a: Reading, b: Reading): boolean {
  const place = (r: Reading): string | null => {
    for (const m of r.norm.matchAll(/\b(?:in|at|inside|outside)\s+(?:the\s+|my\s+|our\s+|your\s+|their\s+|his\s+|her\s+)?([a-z][a-z-]+)/gi)) {
      const w = m[1]!.toLowerCase()
      if (!STOPWORDS.has(w) && !isTimeWord(w) && !/^(?:least|most|all|once|first|last|times?|full|night)$/.test(w)) return stem(w)
    }
    return null
  }
  const [pa, pb] = [place(a), place(b)]
  return pa !== null && pb !== null && !sameStem(pa, pb) && !hasStem(b.content, pa) && !hasStem(a.content, pb)
}

/**
 * One verb and preposition, another place after them: "lands at Newark" / "lands at JFK", "ships
 * via UPS" / "ships via DHL", "works at Stripe" / "works at shopify". The place must be written as
 * a name (a capital or all capitals) on at least one side, so "plays in the band" / "plays in the
 * park" are left alone.
 */
export function placeSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  // "swim at the Y" / "swim at Lake Como in summer": a season, weekday or part of the day makes two facts.
  if ([a, b].some((r) => /\b(?:in|during|on|at)\s+(?:the\s+)?(?:summer|winter|spring|fall|autumn|weekends?|weekdays?|mornings?|evenings?|night|holidays?)\b/i.test(r.norm))) return null
  const frames = (r: Reading): Array<{ verb: string; prep: string; obj: Reading['tokens'][number] }> => {
    const out: Array<{ verb: string; prep: string; obj: Reading['tokens'][number] }> = []
    r.tokens.forEach((t, i) => {
      const [p, o] = [r.tokens[i + 1], r.tokens[i + 2] && DET.test(r.tokens[i + 2]!.lower) ? r.tokens[i + 3] : r.tokens[i + 2]]
      if (!p || !o || !/^(?:at|in|to|from|via|on|into)$/.test(p.lower) || !r.keys.has(t.stem) || r.negated.has(o.stem)) return
      if (/^\d/.test(o.lower) || isTimeWord(o.lower) || STOPWORDS.has(o.lower)) return
      out.push({ verb: t.stem, prep: p.lower, obj: o })
    })
    return out
  }
  const name = (x: Reading, t: Reading['tokens'][number]): boolean => /^\p{Lu}/u.test(x.norm.slice(t.start, t.end))
  for (const fa of frames(a)) {
    for (const fb of frames(b)) {
      if (fa.verb !== fb.verb || fa.prep !== fb.prep || sameStem(fa.obj.stem, fb.obj.stem)) continue
      if (hasStem(b.content, fa.obj.stem) || hasStem(a.content, fb.obj.stem) || (!name(a, fa.obj) && !name(b, fb.obj))) continue
      return { kind: 'substitution', reason: `another place after "${fa.verb} ${fa.prep}": "${fa.obj.lower}" vs "${fb.obj.lower}"`, modifier: true, names: [{ text: fa.obj.lower, start: fa.obj.start }, { text: fb.obj.lower, start: fb.obj.start }] }
    }
  }
  return null
}
const DET = /^(?:the|a|an|our|my|their|his|her)$/
