import type { Reading } from '../read/reading.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { isPastVerb } from '../read/claim-kind.js'
import { ACROSS_TIME, ACTIVITY, CHANGE, OCCASION_NAME, PRESENT_VERB } from '../words/diary.js'

// A store-level rule of the free-text conflict listing (issue 27, twelfth round). A pair of texts
// has no dates; a store's facts do (each fact's valid time). A store of observations is a diary:
// short statements about one person at many dates ("Caroline attended a support group", "Caroline
// is thinking about adoption", "went to a pride parade last week"). Two of them told as moments (an
// event in the past, an activity in progress, a plan, a feeling) at two dates are two moments of a
// life: a value or a name that differs between them ("A1C was 7.2" / "A1C was 6.1", "visited Ines in
// Berlin last weekend" / "passed the B1 exam last week") is one of each moment, not two values of
// one state.
//
// What still contradicts across dates:
// - a state (a side told in the present: "lives in Paris" / "lives in Rome"; "costs 60,000");
// - a change (its new state holds from then on: "moved to Berlin" / "lives in Paris", "turned 36 in
//   May" / "is 34") and what is told as lasting ("still", "no longer", "never", "always");
// - two moments that name one occasion ("passed ... last month" / "failed ... last month");
// - one event's outcome denied or opposed ("PR #518 merged" / "closed without merging", "We hired
//   Okoye" / "Okoye declined our offer"): the rule weighs values and names only, not negations,
//   retractions or opposite words, which say what became of one thing.
//
// Like the pair rules, it lowers the confidence rather than vetoing, so `minConfidence` still
// reaches the pair; how much depends on the gap between the two dates (a day apart is closer to one
// moment than a month apart).

/** What the rule does to one pair: the factor its confidence is multiplied by, and the note the reason gets. */
export interface DiaryWeight {
  readonly factor: number
  readonly note: string
}

/** Whether a reading is told as a moment: a past event with no present verb, an activity, a plan or a feeling. */
export function toldAsMoment(r: Reading): boolean {
  if (ACTIVITY.test(r.norm)) return true
  return !PRESENT_VERB.test(r.norm) && r.tokens.some((t) => isPastVerb(t.lower))
}

/** The occasions a text names, lower case with single spaces. */
function occasionsNamed(r: Reading): Set<string> {
  return new Set([...r.norm.matchAll(OCCASION_NAME)].map((m) => m[0].toLowerCase().replace(/\s+/g, ' ')))
}

/** Whether two texts name one occasion ("passed ... last month" / "failed ... last month"): then they speak of it, whatever else they date (store/states.ts asks too). */
export function shareAnOccasion(a: Reading, b: Reading): boolean {
  const named = occasionsNamed(a)
  for (const o of occasionsNamed(b)) if (named.has(o)) return true
  return false
}

/**
 * How the dates of two flagged texts weigh on their flag: null when they do not (see above).
 * @param verdict - the detector's verdict on the pair (its kind, reason and shared keys)
 * @param days - the gap between the two facts' valid times, in days
 */
export function diaryWeight(a: Reading, b: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason' | 'shared'>, days: number): DiaryWeight | null {
  if (!(days >= 1) || (verdict.kind !== 'value' && verdict.kind !== 'substitution')) return null
  // One numbered thing ("Order #5521 shipped UPS" / "5521 went out FedEx") has one of each event.
  if (verdict.shared.some((k) => /\d/.test(k))) return null
  // When one event happened is one question: "made landfall on Tuesday night" / "early Thursday".
  if (/^different (?:relative )?(?:date|time|day|weekday)/.test(verdict.reason)) return null
  if (!toldAsMoment(a) || !toldAsMoment(b)) return null
  for (const r of [a, b]) if (ACROSS_TIME.test(r.norm) || CHANGE.test(r.norm)) return null
  // "the vote passed 7–2" / "the motion failed, only 4 in favor": an outcome opposed beside the values.
  if ([...a.poles].some(([g, pa]) => g !== 'preference' && b.poles.get(g)?.some((q) => pa.some((p) => p.pole === -q.pole)))) return null
  if (shareAnOccasion(a, b)) return null
  const apart = Math.round(days)
  return { factor: days >= 7 ? 0.5 : 0.7, note: `two moments of a diary, told ${apart} day${apart === 1 ? '' : 's'} apart` }
}
