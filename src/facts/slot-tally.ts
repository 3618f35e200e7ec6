import { HUB_MIN_FACTS } from '../conflict/store/subject-name.js'
import { DAY_MS } from '../core/time.js'
import { terms } from './text.js'
import type { Subject } from './subject-tally.js'
import type { Version } from './version.js'

/** A name and a word told together, differently, on at least this many days is a thing told over time (store/recurring-slot.ts). */
export const RECURRING_DAYS = 3

const DAY_US = DAY_MS * 1000

/** A counted version: its words, day and text, what its delete takes back from the counts. */
interface Entry {
  /** tenant and name, the key prefix of its counts */
  readonly prefix: string
  readonly day: number
  readonly text: string
  readonly words: readonly string[]
}

/** A name's current facts not counted yet, by ref, in the order told; `stale` of them stopped being current since. */
interface Waiting {
  refs: string[]
  stale: number
}

/** What the store told of one name and word: day -> facts, text -> facts. */
interface Told {
  readonly days: Map<number, number>
  readonly texts: Map<string, number>
}

/**
 * On how many days, and in how many texts, the current free-text facts of a tenant told each word
 * with each name they open with (issue 27, store28): "Rosa swims twice a week" in March, "Rosa
 * swims every morning now" in June, "Rosa cannot swim until her shoulder heals" in September tell
 * Rosa's swimming on three days, three ways: a thing the store follows as it changes, not one
 * state said twice.
 *
 * Kept as facts become current and stop being so (the same `current` calls that feed the subject
 * tally, so a reopen's load rebuilds it), keyed by the subject tally's record of the name. A fact's
 * words are counted the first time a flag asks about its name, all of that name's waiting facts at
 * once, each once. Until then a fact is one slot of its name's list: no entry by ref, no key text
 * (open31: three Map entries, a record and a key string per fact were a fifth of an open's
 * JavaScript at 100k free-text facts). A fact that stops being current while it waits is left in
 * the list and dropped when the name is counted, or when such facts are half the list.
 */
export class SlotTally {
  /** The subject tally's record of the name a version opens with, undefined when it is not current. */
  readonly #subjectOf: (ref: string) => Subject | undefined
  /** name's record -> its facts not counted yet. */
  readonly #waiting = new Map<Subject, Waiting>()
  /** ref -> its counts, for the versions counted. */
  readonly #counted = new Map<string, Entry>()
  /** tenant, name and word -> what was told. */
  readonly #told = new Map<string, Told>()

  constructor(subjectOf: (ref: string) => Subject | undefined) {
    this.#subjectOf = subjectOf
  }

  /**
   * Knows a version as current (once, however often it is told).
   * @param subject - the subject tally's record of the name it opens with; none (or a record of no name) for none
   */
  add(v: Version, subject: Subject | undefined): void {
    if (!subject?.name || this.#counted.has(v.ref)) return
    let waiting = this.#waiting.get(subject)
    if (!waiting) this.#waiting.set(subject, (waiting = { refs: [], stale: 0 }))
    waiting.refs.push(v.ref)
  }

  /** Forgets a version: called before the subject tally forgets it; a no-op when it is not known. */
  delete(ref: string): void {
    const e = this.#counted.get(ref)
    if (e) {
      this.#counted.delete(ref)
      for (const w of e.words) {
        const told = this.#told.get(e.prefix + w)
        if (!told) continue
        bump(told.days, e.day, -1)
        bump(told.texts, e.text, -1)
        if (told.days.size === 0) this.#told.delete(e.prefix + w)
      }
      return
    }
    const subject = this.#subjectOf(ref)
    const waiting = subject && this.#waiting.get(subject)
    if (!waiting || ++waiting.stale * 2 <= waiting.refs.length) return
    // Half the list stopped being current: kept to the rest, so a name's list stays O(its current facts).
    waiting.refs = waiting.refs.filter((r) => r !== ref && this.#subjectOf(r) === subject)
    waiting.stale = 0
    if (waiting.refs.length === 0) this.#waiting.delete(subject!)
  }

  /**
   * The word of `keys` (the detector's shared keys of a flagged pair, stems) told with the name
   * either version opens with, differently, on the most days, when that is RECURRING_DAYS or more
   * and the name opens HUB_MIN_FACTS facts or more; else null. The names the two open with are
   * their subject, not a thing said of it, and are not looked up. `current` gives a current
   * version by ref (the words of a name's waiting facts are counted here, the first time).
   */
  recurring(a: Version, b: Version, keys: readonly string[], current: (ref: string) => Version | null): { readonly name: string; readonly word: string; readonly days: number } | null {
    // Names only: a noun hub ("the user", hub33) tells every topic of its notes on many days.
    const named = [this.#subjectOf(a.ref), this.#subjectOf(b.ref)].filter((s): s is Subject & { name: string } => !!s?.name && !s.name.includes(' '))
    const subjects = new Set<string>()
    for (const s of named) for (const t of [s.name, ...terms(s.name)]) subjects.add(t)
    let best: { name: string; word: string; days: number } | null = null
    for (const s of new Set(named)) {
      // A name that opens a handful of facts has no history of its own to tell.
      if (s.count < HUB_MIN_FACTS) continue
      const prefix = prefixOf(s)
      this.#countName(s, prefix, current)
      // The detector's keys are stems as the index's terms are (irregular lemma, then Porter), so a
      // key is looked up as it is: stemming a stem again can change it ("greenhous" -> "greenh").
      for (const k of keys) {
        if (subjects.has(k)) continue
        const told = this.#told.get(prefix + k)
        // Said differently on as many days: one statement restated is a state that holds, not one that moves.
        const days = told ? Math.min(told.days.size, told.texts.size) : 0
        if (days >= RECURRING_DAYS && days > (best?.days ?? 0)) best = { name: s.name, word: k, days }
      }
    }
    return best
  }

  clear(): void {
    this.#waiting.clear()
    this.#counted.clear()
    this.#told.clear()
  }

  /** Counts the words of a name's waiting facts still current with it, each once (numbers are values, not things: left out). */
  #countName(subject: Subject, prefix: string, current: (ref: string) => Version | null): void {
    const waiting = this.#waiting.get(subject)
    if (!waiting) return
    this.#waiting.delete(subject)
    for (const ref of waiting.refs) {
      const v = this.#counted.has(ref) || this.#subjectOf(ref) !== subject ? null : current(ref)
      if (!v) continue
      const e: Entry = { prefix, day: Math.floor(v.body.validFrom / DAY_US), text: v.body.content, words: [...new Set(terms(v.body.content))].filter((w) => !/\d/.test(w)) }
      this.#counted.set(v.ref, e)
      for (const w of e.words) {
        let told = this.#told.get(prefix + w)
        if (!told) this.#told.set(prefix + w, (told = { days: new Map(), texts: new Map() }))
        bump(told.days, e.day, 1)
        bump(told.texts, e.text, 1)
      }
    }
  }
}

/** The key prefix of a name's counts: its tenant and name. */
const prefixOf = (s: Subject): string => `${s.tenant}\u0000${s.name}\u0000`

/** Adds `by` to a count, dropping it at zero. */
function bump<K>(counts: Map<K, number>, key: K, by: number): void {
  const n = (counts.get(key) ?? 0) + by
  if (n > 0) counts.set(key, n)
  else counts.delete(key)
}
