import { stem } from './lexicon.js'
import { WORDNET_ANTONYMS, WORDNET_CLASSES } from './wordnet.js'

/**
 * The closed word lists of the free-text detector. Each is a relation of general English (what
 * negates, what retracts, which words are opposites, what marks the past), written as a list
 * because no surface measure tells "approved" from "rejected". None is drawn from a test pair.
 */

/** Words that negate what follows them in their clause. */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'without', 'zero',
])

/**
 * Retraction, cancellation and refusal: the event or state named beside them did not happen or no
 * longer holds. Matched on stems, so "cancelled", "cancels" and "cancel" are one cue.
 */
const RETRACT_WORDS =
  'cancel cancelled canceled scrap scrapped drop dropped remove removed retire retired revert reverted rollback ' +
  'decline declined deny denied refuse refused reject rejected veto vetoed abandon abandoned withdraw withdrew withdrawn ' +
  'stop stopped halt halted discontinue discontinued deprecate deprecated disable disabled mute muted block blocked ' +
  'ban banned forbid forbidden fail failed unpaid outstanding unsigned postpone postponed avoid avoids avoided ended ' +
  'revoke revoked waive waived rescind rescinded sunset sunsetted resign resigned'
export const RETRACTORS: ReadonlySet<string> = new Set(RETRACT_WORDS.split(' ').map(stem))

/**
 * Phrasal verbs and set phrases that say what a one-word verb says, rewritten to it so the
 * attribute a value is attached to reads the same on both sides: "gets in at 9:15" is "arrives
 * at 9:15", "open until 9pm" is "closes at 9pm", "starting to learn Rust" is being a beginner.
 */
export const PHRASAL_VERBS: ReadonlyArray<readonly [RegExp, string | ((m: string) => string)]> = [
  [/\b(?:gets|got|get|getting)\s+in(?=\s+(?:at|around|about|by|on|before|after|early|late|\d))/gi, 'arrives'],
  [/\b(?:touch(?:es|ed|ing)?)\s+down\b/gi, 'lands'],
  [/\b(?:kicks|kicked|kick|kicking)\s+off\b/gi, 'starts'],
  // "the lease runs out in September": it expires then.
  [/\b(?:runs|ran|run|running)\s+out\b(?!\s+of\b)/gi, 'expires'],
  [/\b(?:showed|shows|show|showing|turned|turns|turn|turning)\s+up\b/gi, 'came'],
  // "doesn't open till 6" is "opens at 6".
  [/\b(?:does|do|will|is|are)\s+not\s+open\s+(?:until|till|til|before)\s+(?=(?:\d|noon))/gi, 'opens at '],
  [/\b(?:takes|took|take|taking)\s+off(?=\s+(?:at|around|about|by|on|before|after|\d))/gi, 'departs'],
  [/\b(?:is\s+|are\s+|stays\s+|stay\s+)?open(?:ed)?\s+(?:until|till|til|to|through)\s+(?=(?:\d|noon|midnight))/gi, 'closes at '],
  [/\b(?:is\s+|are\s+)?open(?:ed)?\s+from\s+(?=\d)(?![^,.;]*\b(?:to|until|till|–|-)\b)/gi, 'opens at '],
  // "has never written a line of Rust", "never used Figma": no experience at all.
  [/\b(?:has|have|had)\s+never\s+(?:written|used|touched|done|played|worked\s+with|coded\s+in|programmed\s+in|driven|cooked|skied|swum)\b/gi, (m) => `beginner, ${m.replace(/^\w+\s+/, '')}`],
  // Ways of saying when someone is at their best: a night owl is late, an early bird early.
  [/\bnight\s+owl\b|\bevening\s+person\b/gi, 'late'],
  [/\bearly\s+(?:bird|riser)\b|\bmorning\s+person\b/gi, 'early'],
  [/\b(?:just\s+)?(?:starting|started|beginning|began|begun|learning)\s+to\s+learn\b|\b(?:is|am|are)\s+(?:still\s+)?learning\b|\bnew\s+to\b|\b(?:knows?|speaks?)\s+(?:only\s+)?(?:a\s+few|a\s+couple\s+of|some\s+basic)\s+words\b|\b(?:speaks?|knows?|reads?)\s+(?:some|a\s+little|a\s+bit\s+of|basic)\b(?!\s+(?:of\s+)?(?:every|each|all)\b)/gi, 'beginner'],
]

