import { DEFAULT_CONFLICT_THRESHOLD, KEEP_CONFIDENCE } from '../conflict/threshold.js'
import type { TextConflictDetector } from '../conflict/judge/text-detector.js'
import { listedPair, sameClaim, type BeliefGraph, type EdgeEnd } from '../conflict/store/one-belief.js'
import type { LexicalIndex } from './lexical-index.js'
import type { Version } from './version.js'
import { DAY_MS } from '../core/time.js'
import { SubjectTally } from './subject-tally.js'
import { SlotTally } from './slot-tally.js'
import { byWrite } from './write-order.js'

/** One day in microseconds, the unit of a fact's valid time. */
const DAY_US = DAY_MS * 1000

/** Versions the catch-up after a load counts in one task (a few ms at 100k: issue 31, open39). */
const CATCH_UP_STEP = 2000

/** Runs `task` later, after the calls already waiting where the runtime can say so. */
function later(task: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: (t: () => void, o: { priority: string }) => Promise<unknown> } }).scheduler
  if (scheduler?.postTask) scheduler.postTask(task, { priority: 'background' }).catch(() => undefined)
  else setTimeout(task, 0)
}

/** How many lexical neighbours a new free-text fact is compared with. */
export const DEFAULT_NEIGHBOURS = 4

/** A fact written as text alone: no subject/predicate/object in its metadata. */
export function isFreeText(v: Version): boolean {
  const md = v.body.metadata
  return md['subject'] === undefined && md['predicate'] === undefined && md['object'] === undefined
}

const inWriteOrder = (a: unknown, b: unknown): number => byWrite(a as Version, b as Version)

const key = (x: unknown): string => (typeof x === 'string' ? x.normalize('NFKC').trim().toLowerCase().replace(/[\s_]+/g, ' ') : '')

/**
 * Whether the text detector judges a pair. Two structured facts about one subject and predicate
 * are the structured check's (single-valued predicates conflict there, multi-valued ones never
 * do); every other pair is judged by its text: free text against free text or against a structured
 * fact, and structured facts whose subject or predicate differ ("Aria lives_in Rome" / "Aria
 * moved_to Milan"), which is what pool memories become through src/pools/fact-view.ts.
 */
export function textDecides(a: Version, b: Version): boolean {
  if (isFreeText(a) || isFreeText(b)) return true
  const [x, y] = [a.body.metadata, b.body.metadata]
  return key(x['subject']) !== key(y['subject']) || key(x['predicate']) !== key(y['predicate'])
}

/**
 * Contradictions found in the text of current facts (free text above all), found by the model-free detector of src/conflict among
 * each new fact's nearest lexical neighbours (its rarest terms, BM25): a bounded number of pairs
 * per write, so a write stays cheap at 100k facts. Like every other part of FactState it is derived,
 * never stored: replaying the records rebuilds it (reload, another replica), removing a version
 * drops its pairs (hard delete), and nothing is ever settled automatically.
 *
 * Bounded means approximate: a contradiction with a fact that is not among the new fact's
 * neighbours when it is written is not found (docs/conflicts.md).
 */
export class FreeTextConflicts {
  /**
   * ref -> the refs it contradicts -> the detector's reason and confidence. Symmetric. Pairs below
   * the default threshold are kept (down to KEEP_CONFIDENCE) so a caller may ask for them
   * (`conflicts({ minConfidence })`) without judging the store again.
   */
  readonly #pairs = new Map<string, Map<string, Judged>>()
  /**
   * Current versions not compared yet. A write only queues its version: the comparison runs when
   * someone asks (conflicts() settles every queued version, a fact's conflictsWith settles that
   * fact), so a bulk write or a reload pays nothing until conflicts are read.
   */
  readonly #pending = new Set<string>()
  /** ref -> ref -> whether the two make one claim (`#sameClaim`). Symmetric, dropped with either side. */
  readonly #same = new Map<string, Map<string, boolean>>()
  /** Who the current free-text facts open with, per tenant (store/hub-subject.ts), kept as facts come and go. */
  readonly #subjects = new SubjectTally()
  /** On how many days each name was told with each word, per tenant (store/recurring-slot.ts), kept the same way. */
  readonly #slots = new SlotTally((ref) => this.#subjects.subjectOf(ref))
  /**
   * The current versions a load left uncounted and unqueued (`defer`), or null once caught up:
   * counted in steps after the load, what is left at the first call that reads the tallies or the queue.
   */
  #owed: OwedVersions | null = null
  /** The owed versions the catch-up counts (taken when it starts), how far it is, and refs queued meanwhile. */
  #backlog: readonly Version[] | null = null
  #next = 0
  #late: string[] = []
  #countedMeanwhile = false
  /** The running catch-up's token (its steps stop when this is another), null when none runs. */
  #steps: object | null = null
  #detector: TextConflictDetector | null
  #loading: Promise<void> | null = null
  readonly #neighbours: number

