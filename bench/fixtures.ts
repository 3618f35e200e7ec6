import { mulberry32 } from '../src/core/seeded-random.js'

/**
 * Deterministic benchmark data: fact rows that look like what an agent writes (a sentence of
 * 60-120 characters plus subject/predicate/object/importance metadata) and the queries run
 * against them. Seeded, so every runtime and every run sees the same rows and queries.
 */

/** One fact as the bench writes it, plus the record a raw-Dexie baseline stores for it. */
export interface FactRow {
  readonly content: string
  readonly metadata: { readonly subject: string; readonly predicate: string; readonly object: string; readonly importance: number }
  /** ISO-8601 date the fact became true (passed as `validFrom`). */
  readonly validFrom: string
  /**
   * The same fact shaped like a memweave `records` row (id, kind, tenant, body, author, hlc), with
   * ids and clocks drawn from the seed instead of hashed, so the baseline stores comparable bytes.
   */
  readonly record: RawRecord
}

export interface RawRecord {
  readonly id: string
  readonly kind: 'fact'
  readonly tenant: null
  readonly body: {
    readonly content: string
    readonly factId: string
    readonly structuredId: string
    readonly metadata: FactRow['metadata']
    readonly validFrom: number
    readonly writtenAt: number
    readonly supersedes: null
    readonly source: { readonly writtenBy: null; readonly signature: null; readonly publicKey: null }
  }
  readonly author: null
  readonly hlc: string
}

/** The one seeded generator (core/seeded-random.ts), under the name this file's users know. */
export const prng = mulberry32

const FIRST = (
  'Aria Ben Chloe Dmitri Elena Farid Grace Hiro Ines Jonas Kaia Luca Maya Nils Olga Pablo Quinn Rosa Sami Tess ' +
  'Umar Vera Wen Ximena Yusuf Zoe Amara Bruno Cleo Dario Esme Felix Gita Hugo Ivy Jamal Kenji Lena Mateo Noor'
).split(' ')
const LAST = (
  'Rossi Novak Tanaka Okafor Silva Berg Haddad Kowalski Moreau Ng Petrov Garcia Lindqvist Mensah Costa Ibrahim ' +
  'Fischer Sato Dubois Ahmed Kaur Larsen Romero Schmidt Yilmaz Conti Walsh Abe Nkemelu Varga'
).split(' ')
const CITIES = (
  'Rome Lisbon Osaka Nairobi Toronto Berlin Oslo Lagos Lima Hanoi Dublin Seoul Austin Porto Krakow Tunis Bogota ' +
  'Melbourne Zurich Accra Valencia Tbilisi Montreal Kyoto Cairo Helsinki Quito Manila Denver Bergen'
).split(' ')
const COMPANIES = (
  'Northwind Globex Initech Umbrella Hooli Vandelay Stark Wayne Acme Tyrell Cyberdyne Soylent Wonka Gringotts ' +
  'Aperture Monarch Oscorp Massive Dynamic Pied Piper'
).split(' ')
const ROLES = 'engineer designer manager analyst researcher nurse teacher chef lawyer architect pilot editor'.split(' ')
const TEAMS = 'platform payments search growth mobile data security infra billing support'.split(' ')
const DRINKS = 'oat flat white|green tea|espresso|sparkling water|chai latte|black coffee|matcha|hot chocolate|rooibos'.split('|')
const HOBBIES = 'bouldering|sourdough baking|chess|trail running|watercolour painting|jazz piano|birdwatching|pottery|sailing|salsa dancing'.split('|')
const PETS = 'a grey cat|two rescue dogs|a parrot|a corgi|three goldfish|a tortoise|a border collie'.split('|')
const ALLERGIES = 'peanuts|shellfish|pollen|penicillin|cats|gluten|dairy'.split('|')
const LANGS = 'Portuguese|Japanese|Swahili|German|Korean|Spanish|Polish|Arabic|Finnish|Tagalog'.split('|')
const PROJECTS = 'the Q3 migration|the billing rewrite|the mobile launch|the search revamp|the onboarding study|the data audit'.split('|')
const SOURCES = 'the Monday standup|a support chat|the onboarding form|a voice note|the weekly 1:1|an email thread|the CRM notes'.split('|')
const MONTHS = 'January February March April May June July August September October November December'.split(' ')

type Pick = <T>(xs: readonly T[]) => T