/** Multi-word retractions, rewritten to one marker word before tokenizing. */
export const RETRACT_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:called|call|calling|calls)\s+off\b/gi, 'cancelled'],
  [/\b(?:turned|turns|turn|turning)\s+down\b/gi, 'rejected'],
  // "left the company" is a resignation; "left for vacation" is not.
  [/\b(?:left|leaves|leaving|quit|quits)\s+(?:the\s+|our\s+)?(company|team|firm|job|org|organi[sz]ation|group|startup)\b/gi, 'resigned from the $1'],
  // "pulled out of the demo", "dropped out", "backed out", "bowed out": a withdrawal.
  [/\b(?:pulled|pulls|pull|pulling|dropped|drops|drop|dropping|backed|backs|back|backing|bowed|bows|bow|opted|opts|opt)\s+out\b(?:\s+of\b)?/gi, 'withdrew'],
  [/\bno\s+longer\b/gi, 'not'],
  [/\b(?:rolled|rolling|roll|rolls)\s+back\b/gi, 'reverted'],
  [/\b(?:ripped|ripping|rip|took|taken|take|pulled|pull)\s+(\w+(?:\s+\w+)?)\s+out\b/gi, 'removed $1'],
  [/\b(?:turned|switched|turn|switch)\s+off\b/gi, 'disabled'],
  [/\bout\s+of\s+(?:service|order)\b/gi, 'broken'],
  [/\b(?:still\s+)?waiting\s+(?:on|for)\b/gi, 'unsigned'],
  [/\bhas\s+not\s+been\b/gi, 'not'],
  [/\bstop\s+(\w+ing)\b/gi, 'stop $1'],
  [/\bon\s+(?:time|schedule)\b/gi, 'ontime'],
  // "still on", "as planned", "going ahead": happening when planned; "pushed a week": delayed.
  [/\b(?:as\s+planned|still\s+on\b(?!\s+(?:the|a|an|my|our|his|her|their|it)\b)|going\s+ahead|went\s+ahead|goes\s+ahead)/gi, 'ontime'],
  [/\b(?:pushed|bumped|slipped|pushed\s+back|pushed\s+out)\s+(?:by\s+)?(?:a|one|two|three|\d+)\s+(?:day|week|month)s?\b/gi, 'delayed'],
  [/\b(is|are|was|were|be|been)\s+(up)\b(?!\s+(?:to|for|by|from))/gi, '$1 online'],
  [/\b(is|are|was|were|be|been)\s+(down)\b(?!\s+(?:to|for|by|from))/gi, '$1 offline'],
  [/\b(?:can not|cannot|will not|won't|could not|couldn't|not going to)\s+make\s+it\b/gi, 'absent'],
  [/\b(?:can|will|could)\s+make\s+it\b/gi, 'attending'],
  [/\bout\s+of\s+(?:the\s+)?office\b|\bon\s+(?:leave|vacation|holiday|pto)\b/gi, 'away'],
  [/\b(is|are|am|was|were)\s+out\b(?!\s+(?:of|for|to|with|on)\b)/gi, '$1 away'],
  [/\b(?:is|are|am)\s+in\s+the\s+office\b|\bin\s+the\s+office\s+today\b/gi, 'is onsite'],
  [/\bunder\s+warranty\b/gi, 'warranted'],
  // "an open balance", "balance due": money still owed.
  [/\b(?:open|unpaid|remaining)\s+balance\b|\bbalance\s+(?:due|owed|owing)\b/gi, 'outstanding balance'],
  // "badges into the office", "comes into the Austin office every day": working on site.
  // ("only comes into the office for workshops" is an exception, not a way of working.)
  [/(?<!\b(?:only|sometimes|occasionally|rarely)\s+)\b(?:badges?|badged|badging|comes?|came|coming|goes|went|going|commutes?|commuting)\s+(?:in)?to\s+(?:the\s+)?(?:[A-Z]\w+\s+)?office\b/g, 'works onsite'],
  [/\bsold[-\s]out\b/gi, 'soldout'],
  [/\b(?:lost|loses|lose)\s+(access|permission|permissions|rights)\b/gi, 'revoked $1'],
  [/\berror(?:ed|s)?\s+out\b/gi, 'errored'],
  [/\b24\/7\b|\baround the clock\b/gi, 'always'],
  [/\b(\d+|some|a few)\s+((?:\w+\s+)?)left\b/gi, '$1 $2remaining'],
  [/\bwent\s+up\b|\bgone\s+up\b|\bgoes\s+up\b/gi, 'increased'],
  [/\bwent\s+down\b|\bgone\s+down\b|\bgoes\s+down\b/gi, 'decreased'],
]

