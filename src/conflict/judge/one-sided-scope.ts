import type { Reading } from '../read/reading.js'
import { MONTH_PATTERN } from '../words/months.js'
import { PAST_VERB } from '../words/markers.js'
import type { RawVerdict } from './verdict.js'

// A rule said plainly against one said for a recurring occasion the other does not name is the rule
// and its exception, not two rules: "Fenella prefers tea" / "Fenella has one espresso after Sunday
// lunch", "Jonas likes early shifts" / "Jonas takes a late shift on Fridays", "water the greenhouse
// every evening" / "in July water the greenhouse twice a day". pairs39, issue 27 session 14 (dev3,
// dev4: three false flags of three checks, value, substitution and antonym).

/**
 * A recurring occasion that restricts when a habit or rule holds: days of the week in the plural
 * ("on Fridays"), a named day ("on bin day", "on market days"), "after" or "before" a routine
 * ("after Sunday lunch", "before school"), a month or season opening a rule ("in July water ...").
 */
const SCOPE = new RegExp(
  String.raw`\b(?:on|every)\s+(?:\w+\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days\b` +
  String.raw`|\bon\s+(?!(?:the|a|an|that|this|one|two|her|his|my|their|our|its|same|first|last|next)\b)[a-z]+\s+days?\b` +
  String.raw`|\b(?:after|before)\s+(?:\w+\s+)?(?:lunch|dinner|breakfast|supper|school|work|church|training|football|practice)\b` +
  // A month or season only where it opens a clause ("In July, water ..."): "expecting a baby in
  // March" dates one event.
  String.raw`|(?:^|[.;:,]\s*)(?:in|during)\s+(?:${MONTH_PATTERN}|summer|winter|spring|autumn|the\s+(?:summer|winter|holidays))\b` +
  String.raw`|\b(?:at|on|over)\s+weekends\b`,
  'i',
)

/**
 * A rule that admits no exception: "never drives", "only on Tuesdays", "always stops". A negated
 * rule is one too ("cannot take codeine" / "takes codeine on bad days"): any occasion breaks it.
 */
const NO_EXCEPTION = /\b(?:never|always|only|ever|anymore|any\s+more|at\s+all)\b/i

/**
 * Why a flag is a rule against its exception, or null: one text names a recurring occasion and the
 * other names none, neither tells a past event (a dated event is not a habit's exception) nor
 * admits no exception (a negated one among them), and the occasion is not itself what differs
 * ("on Thursdays" / "Monday").
 */
export function oneSidedScope(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.kind === 'negation') return null
  const [sa, sb] = [SCOPE.exec(a.norm), SCOPE.exec(b.norm)]
  if (!sa === !sb) return null
  if ([a, b].some((r) => PAST_VERB.test(r.norm) || NO_EXCEPTION.test(r.norm))) return null
  const scope = (sa ?? sb)![0].replace(/^[.;:,\s]+/, '')
  // A word of the occasion in what differs, singular or plural ("on thursdays" / "every other Thursday"): the occasion differs.
  const one = (w: string): string => w.replace(/s$/, '')
  const differs = (/"([^"]+)" vs "([^"]+)"/.exec(raw.reason) ?? []).slice(1).join(' ').toLowerCase().split(' ').map(one)
  if (scope.toLowerCase().split(/\s+/).some((w) => differs.includes(one(w)))) return null
  return `"${scope}" only: an exception, not another rule`
}
