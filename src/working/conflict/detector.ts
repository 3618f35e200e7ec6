import { cosine, type Embedder } from '../../core/embedder.js'
import { invalidArgument } from '../../core/errors.js'
import { hashEmbedder } from '../hash-embedder.js'
import { parseClaim, type Claim } from '../../conflict/read/claim.js'
import { compareClaims, type Difference } from '../../conflict/judge/compare.js'
import { TextConflictDetector, type CheckName, type TextConflictVerdict } from '../../conflict/judge/text-detector.js'

/** An observation prepared for conflict checks: its parsed claim and the embedding of its topic. */
export interface Analysis {
  readonly claim: Claim
  readonly vector: Float32Array
}

/** The detector's answer for one pair. */
export interface ConflictVerdict {
  readonly conflict: boolean
  /** Cosine similarity of the two topics (the claims with their answers masked). */
  readonly similarity: number
  /** Human-readable, e.g. `different time: "3pm" vs "4pm"`; stored as the conflict's reason. */
  readonly reason: string
  readonly differences: readonly Difference[]
  /**
   * How sure the free-text rules are, in [0, 1] (docs/conflicts.md, "Confidence"): of the flag for
   * a conflict, of the strongest sub-threshold verdict otherwise (0: nothing fired). 1 for a flag
   * when the free-text detector is off.
   */
  readonly confidence: number
}

export interface ConflictDetectorOptions {
  /** Embeds topics; default `hashEmbedder()`. */
  readonly embedder?: Embedder
  /** Topic similarity at or above which two observations are about the same thing. Default 0.7 (FR-001.3). */
  readonly threshold?: number
  /**
   * The model-free free-text detector run on pairs the topic embedding does not settle as a
   * conflict (src/conflict/judge/text-detector.ts); `false` turns it off. Default: on.
   */
  readonly text?: TextConflictDetector | false
}

/** Bump when claim parsing changes what is embedded, so stored topic vectors are recomputed. */
const TOPIC_VERSION = 'topic-v1'

/**
 * Decides whether two observations are "same topic, incompatible claim" (FR-001.3):
 *
 * 1. Same topic: each observation is reduced to its topic, the claim with its answer masked
 *    ("The meeting is at 3pm" -> "meet"; values, names and negation removed, synonyms and antonyms
 *    folded to one word), the topics are embedded with the injected `Embedder`, and their cosine
 *    similarity must reach the threshold (0.7 by default, the spec's figure).
 * 2. Incompatible claim: the two claims, aligned word by word, differ in exactly one slot and that
 *    difference is a contradiction (see compare.ts): another value of one kind, opposite polarity,
 *    or another name. Values are normalized first, so "3pm" agrees with "15:00" and "$5" with "five dollars".
 *
 * Agents and belief types are checked by the working memory, not here. Parsing is cached per text.
 *
 * @example
 * const detector = new ConflictDetector()
 * const [a, b] = await detector.analyze(['Meeting at 3pm', 'Meeting at 4pm'])
 * detector.compare(a!, b!).conflict // true
 */
export class ConflictDetector {
  readonly embedder: Embedder
  readonly threshold: number
  readonly #claims = new Map<string, Claim>()
  readonly #text: TextConflictDetector | null

  constructor(options: ConflictDetectorOptions = {}) {
    this.embedder = options.embedder ?? hashEmbedder()
    this.threshold = assertThreshold(options.threshold ?? 0.7)
    this.#text = options.text === false ? null : (options.text ?? new TextConflictDetector())
  }

  /** Names the kind of vector `analyze` makes; stored vectors with another id are recomputed. */
  get vectorId(): string {
    return `${this.embedder.id}/${TOPIC_VERSION}`
  }