/**
 * Antonym groups: `positive words | negative words`. Two texts that use one group with opposite
 * poles (after negation) disagree. Stems are compared, so list one form of each word.
 */
const ANTONYMS_TEXT = `
outcome: pass passed approve approved accept accepted carried won win granted succeeded success merged signed delivered hired issued confirmed | fail failed reject rejected decline declined denied lost refused unsigned pending awaiting errored
requirement: required mandatory compulsory obligatory | optional voluntary
bugstate: fixed resolved solved patched | reproduces reproducible unresolved regressed persists reopened
validity: valid warranted insured certified licensed accredited current | expired lapsed invalid
switch: enabled enable activated active | disabled disable deactivated inactive
state: online working operational healthy | offline broken crashed outage unhealthy
attendance: attending attend coming joining | absent skipping missing
availability: available onsite | busy unavailable away ooo sick
stockage: remaining | soldout
direction: increased increase rose grew climbed raised higher | decreased decrease fell shrank lowered lower cut reduced
progress: finished complete completed done | running ongoing unfinished incomplete progress
visibility: public open-source | private internal
payment: paid settled | unpaid outstanding owed due
shade: dark | light bright
length: long long-form detailed verbose lengthy | short brief concise terse
time-of-day: early earliest morning | late latest evening
spice: spicy hot | mild
units: metric celsius kilometres kilometers km kg | imperial fahrenheit miles mile pounds lbs feet
access: read-write write push admin | read-only readonly
inclusion: including included inclusive | excluding excluded exclusive top extra plus
stock: plenty available in-stock | sold-out out-of-stock
skill: fluent expert experienced great strong proficient advanced native skilled wizard seasoned senior principal veteran master grandmaster guru | beginner novice junior newbie struggles struggle weak poor rusty inexperienced
openness: open opens opened reopened | closed close closes shut
punctuality: ontime punctual | delayed late overdue behind
marital: married | single unmarried divorced
condition: intact undamaged pristine | damaged defective faulty dented cracked
automation: manual manually stick | automatic automated automatically
locking: locked | unlocked
rate-type: fixed | variable floating adjustable
sex: female girl | male boy
loudness: quiet silent calm | noisy loud noise lively
employment: full-time fulltime permanent | part-time parttime temporary freelance interim
workplace: remote remotely wfh | onsite in-office
setting: indoor indoors inside | outdoor outdoors outside
life: alive living | dead deceased
permission: allowed permitted | forbidden prohibited banned
occupancy: vacant | occupied taken
synchrony: synchronous sync | asynchronous async
register: formal | casual informal
`

/**
 * Liking and disliking. They contradict only when they are about the same thing, which the
 * detector checks: "loves spicy food" vs "can't handle heat" needs the spice group too.
 */
const LIKE = 'like likes liked love loves loved prefer prefers preferred want wants wanted enjoy enjoys adore fan favorite favourite always'
const DISLIKE = 'hate hates hated dislike dislikes detest detests loathe avoid avoids refuse refuses allergic terrified scared afraid'

export interface Pole { readonly group: string; readonly pole: 1 | -1 }

export const ANTONYMS: ReadonlyMap<string, readonly Pole[]> = (() => {
  const out = new Map<string, Pole[]>()
  const add = (group: string, words: string, pole: 1 | -1): void => {
    for (const w of words.trim().split(/\s+/)) {
      // Hyphenated words are also stored joined, as identifiers are tokenized ("long-form" -> "longform").
      for (const s of new Set([stem(w.toLowerCase()), w.toLowerCase().replace(/-/g, '')])) {
        const list = out.get(s) ?? []
        if (!list.some((p) => p.group === group)) list.push({ group, pole })
        out.set(s, list)
      }
    }
  }
  for (const line of ANTONYMS_TEXT.trim().split('\n')) {
    const [name, rest] = line.split(':') as [string, string]
    const [pos, neg] = rest.split('|') as [string, string]
    add(name, pos, 1)
    add(name, neg, -1)
  }
  add('preference', LIKE, 1)
  add('preference', DISLIKE, -1)
  return out
})()

