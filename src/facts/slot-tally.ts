import { HUB_MIN_FACTS } from '../conflict/store/subject-name.js'
import { DAY_MS } from '../core/time.js'
import { terms } from './text.js'
import type { Version } from './version.js'

/** A name and a word told together, differently, on at least this many days is a thing told over time (store/recurring-slot.ts). */
export const RECURRING_DAYS = 3

const DAY_US = DAY_MS * 1000

/** One version the tally knows: who it opens with, its day and text, and its words once counted. */
interface Entry {
  /** tenant and name, the key prefix of its counts */
  readonly prefix: string
  readonly day: number
  readonly text: string
  /** null until the name's facts are counted (see `#countName`) */
  words: readonly string[] | null
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
 * tally, so a reopen's load rebuilds it): O(1) per change when told, the name read by the subject
 * tally. A fact's words are counted the first time a flag asks about its name, all of that name's
 * waiting facts at once, each once: an open or a bulk write tokenizes nothing (a lexical snapshot
 * spares an open the tokenizing, issue 31), and the words a write adds cost O(its words), paid once.
 */
export class SlotTally {
  /** ref -> its entry. */
  readonly #of = new Map<string, Entry>()
  /** tenant and name -> current facts that open with it. */
  readonly #opening = new Map<string, number>()
  /** tenant and name -> its facts not counted yet. */
  readonly #waiting = new Map<string, Map<string, Version>>()
  /** tenant, name and word -> what was told. */
  readonly #told = new Map<string, Told>()

  /**
   * Knows a version (once, however often it is told).
   * @param name - the name it opens with, as the subject tally read it (store/subject-name.ts); null for none
   */
  add(v: Version, name: string | null | undefined): void {
    if (!name || this.#of.has(v.ref)) return
    const prefix = `${v.tenant ?? ''}\u0000${name}\u0000`
    this.#of.set(v.ref, { prefix, day: Math.floor(v.body.validFrom / DAY_US), text: v.body.content, words: null })
    bump(this.#opening, prefix, 1)
    let waiting = this.#waiting.get(prefix)
    if (!waiting) this.#waiting.set(prefix, (waiting = new Map()))
    waiting.set(v.ref, v)
  }

  /** Forgets a version; a no-op when it is not known. */
  delete(ref: string): void {
    const e = this.#of.get(ref)
    if (!e) return
    this.#of.delete(ref)
    bump(this.#opening, e.prefix, -1)
    const waiting = this.#waiting.get(e.prefix)
    if (waiting?.delete(ref)) {
      if (waiting.size === 0) this.#waiting.delete(e.prefix)
      return
    }
    for (const w of e.words ?? []) {
      const told = this.#told.get(e.prefix + w)
      if (!told) continue
      bump(told.days, e.day, -1)
      bump(told.texts, e.text, -1)
      if (told.days.size === 0) this.#told.delete(e.prefix + w)
    }
  }

  /**
   * The word of `keys` (the detector's shared keys of a flagged pair, stems) told with the name
   * either version opens with, differently, on the most days, when that is RECURRING_DAYS or more
   * and the name opens HUB_MIN_FACTS facts or more; else null. The names the two open with are
   * their subject, not a thing said of it, and are not looked up.
   */
  recurring(a: Version, b: Version, keys: readonly string[]): { readonly name: string; readonly word: string; readonly days: number } | null {
    const [ea, eb] = [this.#of.get(a.ref), this.#of.get(b.ref)]
    const subjects = new Set<string>()
    for (const e of [ea, eb]) if (e) for (const s of subjectTerms(e.prefix)) subjects.add(s)
    let best: { name: string; word: string; days: number } | null = null
    for (const prefix of new Set([ea?.prefix, eb?.prefix])) {
      // A name that opens a handful of facts has no history of its own to tell.
      if (prefix === undefined || (this.#opening.get(prefix) ?? 0) < HUB_MIN_FACTS) continue
      this.#countName(prefix)
      // The detector's keys are stems as the index's terms are (irregular lemma, then Porter), so a
      // key is looked up as it is: stemming a stem again can change it ("greenhous" -> "greenh").
      for (const k of keys) {
        if (subjects.has(k)) continue
        const told = this.#told.get(prefix + k)
        // Said differently on as many days: one statement restated is a state that holds, not one that moves.
        const days = told ? Math.min(told.days.size, told.texts.size) : 0
        if (days >= RECURRING_DAYS && days > (best?.days ?? 0)) best = { name: prefix.split('\u0000')[1]!, word: k, days }
      }
    }
    return best
  }

  clear(): void {
    this.#of.clear()
    this.#opening.clear()
    this.#waiting.clear()
    this.#told.clear()
  }

  /** Counts the words of a name's waiting facts (numbers are values, not things: left out). */
  #countName(prefix: string): void {
    const waiting = this.#waiting.get(prefix)
    if (!waiting) return
    this.#waiting.delete(prefix)
    for (const v of waiting.values()) {
      const e = this.#of.get(v.ref)!
      e.words = [...new Set(terms(e.text))].filter((w) => !/\d/.test(w))
      for (const w of e.words) {
        let told = this.#told.get(prefix + w)
        if (!told) this.#told.set(prefix + w, (told = { days: new Map(), texts: new Map() }))
        bump(told.days, e.day, 1)
        bump(told.texts, e.text, 1)
      }
    }
  }
}

/** The name of a prefix as it is written and as an index term ("tomás", "tomas"). */
function subjectTerms(prefix: string): string[] {
  const name = prefix.split('\u0000')[1]!
  return [name, ...terms(name)]
}

/** Adds `by` to a count, dropping it at zero. */
function bump<K>(counts: Map<K, number>, key: K, by: number): void {
  const n = (counts.get(key) ?? 0) + by
  if (n > 0) counts.set(key, n)
  else counts.delete(key)
}
