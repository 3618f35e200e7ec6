import { stemmer } from 'stemmer'
import { IRREGULAR } from '../../core/irregular.js'

/**
 * The closed word lists of the conflict detector: function words, negation, polarity (antonym)
 * groups, synonyms and contrast classes. They are general English, written as lists of common words
 * for each relation, not picked from the evaluation set; a word list is the honest way to know that
 * "passed" and "failed" disagree while "passed" and "succeeded" agree, which no surface measure
 * (and few small embedding models) can tell.
 */

const STEM_CACHE = new Map<string, string>()

/** Porter stem of a lower-case word, cached. */
export function stem(word: string): string {
  let s = STEM_CACHE.get(word)
  if (s === undefined) {
    const lemma = IRREGULAR[word] ?? word
    s = lemma.length <= 3 ? lemma : stemmer(lemma)
    if (STEM_CACHE.size < 50_000) STEM_CACHE.set(word, s)
  }
  return s
}

/** Negation markers, after contractions are expanded ("doesn't" -> "does not"). */
export const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'without', 'nolonger', 'cannot'])

/** Markers that one observation adds to another rather than replacing it ("also speaks French"). */
export const ADDITIVE: ReadonlySet<string> = new Set(['also', 'too', 'additionally', 'another', 'besides', 'aswell'])

/**
 * Polarity groups: each line is `name: positive words | negative words`. Two observations that use
 * the same group with opposite polarity (after negation) disagree: "up" vs "down", "passed" vs
 * "failed"; "not open" agrees with "closed".
 */
const GROUPS_TEXT = `
status: up online running operational reachable healthy | down offline unavailable unreachable crashed dead broken unhealthy outage
success: pass passed passing succeed succeeded success successful | fail failed failing failure unsuccessful
visibility: public | private internal restricted
openness: open opened opens reopened | closed close closes shut
resolution: open opened unresolved pending reopened | resolved fixed done closed
enablement: enabled enable enables active activated | disabled disable disables inactive deactivated
availability: available free | busy unavailable booked occupied away
temperature: hot warm heated | cold cool chilly freezing
fullness: full | empty
charge: charged full | empty dead drained flat
approval: approved approve approves accepted accept accepts granted allowed allow allows permitted permit | rejected reject rejects declined decline denied deny refused refuse forbidden forbid banned ban
direction: up increased increase increases rose rise rises grew grow grows higher raised gained | down decreased decrease decreases fell fall falls dropped drop drops shrank shrink shrinks lower declined lost
growth: grew grow grows growing expanded | shrank shrink shrinks shrinking contracted
locking: locked lock | unlocked unlock
security: secure safe | insecure unsafe
synchrony: synchronous sync blocking | asynchronous async nonblocking non-blocking
passability: passable | impassable blocked
handedness: left | right
answer: yes true correct | no false incorrect wrong
stability: deterministic stable reliable consistent | flaky nondeterministic non-deterministic unstable unreliable intermittent
completion: completed complete finished done | aborted cancelled canceled incomplete interrupted unfinished
balance: balanced | imbalanced unbalanced
workplace: onsite office | remote remotely
loudness: quiet silent | noisy loud
punctuality: ontime punctual | delayed late overdue
size: large big huge | small tiny little
speed: fast quick | slow
presence: present included include includes contains contain | absent missing excluded exclude excludes lacks lack
validity: valid | invalid expired
continuation: still continues ongoing | nolonger ended discontinued deprecated stopped retired
payment: paid | unpaid outstanding
`

export interface PolarityEntry {
  readonly group: string
  /** +1 positive pole, -1 negative pole. */
  readonly pole: 1 | -1
}

/** Stem -> the groups it belongs to, with its pole in each. */
export const POLARITY: ReadonlyMap<string, readonly PolarityEntry[]> = buildPolarity(GROUPS_TEXT)

function buildPolarity(text: string): Map<string, PolarityEntry[]> {
  const out = new Map<string, PolarityEntry[]>()
  for (const line of text.trim().split('\n')) {
    const [name, rest] = line.split(':') as [string, string]
    const [pos, neg] = rest.split('|') as [string, string]
    for (const [words, pole] of [[pos, 1], [neg, -1]] as const) {
      for (const w of words.trim().split(/\s+/)) {
        const s = stem(w)
        const list = out.get(s) ?? []
        if (!list.some((e) => e.group === name)) list.push({ group: name, pole })
        out.set(s, list)
      }
    }
  }
  return out
}

/**
 * Synonym sets: every word maps to the first one. Common verbs and nouns that observations use
 * interchangeably; deliberately not including pairs that name different slots (depart/arrive,
 * start/end, live/work), which are how two observations can both hold.
 */
