import { stem } from '../read/stem.js'

/**
 * Synonym sets: every word maps to the first one. Common verbs and nouns that observations use
 * interchangeably; deliberately not including pairs that name different slots (depart/arrive,
 * start/end, live/work), which are how two observations can both hold.
 */
const SYNONYMS_TEXT = `
depart leave leaves left departs departed departure
arrive arrives arrived arrival land lands landed dock docks docked
cost costs price priced prices charge charges charged fee fees buy bought purchase purchased
release released releases launch launched launches ship shipped publish published
fit fits hold holds seat seats accommodate accommodates capacity
start starts started begin begins began kickoff commence commences
end ends ended finish finishes finished conclude concludes
move moved reschedule rescheduled push pushed postpone postponed shift shifted
require requires required need needs needed
reside live lives lived home based located
own owns owned maintain maintains maintained
meet meeting meetings
name named call called
held
run runs ran execute executes executed
write written wrote
big large
child children kid kids
`

export const SYNONYMS: ReadonlyMap<string, string> = buildSynonyms(SYNONYMS_TEXT)

/**
 * Canonical words that say how a value is attached rather than what the claim is about: update
 * verbs ("moved to 4pm" means "is at 4pm") and price verbs ("costs $5" means "is $5"). They still
 * align and count as wording, but are left out of the topic.
 */
export const LIGHT: ReadonlySet<string> = new Set([stem('move'), stem('cost'), 'came', 'come'])

function buildSynonyms(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of text.trim().split('\n')) {
    const words = line.trim().split(/\s+/)
    const head = stem(words[0]!)
    for (const w of words) if (!out.has(stem(w))) out.set(stem(w), head)
  }
  return out
}