  constructor(options: { detector?: TextConflictDetector; neighbours?: number } = {}) {
    this.#detector = options.detector ?? null
    this.#neighbours = options.neighbours ?? DEFAULT_NEIGHBOURS
  }

  /**
   * Loads the detector (its word lists are a quarter of a facts-only worker, issue 12): the fact
   * store awaits this before a read when versions wait to be judged, so opening a store with no
   * free-text fact, or a page that only writes, never downloads it; queued versions wait in
   * `#pending` until then.
   */
  ready(): Promise<void> {
    if (this.#detector) return Promise.resolve()
    this.#loading ??= import('../conflict/judge/text-detector.js').then((m) => {
      this.#detector ??= new m.TextConflictDetector()
    })
    this.#loading.catch(() => (this.#loading = null))
    return this.#loading
  }

  /**
   * Compares a newly applied current version with its nearest neighbours among the current
   * versions of its tenant (`eligible` says which refs qualify; `textDecides` which pairs).
   */
  check(v: Version, lexical: LexicalIndex, eligible: (ref: string) => Version | null): void {
    const detector = this.#detector
    if (!detector) return
    this.#catchUp()
    // Ties in write order, which a reopen keeps (slots follow load order there).
    for (const ref of lexical.nearest(v.terms, this.#neighbours, v.ref, undefined, undefined, inWriteOrder)) {
      const other = eligible(ref)
      if (!other || !textDecides(v, other)) continue
      // The facts' valid times weigh too, in their order: moments of a diary written days apart, a
      // later state that tells a change (src/conflict/store/diary.ts, states.ts).
      const days = (v.body.validFrom - other.body.validFrom) / DAY_US
      const times = [other.body.validFrom / 1000, v.body.validFrom / 1000] as const
      let verdict = detector.atDates(detector.judge(other.body.content, v.body.content), other.body.content, v.body.content, days, times)
      // And who the store is about: a name most facts open with is weak evidence of one subject.
      const hub = verdict.confidence > 0 ? this.#subjects.sharedHub(v, other) : null
      if (hub) verdict = detector.atHub(verdict, other.body.content, v.body.content, hub.name, hub.share)
      // A listed value clash of two notes that share only the hub needs a sign of one attribute (rule 32).
      const only = verdict.conflict ? this.#subjects.hubOf(v, other) : null
      if (only) verdict = detector.atHubOnly(verdict, other.body.content, v.body.content, only.name)
      // And what the store tells over time: a thing told with one name on many days changes.
      const told = verdict.confidence > 0 && days !== 0 ? this.#slots.recurring(v, other, verdict.shared, eligible) : null
      if (told) verdict = detector.atRecurring(verdict, other.body.content, v.body.content, days, told.name, told.word, told.days)
      if (verdict.confidence < KEEP_CONFIDENCE) continue
      const judged = { reason: verdict.reason, confidence: verdict.confidence, kind: verdict.kind, shared: verdict.shared.length, words: sharedWords(detector, other.body.content, v.body.content) }
      this.#link(v.ref, other.ref, judged)
      this.#link(other.ref, v.ref, judged)
    }
  }

  /**
   * Counts (or uncounts) a version as current for the subject tally: called when a free-text
   * version becomes current or stops being current (superseded, deleted). O(1), no detector needed.
   */
  current(v: Version, isCurrent: boolean): void {
    // Owed and not started: the catch-up counts whatever is current then, this version included or not.
    if ((this.#owed && !this.#backlog) || !isFreeText(v)) return
    if (isCurrent) {
      // Started: a version of the backlog not reached yet is counted here, and passed over there.
      if (this.#backlog) this.#countedMeanwhile = true
      if (!this.#subjects.subjectOf(v.ref)) this.#slots.add(v, this.#subjects.add(v))
    } else {
      // The slot tally first: it finds a waiting fact's name through the subject tally.
      this.#slots.delete(v.ref)
      this.#subjects.delete(v.ref)
    }
  }

  /** Whether versions wait for a comparison (so a read must load the detector first). */
  get waiting(): boolean {
    // Owed versions all wait (not caught up here: the open's prefetch and a read's settle ask this).
    return this.#owed ? this.#owed.any() : this.#pending.size > 0
  }

  /** Queues a newly applied current version for comparison. */
  enqueue(ref: string): void {
    // While the backlog is counted, queued after it: the queue stays in write order.
    if (this.#backlog) this.#late.push(ref)
    else if (!this.#owed) this.#pending.add(ref)
  }

  /** Whether a version still waits for its comparison. */
  isPending(ref: string): boolean {
    this.#catchUp()
    return this.#pending.has(ref)
  }

  /**
   * Starts again from nothing (`clear`) and leaves counting and queueing to later (issue 31,
   * open39): a load applies every record of the store, and the subject and slot tallies plus the
   * queue were a Map or Set entry and a name read per fact, ~13% of the open's CPU at 100k, before
   * anyone asked for a conflict. Until the catch-up starts, `current` and `enqueue` do nothing and
   * no pair exists. It counts and queues `owed.current()` in write order, the order a handle that
   * wrote them queued them, so the listing after a reopen is the listing before it (the load reads
   * records by id, not in write order): in steps once the load is done (`catchUpSoon`), and
   * whatever is left at once by the first call that reads the tallies or the queue.
   */
  defer(owed: OwedVersions): void {
    this.clear()
    this.#owed = owed
  }

  /**
   * The end of a load: counts what is owed in steps of CATCH_UP_STEP versions, each a task of its
   * own at background priority where there is one (`scheduler.postTask`: a call that arrives
   * meanwhile runs first, it found the first retrieve after a Chromium cold open waiting for
   * every step of a timer), so the open resolves first and no call waits for more than one step.
   */
  catchUpSoon(): void {
    if (!this.#owed || this.#steps) return
    // Nothing loaded (a new store): nothing owed, its writes count as they come.
    if (!this.#owed.any()) return this.#stopCatchUp()
    const steps = (this.#steps = {})
    const step = (): void => {
      if (this.#steps !== steps) return
      if (this.#owed && this.#take(CATCH_UP_STEP)) later(step)
      else this.#steps = null
    }
    later(step)
  }

  /** Takes back the steps to come (a closing store): what is owed stays owed, for a read to count. */
  stopSteps(): void {
    this.#steps = null
  }

  /** Counts and queues all that is still owed (`defer`); O(current versions) once, then nothing. */
  #catchUp(): void {
    if (this.#owed) this.#take(Infinity)
  }

  /** Counts and queues up to `n` owed versions; whether some are left. */
  #take(n: number): boolean {
    const owed = this.#owed!
    // The versions current when it starts; those that change later are told by `current`.
    const backlog = (this.#backlog ??= [...owed.current()])
    const end = Math.min(backlog.length, this.#next + n)
    for (let i = this.#next; i < end; i++) {
      const v = backlog[i]!
      if (!owed.isCurrent(v)) continue
      // A look-up by ref only when some version was counted since the start (nearly never).
      if (isFreeText(v) && !(this.#countedMeanwhile && this.#subjects.subjectOf(v.ref))) this.#slots.add(v, this.#subjects.add(v))
      this.#pending.add(v.ref)
    }
    this.#next = end
    if (end < backlog.length) return true
    for (const ref of this.#late) this.#pending.add(ref)
    this.#stopCatchUp()
    return false
  }

  #stopCatchUp(): void {
    this.stopSteps()
    this.#owed = null
    this.#backlog = null
    this.#next = 0
    this.#late = []
    this.#countedMeanwhile = false
  }

  /** Compares one queued version now (see `check`); a no-op when it is not queued. */
  settle(ref: string, lexical: (v: Version) => LexicalIndex | undefined, eligible: (ref: string) => Version | null): void {
    // Not loaded yet (ready() not awaited): the version stays queued rather than judged by nothing.
    if (!this.#detector) return
    this.#catchUp()
    if (!this.#pending.delete(ref)) return
    const v = eligible(ref)
    const lex = v && lexical(v)
    if (v && lex) this.check(v, lex, eligible)
  }

  /** Compares every queued version, oldest first. */
  settleAll(lexical: (v: Version) => LexicalIndex | undefined, eligible: (ref: string) => Version | null): void {
    if (this.#detector) this.#catchUp()
    for (const ref of [...this.#pending]) this.settle(ref, lexical, eligible)
  }

  /** Drops every pair of a removed version. */
  remove(ref: string): void {
    // Owed and not started: nothing is counted, queued or paired yet, and the catch-up reads only what is current.
    if (this.#owed && !this.#backlog) return
    this.#pending.delete(ref)
    this.#slots.delete(ref)
    this.#subjects.delete(ref)
    for (const other of this.#same.get(ref)?.keys() ?? []) this.#same.get(other)?.delete(ref)
    this.#same.delete(ref)
    const partners = this.#pairs.get(ref)
    if (!partners) return
    for (const other of partners.keys()) {
      const back = this.#pairs.get(other)
      back?.delete(ref)
      if (back?.size === 0) this.#pairs.delete(other)
    }
    this.#pairs.delete(ref)
  }

  /**
   * The refs a version contradicts at `minConfidence` or above (default: the detector's default
   * threshold), with reasons (current or not: the caller filters).
   */
  *partners(ref: string, minConfidence = DEFAULT_CONFLICT_THRESHOLD): Generator<readonly [string, Judged]> {
    for (const [other, judged] of this.#pairs.get(ref) ?? EMPTY) if (judged.confidence >= minConfidence) yield [other, judged]
  }

  /** Every pair at `minConfidence` or above once, the smaller ref first. */
  *pairs(minConfidence = DEFAULT_CONFLICT_THRESHOLD): Generator<readonly [string, string, Judged]> {
    for (const [a, partners] of this.#pairs) for (const [b, judged] of partners) if (a < b && judged.confidence >= minConfidence) yield [a, b, judged]
  }

  /**
   * The refs a current version is listed against at `minConfidence` or above: `partners` less the
   * flags against a restatement of a belief the version has a surer flag against
   * (src/conflict/store/one-belief.ts). `current` gives a ref's current version, or null.
   */
  *listedPartners(ref: string, current: (ref: string) => Version | null, minConfidence = DEFAULT_CONFLICT_THRESHOLD): Generator<readonly [string, Judged]> {
    const g = this.#graph(current)
    for (const [other, judged] of this.partners(ref, minConfidence)) if (!current(ref) || !current(other) || listedPair(g, ref, other, judged)) yield [other, judged]
  }

  /** `pairs` less the flags against a restatement (see `listedPartners`); pairs with a side not current are skipped. */
  *listedPairs(current: (ref: string) => Version | null, minConfidence = DEFAULT_CONFLICT_THRESHOLD): Generator<readonly [string, string, Judged]> {
    const g = this.#graph(current)
    for (const [a, b, judged] of this.pairs(minConfidence)) if (current(a) && current(b) && listedPair(g, a, b, judged)) yield [a, b, judged]
  }

  clear(): void {
    this.#stopCatchUp()
    this.#pairs.clear()
    this.#pending.clear()
    this.#same.clear()
    this.#subjects.clear()
    this.#slots.clear()
  }

  #graph(current: (ref: string) => Version | null): BeliefGraph {
    const end = (ref: string): EdgeEnd | null => {
      const v = current(ref)
      return v && { content: v.body.content }
    }
    return { partners: (ref) => this.#pairs.get(ref) ?? EMPTY, current: end, sameClaim: (x, y) => this.#sameClaim(x, y, current) }
  }

  /**
   * Whether two current statements make one claim, judged once per pair (the texts of a ref never
   * change) and forgotten with either side (`remove`). Asked only of two statements one version
   * contradicts in the same way, so it costs a few judgements per write, not per listing.
   */
  #sameClaim(x: string, y: string, current: (ref: string) => Version | null): boolean {
    const known = this.#same.get(x)?.get(y)
    if (known !== undefined) return known
    const [vx, vy] = [current(x), current(y)]
    if (!this.#detector || !vx || !vy) return false
    // The earlier fact first, as `check` judges: the detector reads a pair in order, and refs are
    // random, so an order by ref listed one store's flags differently from run to run (issue 27, det35).
    const [p, q] = byWrite(vx, vy) <= 0 ? [vx, vy] : [vy, vx]
    const same = sameClaim(this.#detector.judge(p.body.content, q.body.content))
    for (const [a, b] of [[x, y], [y, x]] as const) {
      let m = this.#same.get(a)
      if (!m) this.#same.set(a, (m = new Map()))
      m.set(b, same)
    }
    return same
  }

  #link(a: string, b: string, reason: Judged): void {
    let m = this.#pairs.get(a)
    if (!m) this.#pairs.set(a, (m = new Map()))
    m.set(b, reason)
  }
}

/** The current versions a load left to count (`FreeTextConflicts.defer`), asked at the catch-up. */
export interface OwedVersions {
  /** Whether any version is there (O(1): `waiting` asks it before every read). */
  any(): boolean
  /** Every current version, in write order (`byWrite`). */
  current(): Iterable<Version>
  /** Whether a version is still current (the catch-up passes over those that stopped while it waited). */
  isCurrent(v: Version): boolean
}

/** What the detector said of a pair. */
export interface Judged {
  readonly reason: string
  /** In [0, 1]; listed by default at DEFAULT_CONFLICT_THRESHOLD and above. */
  readonly confidence: number
  /** The detector's kind of contradiction (`TextConflictVerdict.kind`). */
  readonly kind: string
  /** How many key entities the two texts share. */
  readonly shared: number
  /** How many content words (stems) the two texts' claims share. */
  readonly words: number
}

/** Content words (stems) two texts' claims share; both readings are the detector's cached ones. */
function sharedWords(detector: TextConflictDetector, a: string, b: string): number {
  const [x, y] = [detector.read(detector.statement(a).text).content, detector.read(detector.statement(b).text).content]
  let n = 0
  for (const w of x) if (y.has(w)) n++
  return n
}

const EMPTY: ReadonlyMap<string, Judged> = new Map()