  /** Parses a text (cached). */
  claim(text: string): Claim {
    let c = this.#claims.get(text)
    if (!c) {
      c = parseClaim(text)
      if (this.#claims.size >= 4096) this.#claims.delete(this.#claims.keys().next().value!)
      this.#claims.set(text, c)
    }
    return c
  }

  /** Parses and embeds texts. */
  async analyze(texts: readonly string[]): Promise<Analysis[]> {
    const claims = texts.map((t) => this.claim(t))
    const vectors = await this.embedder.embed(claims.map((c) => c.topic))
    return claims.map((claim, i) => ({ claim, vector: vectors[i]! }))
  }

  /** An analysis from a text and a vector computed earlier by `analyze` (e.g. read back from storage). */
  withVector(text: string, vector: Float32Array): Analysis {
    return { claim: this.claim(text), vector }
  }

  /** Judges one pair; synchronous and cheap (microseconds), so it can run inside a storage transaction. */
  compare(a: Analysis, b: Analysis, threshold: number = this.threshold): ConflictVerdict {
    const similarity = a.claim.topic === b.claim.topic && a.claim.topic !== '' ? 1 : cosine(a.vector, b.vector)
    // Issue 27's precision rules hold here too: no flag where a side makes no claim, where labels
    // name two items ("Ticket 123" / "Ticket 456"), or where two speakers each speak of themselves.
    const gate = this.#text?.gate(a.claim.text, b.claim.text)
    if (gate) return { conflict: false, similarity, reason: gate.reason, differences: [], confidence: 0 }
    const claims = similarity >= threshold ? compareClaims(a.claim, b.claim) : null
    // The claim comparator reads values without hedges ("about 3 miles"); when its only difference
    // is a value that the free-text reading finds equal after conversion, the pair agrees.
    const overruled = claims?.conflict && claims.differences[0]!.kind === 'value' && this.#text?.valuesAgree(a.claim.text, b.claim.text)
    // Issue 27: a flag of the claim comparator meets the rules a fact's flag meets (the subject
    // gates and the confidence threshold of the free-text detector), so working memory is as
    // precise as facts ("Gina's favorite dance style is contemporary" / "Jon's ..." is two people).
    let weighed = 0
    if (claims?.conflict && !overruled) {
      const reason = describe(claims.differences)
      const found = this.#text?.weighFound(a.claim.text, b.claim.text, { ...FOUND[claims.differences[0]!.kind]!, reason })
      if (!found || found.conflict) return { conflict: true, similarity, reason: found?.reason ?? reason, differences: claims.differences, confidence: found?.confidence ?? 1 }
      weighed = found.confidence
    }
    // Realistic text rarely passes a whole-sentence similarity gate ("standup starts at 9:30" /
    // "standup is at 10 every morning"): the free-text detector gates on shared key entities instead.
    const text = this.#text?.judge(a.claim.text, b.claim.text)
    if (text?.conflict) return { conflict: true, similarity, reason: text.reason, differences: [], confidence: text.confidence }
    const confidence = Math.max(weighed, text?.confidence ?? 0)
    if (!claims) return { conflict: false, similarity, reason: 'different topics', differences: [], confidence }
    return { conflict: false, similarity, reason: describe(claims.differences), differences: claims.differences, confidence }
  }
}

/** The free-text check whose gates and confidence a comparator flag of each kind meets. */
const FOUND: Partial<Record<Difference['kind'], { readonly check: CheckName; readonly kind: Exclude<TextConflictVerdict['kind'], 'none' | 'unrelated'> }>> = {
  value: { check: 'value', kind: 'value' },
  polarity: { check: 'antonym', kind: 'antonym' },
  name: { check: 'substitution', kind: 'substitution' },
  word: { check: 'substitution', kind: 'substitution' },
}

function describe(diffs: readonly Difference[]): string {
  if (diffs.length === 0) return 'same claim'
  return diffs
    .map((d) => {
      switch (d.kind) {
        case 'value':
          return `different value: "${d.a}" vs "${d.b}"`
        case 'polarity':
          return `opposite polarity: ${d.a} vs ${d.b}`
        case 'name':
          return `different name: "${d.a}" vs "${d.b}"`
        case 'word':
          return `different answer: "${d.a}" vs "${d.b}"`
        case 'additive':
          return 'one adds to the other'
        default:
          return `different ${d.kind}: "${d.a}" vs "${d.b}"`
      }
    })
    .join('; ')
}

export function assertThreshold(t: unknown, field = 'threshold'): number {
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1) throw invalidArgument(field, 'must be a number in [0, 1]')
  return t
}
