import type { Reading } from '../../read/reading.js'
import { PAST_MARKERS } from '../../words/markers.js'

// The speaker's own lasting status, said twice (issue 27, session 11): "i'm married" / "i'm single
// and have never been married", "i'm left-handed" / "i'm right-handed", "i am single" / "my husband
// and i ...". Two first-person texts share no key word when all they share is the speaker, so this
// is asked before the topic gate, as the possession and job rules are. Only statuses a person holds
// one of for years: passing states ("busy", "late") and tastes differ from one turn to the next.

// The text is the speaker's: it opens with "i" or with the speaker and a spouse.
const SPEAKER = /^\s*(?:i\b|my\s+(?:husband|wife|spouse)\s+and\s+i\b)/i
const SPOUSE = /\bmy\s+(?:husband|wife|spouse)\b/i
const HANDED = /\b(left|right)[- ]?handed\b/i

/** The speaker's statuses a text states: group -> value. */
function statuses(r: Reading): Map<string, string> {
  const out = new Map<string, string>()
  if (!SPEAKER.test(r.norm) || r.past || PAST_MARKERS.test(r.norm)) return out
  const marital = r.poles.get('marital')
  // A pole the text states one way only ("single and never been married" is single twice).
  if (marital && marital.every((p) => p.pole === marital[0]!.pole)) out.set('marital', marital[0]!.pole > 0 ? 'married' : 'single')
  else if (!marital && SPOUSE.test(r.norm)) out.set('marital', 'married')
  const hand = HANDED.exec(r.norm)
  if (hand) out.set('handedness', `${hand[1]!.toLowerCase()}-handed`)
  return out
}

/** Two values of one lasting status of the speaker, as a reason; null otherwise. */
export function speakerStatusRule(a: Reading, b: Reading): string | null {
  const x = statuses(a)
  if (x.size === 0) return null
  for (const [group, value] of statuses(b)) {
    const other = x.get(group)
    if (other && other !== value) return `the speaker's ${group} said two ways: "${other}" vs "${value}"`
  }
  return null
}
