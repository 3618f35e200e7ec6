import type { Reading } from '../../read/reading.js'
import { JOBS } from '../../words/jobs.js'
import { ADDITIVE, PAST_MARKERS } from '../../words/markers.js'

// One job each (issue 27, ninth round): "i am a nurse at the children's hospital" / "i work as a
// high school math teacher". The two texts share no key word (two occupations), so this is asked
// before the topic gate, as the possession rule is; the holder before the verb must be the same
// words on both sides ("my sister is a firefighter" / "my brother is a paramedic" are two people).

const ROLE = /^(i|we|[a-z]+(?: [a-z]+)?)(?:\s+am|'m|\s+is|\s+works?\s+as|'s)\s+an?\s+([a-z-]+(?:\s+[a-z-]+){0,3})/
// A second role or a change said with it: "also", "part-time", "used to", "retired", "now", "and a".
const MORE = /\b(?:part[- ]time|on the side|freelance|retired|trainee|training|studying|now|anymore|used to|and an?)\b/

/** The holder and the occupation a text gives them, or undefined. */
function role(r: Reading): readonly [holder: string, job: string] | undefined {
  const text = r.norm.trim().replace(/’/g, "'").toLowerCase()
  if (MORE.test(text) || ADDITIVE.test(text) || PAST_MARKERS.test(text)) return
  const m = ROLE.exec(text)
  // The occupation is the first of up to four words that names one ("a high school math teacher").
  const job = m?.[2]!.split(/\s+/).find((w) => JOBS.has(w))
  return job ? [m![1]!, job] : undefined
}

/** Two occupations of one holder, as a reason; null otherwise. */
export function jobRule(a: Reading, b: Reading): string | null {
  const [x, y] = [role(a), role(b)]
  return x && y && x[0] === y[0] && x[1] !== y[1] ? `one job each: "${x[1]}" vs "${y[1]}"` : null
}