/**
 * Antonyms of common adjectives from WordNet (src/conflict/words/wordnet.ts, generated by
 * scripts/make-conflict-lexicon.ts), for words the hand-written groups above do not hold. One
 * group a pair. The reader takes them only where the adjective is said of something ("the tank is
 * empty", "the road is wide"), not where it picks one thing out ("the empty tank", "the wide road").
 */
export const WORDNET_POLES: ReadonlyMap<string, readonly Pole[]> = (() => {
  const out = new Map<string, Pole[]>()
  for (const line of WORDNET_ANTONYMS.split('\n')) {
    const [pos, neg] = line.split('|') as [string, string]
    const group = `${pos.split(' ')[0]}/${neg.split(' ')[0]}`
    for (const [words, pole] of [[pos, 1], [neg, -1]] as const) {
      for (const w of words.split(' ')) {
        const s = stem(w)
        if (ANTONYMS.has(s) || ANTONYMS.has(w)) continue
        const list = out.get(s) ?? []
        list.push({ group, pole })
        out.set(s, list)
      }
    }
  }
  return out
})()

/** Phrases that say the same as a dislike ("can't stand", "won't eat", "can't handle"). */
export const DISLIKE_PHRASES: RegExp = /\b(?:can not|will not|does not|do not)\s+(?:stand|handle|do|eat|drink|tolerate|bear)\b|\bnot\s+a\s+fan\b|\bstrains?\b/gi

/** Markers that put a statement in the past: it is not a claim about now. */
export const PAST_MARKERS: RegExp = /\b(?:used to|grew up|formerly|previously|originally|back then|in the past|ex-|former|at (?:his|her|their|my) (?:last|old|previous) (?:job|company|employer))\b/i
/** Markers that put a statement in the present. */
export const PRESENT_MARKERS: RegExp = /\b(?:now|these days|currently|nowadays|today|at the moment|since)\b/i

/** Restriction to one member ("only accepts wire", "the only admin", "X only"). */
// Not "read-only", "invite-only": a compound names a mode, it restricts nothing else.
export const EXCLUSIVE: RegExp = /(?<!-)\b(?:only|sole|solely|exclusively)\b/i
/** Universal choice, the opposite of a restriction ("any day", "whenever"). */
export const UNIVERSAL: RegExp = /\b(?:any\s+(?:day|time|one|of|language)|whenever|whatever|whichever|anytime|every\s+day|either)\b/i
/** Words that add to what was said rather than replace it. */
export const ADDITIVE: RegExp = /\b(?:also|too|as well|additionally|plus|in addition)\b/i

/**
 * Closed classes of names: two different members in the same pair are a substitution (Spanish vs
 * English, staging vs production); a member against a name of another class is not.
 */
