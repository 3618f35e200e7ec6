import type { Reading } from '../../read/reading.js'
import { WEEKDAYS } from '../../words/weekdays.js'

const DAYS: readonly string[] = WEEKDAYS
/** Kinds of doing a rule against a weekday forbids: releasing, putting on the calendar, calling. */
const ACTS: readonly RegExp[] = [
  /\b(?:deploy(?:ed|ing|s)?|ship(?:ped|ping|s)?|releas(?:e|ed|es|ing)|launch(?:ed|es|ing)?|push(?:ed|es|ing)?\s+(?:to\s+)?prod\w*|roll(?:ed|ing|s)?\s+out)\b/i,
  /\b(?:book(?:ed|ing|s)?|schedul(?:e|ed|es|ing)|plan(?:ned|s)?|put|set\s+up|hold(?:ing|s)?|arrang(?:e|ed|es|ing))\b/i,
  /\b(?:call(?:ed|s)?|ring)\b/i,
]
const actsOf = (r: Reading): number[] => ACTS.flatMap((re, i) => (re.test(r.norm) ? [i] : []))

/**
 * A rule against a weekday ("never deploy on Fridays", "don't schedule anything on Fridays")
 * against doing such a thing on that weekday ("ship the hotfix this Friday", "book my review for
 * Friday the 20th"). The weekday is the topic here, which the gate never takes alone.
 */
export function dayRule(x: Reading, y: Reading): string | null {
  const rule = /\b(?:never|not|no|avoid)\b[^.;!?]*?\b(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)days)\b/i.exec(x.norm)
  const acts = actsOf(x)
  if (!rule || acts.length === 0) return null
  const wd = DAYS.indexOf(rule[1]!.slice(0, 3).toLowerCase())
  const on = y.slots.slots.find((s) => s.kind === 'date' && s.wd === wd && !s.wds)
  if (!on || !actsOf(y).some((i) => acts.includes(i)) || [...y.negated.values()].some((c) => /^(?:not|no|never)\b/.test(c))) return null
  return `one side rules out ${rule[1]!.toLowerCase()}, the other does it on one: "${rule[0]}" vs "${on.text}"`
}