/** Sentence templates keyed by predicate; each returns [object, content]. */
const TEMPLATES: ReadonlyArray<{ predicate: string; make: (s: string, pick: Pick, year: number) => [string, string] }> = [
  { predicate: 'lives_in', make: (s, p, y) => { const o = p(CITIES); return [o, `${s} lives in ${o} and has been there since ${y}, according to ${p(SOURCES)}.`] } },
  { predicate: 'works_at', make: (s, p) => { const o = p(COMPANIES); return [o, `${s} works at ${o} as a ${p(ROLES)} on the ${p(TEAMS)} team.`] } },
  { predicate: 'prefers_drink', make: (s, p) => { const o = p(DRINKS); return [o, `${s} usually orders ${o} in the morning and avoids anything too sweet.`] } },
  { predicate: 'hobby', make: (s, p) => { const o = p(HOBBIES); return [o, `${s} spends most weekends on ${o}, mentioned during ${p(SOURCES)}.`] } },
  { predicate: 'has_pet', make: (s, p) => { const o = p(PETS); return [o, `${s} has ${o} at home and sometimes leaves early to walk or feed them.`] } },
  { predicate: 'allergic_to', make: (s, p) => { const o = p(ALLERGIES); return [o, `${s} is allergic to ${o}; keep it in mind when booking team lunches.`] } },
  { predicate: 'speaks', make: (s, p) => { const o = p(LANGS); return [o, `${s} speaks fluent ${o} and offered to help with translations for ${p(PROJECTS)}.`] } },
  { predicate: 'birthday_month', make: (s, p) => { const o = p(MONTHS); return [o, `${s} has a birthday in ${o}; the team usually celebrates with cake on a Friday.`] } },
  { predicate: 'leads_project', make: (s, p, y) => { const o = p(PROJECTS); return [o, `${s} leads ${o}, which is due to ship before the end of ${y + 1}.`] } },
  { predicate: 'reports_to', make: (s, p) => { const o = `${p(FIRST)} ${p(LAST)}`; return [o, `${s} reports to ${o} since the reorganisation of the ${p(TEAMS)} group.`] } },
]

function hex(rand: () => number, bytes: number): string {
  let out = ''
  for (let i = 0; i < bytes; i++) out += Math.floor(rand() * 256).toString(16).padStart(2, '0')
  return out
}

/** `count` fact rows from `seed`; content is 60-120 characters and unique (no write is a no-op re-assertion). */
export function factRows(count: number, seed = 0x5eed): FactRow[] {
  const rows: FactRow[] = []
  if (count <= 0) return rows
  for (const row of factRowStream(seed)) {
    rows.push(row)
    if (rows.length === count) break
  }
  return rows
}

/**
 * The rows of `factRows(n, seed)`, one at a time and without end: the million-fact bench
 * (bench/million-bench.ts) writes them chunk by chunk, so the page never holds a million rows
 * beside the store it measures. Only the set of contents seen (for uniqueness) grows.
 */
export function* factRowStream(seed = 0x5eed): Generator<FactRow, never> {
  const rand = prng(seed)
  const pick: Pick = (xs) => xs[Math.floor(rand() * xs.length)]!
  const baseMicros = Date.UTC(2026, 0, 1) * 1000
  const seen = new Set<string>()
  let i = 0
  for (;;) {
    const subject = `${pick(FIRST)} ${pick(LAST)}`
    const year = 2012 + Math.floor(rand() * 14)
    const template = pick(TEMPLATES)
    const [object, sentence] = template.make(subject, pick, year)
    let content = sentence
    if (content.length > 120) continue
    if (content.length < 60) content = `${content} Noted during ${pick(SOURCES)}.`
    if (seen.has(content)) continue
    seen.add(content)
    const importance = Math.round(rand() * 100) / 100
    const validFromMs = Date.UTC(year, Math.floor(rand() * 12), 1 + Math.floor(rand() * 28))
    const metadata = { subject, predicate: template.predicate, object, importance }
    yield {
      content,
      metadata,
      validFrom: new Date(validFromMs).toISOString(),
      record: {
        id: hex(rand, 16),
        kind: 'fact',
        tenant: null,
        body: {
          content,
          factId: hex(rand, 16),
          structuredId: hex(rand, 16),
          metadata,
          validFrom: validFromMs * 1000,
          writtenAt: baseMicros + i,
          supersedes: null,
          source: { writtenBy: null, signature: null, publicKey: null },
        },
        author: null,
        hlc: `${Math.floor(baseMicros / 1000).toString(16).padStart(12, '0')}.${i.toString(16).padStart(6, '0')}`,
      },
    }
    i++
  }
}

/** `count` varied queries: people, places, employers, habits, and a few that match nothing. */
export function benchQueries(count: number, seed = 0x9e77): string[] {
  const rand = prng(seed)
  const pick: Pick = (xs) => xs[Math.floor(rand() * xs.length)]!
  const shapes: Array<() => string> = [
    () => `where does ${pick(FIRST)} ${pick(LAST)} live?`,
    () => `who works at ${pick(COMPANIES)} on the ${pick(TEAMS)} team`,
    () => `what does ${pick(FIRST)} like to drink in the morning`,
    () => `people living in ${pick(CITIES)}`,
    () => `${pick(FIRST)} ${pick(HOBBIES)}`,
    () => `is anyone allergic to ${pick(ALLERGIES)}`,
    () => `who speaks ${pick(LANGS)}`,
    () => `who leads ${pick(PROJECTS)}`,
    () => `${pick(LAST)} birthday`,
    () => `${pick(FIRST)} reports to`,
    () => pick(['quantum chromodynamics lecture', 'mortgage refinancing rates', 'volcano eruption forecast']),
  ]
  return Array.from({ length: count }, (_, i) => shapes[i % shapes.length]!())
}
