import { WEEKDAY_NAMES } from './weekdays.js'
import { WORDNET_CLASSES } from './wordnet.js'

/**
 * Closed classes of names: two different members in the same pair are a substitution (Spanish vs
 * English, staging vs production); a member against a name of another class is not.
 */
const CLASSES_TEXT = `
language: english spanish french german italian portuguese dutch arabic chinese mandarin cantonese japanese korean hindi russian polish turkish greek swedish norwegian danish finnish hebrew
environment: staging production prod dev development qa sandbox test preview
weekday: ${WEEKDAY_NAMES.join(' ')}
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
 * Nouns general enough to name another noun's thing ("Noor's son" is "Noor's boy", "the cat" her
 * "pet"): an owner's two things are two only when neither is one of these (seventh round).
 */
export const GENERAL_NOUNS: ReadonlySet<string> = new Set(
  'boy girl kid child children baby guy one thing stuff pet animal'.split(' '),
)