const SYNONYMS_TEXT = `
depart leave leaves left departs departed departure
arrive arrives arrived arrival land lands landed
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

/**
 * Contrast classes: closed sets of words that pick out one of several things of a kind (which
 * exam, which train, which environment). They behave like names: "first Monday" vs "last Monday"
 * disagree; "the morning train at 7" and "the evening train at 18:40" are two trains.
 * Matched on the lower-cased surface form, so the verb "lasts" is not the adjective "last".
 */
const CONTRAST_TEXT = `
first second third fourth fifth last final next previous former latter
morning afternoon evening night day midday daytime nighttime weekday weekend
old new older newer newest oldest current legacy
staging production prod dev development qa sandbox preview
frontend backend front-end back-end
basic pro premium free enterprise standard starter business plus
red orange yellow green blue purple violet pink brown black white grey gray silver gold
north south east west northern southern eastern western
small medium large
son daughter brother sister mother father wife husband
primary secondary main
`

export const CONTRAST: ReadonlySet<string> = new Set(CONTRAST_TEXT.trim().split(/\s+/))

/**
 * Multi-word expressions rewritten before tokenizing, so each becomes one unit. Applied
 * case-insensitively on word boundaries, longest first.
 */
export const PHRASES: ReadonlyArray<readonly [RegExp, string]> = ([
  ['no longer', 'nolonger'],
  ['not any longer', 'nolonger'],
  ['on time', 'ontime'],
  ['on-site', 'onsite'],
  ['on site', 'onsite'],
  ['in person', 'onsite'],
  ['in-person', 'onsite'],
  ['in the office', 'onsite'],
  ['turned on', 'enabled'],
  ['switched on', 'enabled'],
  ['turned off', 'disabled'],
  ['switched off', 'disabled'],
  ['gets in', 'arrives'],
  ['got in', 'arrived'],
  ['get in', 'arrive'],
  ['came out', 'released'],
  ['comes out', 'released'],
  ['come out', 'release'],
  ['kicks off', 'starts'],
  ['kick off', 'start'],
  ['takes place', 'held'],
  ['took place', 'held'],
  ['take place', 'held'],
  ['as well', 'aswell'],
  ['up and running', 'up'],
] as const).map(([from, to]) => [new RegExp(`\\b${from.replace(/[-\s]/g, '[-\\s]')}\\b`, 'gi'), to] as const)

/**
 * "on" and "off" as states ("the heater is on"): only after a state verb and at the end of a
 * clause, because everywhere else they are prepositions.
 */
export const ON_OFF: readonly [RegExp, (m: string, verb: string, state: string) => string] = [
  /\b(is|are|was|were|be|been|stays?|stayed|remains?|remained|left|kept)\s+(on|off)\b(?=\s*$|\s*[.,;!?]|\s+(?:now|again|today|tonight|all\s+day|at\s+night)\b)/gi,
  (_m, verb, state) => `${verb} ${state.toLowerCase() === 'on' ? 'enabled' : 'disabled'}`,
]

/** English contractions that hide a negation or a verb. */
export const CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcan['’]t\b/gi, 'can not'],
  [/\bcannot\b/gi, 'can not'],
  [/\bwon['’]t\b/gi, 'will not'],
  [/\bshan['’]t\b/gi, 'shall not'],
  [/n['’]t\b/gi, ' not'],
]

/** Prefixes that negate the word they attach to ("unlocked", "insecure", "irreversible"). */
export const NEGATING_PREFIXES: readonly string[] = ['un', 'in', 'im', 'ir', 'il', 'dis', 'non']

const STOP_TEXT =
  'a an the and or but if of to in on at by for from with into onto over under about as than then so ' +
  'is are was were be been being am do does did done doing has have had having will would shall should can could ' +
  'may might must it its this that these those there here their theirs they them he him his she her hers we us our ' +
  'ours you your yours i me my mine who whom whose which what when where why how all any some each every such ' +
  'very much many more most just only even yet already really actually currently now around ' +
  'approximately roughly nearly almost ok okay well please s t d ll m re ve got get gets getting ' +
  'use uses used using make makes made go goes going went via per built'

/**
 * Function words: they carry no topic and never count as a difference. A word that carries
 * polarity, contrast or negation is never a stopword, whatever the list says.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  STOP_TEXT.split(' ').filter((w) => !NEGATIONS.has(w) && !CONTRAST.has(w) && !ADDITIVE.has(w) && !POLARITY.has(stem(w))),
)