const CLASSES_TEXT = `
language: english spanish french german italian portuguese dutch arabic chinese mandarin cantonese japanese korean hindi russian polish turkish greek swedish norwegian danish finnish hebrew
environment: staging production prod dev development qa sandbox test preview
weekday: monday tuesday wednesday thursday friday saturday sunday
tier: basic pro premium free enterprise standard starter business team
format: pdf spreadsheet csv xlsx docx slides word excel markdown html json
carrier: ups fedex dhl usps
drink: tea coffee espresso latte cappuccino cortado americano macchiato mocha decaf juice soda cola beer wine water
handedness: left-handed right-handed lefthanded righthanded ambidextrous
branch: main master trunk develop
seat: window aisle middle
color: red orange yellow green blue purple pink brown black white grey gray silver gold navy beige teal turquoise maroon burgundy cream charcoal olive khaki lilac magenta cyan ivory tan
ordinal: first second third fourth fifth last final
daypart: morning afternoon evening night
age: old new older newer current legacy previous former
family: son daughter brother sister mother father wife husband mom dad
component: frontend backend front-end back-end client server
platform: ios iphone ipad android macos windows linux web mobile desktop
country: usa canada mexico brazil argentina chile colombia peru uk britain england scotland ireland france germany spain portugal italy netherlands belgium switzerland austria sweden norway denmark finland poland czechia greece russia ukraine egypt nigeria kenya ghana morocco india pakistan china japan korea vietnam thailand indonesia philippines singapore malaysia australia zealand israel uae
payment: cash card credit debit wire check cheque paypal invoice venmo crypto
transport: train plane flight car bus bike coach ferry taxi uber drive driving flying
meal: breakfast brunch lunch dinner supper
cabin: economy premium-economy business-class first-class
season: spring summer autumn fall winter
cloud: aws gcp azure heroku vercel netlify digitalocean
database: postgres postgresql mysql mariadb sqlite mongodb mongo redis dynamodb cassandra oracle
browser: chrome firefox safari edge brave opera
size: small medium large xl xxl
shipping: overnight express standard ground two-day next-day same-day
pronoun: he/him she/her they/them
`
export const CLASS_OF: ReadonlyMap<string, string> = (() => {
  const out = new Map<string, string>()
  // WordNet's classes of common nouns (drinks, fruit, meat, sports, colours, instruments, fabrics,
  // metals) first, so the hand-written lines below win where both name a word.
  for (const line of WORDNET_CLASSES.split('\n')) {
    const [name, rest] = line.split(':') as [string, string]
    for (const w of rest.split(' ')) out.set(w, name)
  }
  for (const line of CLASSES_TEXT.trim().split('\n')) {
    const [name, rest] = line.split(':') as [string, string]
    for (const w of rest.trim().split(/\s+/)) out.set(w, name)
  }
  return out
})()

/**
 * Diets and what breaks them: "vegan" against "ordered the steak" needs one step of knowledge,
 * which a short list of common foods gives. Burgers and sausages are left out: there are
 * vegetarian ones.
 */
export const DIETS: ReadonlyArray<{ readonly diet: RegExp; readonly breaks: RegExp }> = [
  { diet: /\b(?:vegetarian|veggie)\b/i, breaks: /\b(?:cheeseburger|hamburger|steak|beef|pork|chicken|bacon|ham|lamb|veal|salami|pepperoni|brisket|ribs|meatballs?|turkey|duck|tuna|salmon|shrimp|prawns?|fish)\b/i },
  { diet: /\bvegan\b/i, breaks: /\b(?:cheeseburger|hamburger|steak|beef|pork|chicken|bacon|ham|lamb|veal|salami|pepperoni|brisket|ribs|meatballs?|turkey|duck|tuna|salmon|shrimp|prawns?|fish|cheese|eggs?|omelett?e|milk|butter|honey|yogh?urt|latte)\b/i },
  { diet: /\b(?:pescatarian|pescetarian)\b/i, breaks: /\b(?:steak|beef|pork|chicken|bacon|ham|lamb|veal|salami|pepperoni|brisket|ribs|turkey|duck)\b/i },
  { diet: /\blactose[-\s]intolerant\b|\bdairy[-\s]free\b/i, breaks: /\b(?:milk|cheese|cream|butter|yogh?urt|ice\s+cream|milkshake|latte|cappuccino)\b/i },
  { diet: /\b(?:c[oe]eliac|gluten[-\s]free)\b/i, breaks: /\b(?:bread|pasta|pizza|bagels?|croissants?|beer|sandwich(?:es)?|noodles|couscous|pancakes?|waffles?)\b/i },
  { diet: /\bkosher\b/i, breaks: /\b(?:pork|bacon|ham|prosciutto|pepperoni|salami|shrimp|prawns?|lobster|crab|oysters?|clams?|scallops?|cheeseburger)\b/i },
  { diet: /\bhalal\b/i, breaks: /\b(?:pork|bacon|ham|prosciutto|pepperoni|salami)\b/i },
  { diet: /\b(?:teetotal|teetotaler|sober|does not drink|never drinks)\b/i, breaks: /\b(?:beers?|wine|whisk(?:e)?y|cocktails?|vodka|gin|rum|champagne|prosecco)\b/i },
]
