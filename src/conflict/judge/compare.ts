import { align, prefixNegated, sameSlot, sharedGroup } from './align.js'
import type { Claim, Unit } from '../read/claim.js'
import { compareValues } from '../read/values.js'

/**
 * How two claims about the same topic differ, and whether they contradict each other.
 *
 * The rule is "one slot, two incompatible fillers": two observations conflict when, once their
 * wording is aligned, they differ in exactly one place and that place is a contradiction: another
 * value of the same kind (3pm/4pm, $5/$7, 3 nodes/5 nodes), the opposite polarity (supports / does
 * not support, up/down), or another name in the same slot (PostgreSQL/MySQL). A second, independent
 * difference means they talk about two things (Alice's flight at 3pm, Bob's at 5pm; open on Mondays,
 * closed on Tuesdays), and a difference in kind (a time against a duration) means two attributes
 * of one thing (starts at 3pm, lasts 2 hours). Equal values in other forms are not differences.
 */
export type DifferenceKind =
  /** Same kind of value, different amount: a contradiction. */
  | 'value'
  /** Opposite polarity on a shared statement: a contradiction. */
  | 'polarity'
  /** Different names in one slot: a contradiction. */
  | 'name'
  /** A different single word at the end ("is main" / "is master"): a contradiction. */
  | 'word'
  /** Different ordinary words elsewhere (a paraphrase, or a different subject): not a contradiction by itself. */
  | 'wording'
  /** Different kinds of information in one slot (a time against a place): two attributes. */
  | 'attribute'
  /** One observation adds to the other ("also speaks French"). */
  | 'additive'

export interface Difference {
  readonly kind: DifferenceKind
  readonly a: string
  readonly b: string
}

const CONTRADICTIONS: ReadonlySet<DifferenceKind> = new Set(['value', 'polarity', 'name', 'word'])

export interface ClaimComparison {
  readonly differences: readonly Difference[]
  readonly conflict: boolean
}

/** Compares two claims assumed to be about the same topic (the caller checks similarity). */
export function compareClaims(ca: Claim, cb: Claim): ClaimComparison {
  const [a, b] = [withContinuation(ca, cb), withContinuation(cb, ca)]
  const { pairs, gaps } = align(a.units, b.units)
  const matched: Array<readonly [number, number]> = [...pairs]
  const diffs: Difference[] = []

  // Units that moved ("on weekdays the store closes" / "the store closes on weekdays") still match.
  const restA = gaps.flatMap((g) => g.a)
  const restB = new Set(gaps.flatMap((g) => g.b))
  const moved = new Set<string>()
  for (const i of restA) {
    for (const j of restB) {
      if (sameSlot(a.units[i]!, b.units[j]!)) {
        matched.push([i, j])
        moved.add(`a${i}`).add(`b${j}`)
        restB.delete(j)
        break
      }
    }
  }

  // Aligned values must agree.
  for (const [i, j] of matched) {
    const [u, v] = [a.units[i]!, b.units[j]!]
    if (u.kind !== 'value' || v.kind !== 'value') continue
    const cmp = compareValues(u.value!, v.value!)
    if (cmp === 'differ') diffs.push({ kind: 'value', a: u.surface, b: v.surface })
    else if (cmp === 'incomparable') diffs.push({ kind: 'attribute', a: u.surface, b: v.surface })
  }

  // What is left between the anchors is either a substitution (both sides) or an insertion (one side).
  const insertedA: Unit[] = []
  const insertedB: Unit[] = []
  gaps.forEach((g, k) => {
    // Update and price verbs attach the answer ("moved to 10:00" is "is at 10:00"): never a difference.
    const ga = g.a.filter((i) => !moved.has(`a${i}`) && !a.units[i]!.light).map((i) => a.units[i]!)
    const gb = g.b.filter((j) => !moved.has(`b${j}`) && !b.units[j]!.light).map((j) => b.units[j]!)
    if (ga.length === 0 || gb.length === 0) {
      insertedA.push(...ga)
      insertedB.push(...gb)
      return
    }
    diffs.push(...substitution(ga, gb, k === gaps.length - 1 && pairs.length > 0))
  })
  if (insertedA.some((u) => u.additive) || insertedB.some((u) => u.additive)) diffs.push({ kind: 'additive', a: '', b: '' })
  // A name on each side in different places ("the auth provider is Auth0" / "we use Okta as the auth provider").
  const namesA = insertedA.filter((u) => u.named)
  const namesB = insertedB.filter((u) => u.named)
  if (namesA.length && namesB.length) diffs.push({ kind: 'name', a: text(namesA), b: text(namesB) })
  else if (insertedA.some((u) => u.kind === 'value') && insertedB.some((u) => u.kind === 'value')) {
    diffs.push({ kind: 'attribute', a: text(insertedA), b: text(insertedB) })
  }

  const pol = polarity(a, b, matched)
  if (pol) diffs.push(pol)

  return { differences: diffs, conflict: diffs.length === 1 && CONTRADICTIONS.has(diffs[0]!.kind) }
}

function substitution(ga: readonly Unit[], gb: readonly Unit[], last: boolean): Difference[] {
  const namedA = ga.filter((u) => u.named)
  const namedB = gb.filter((u) => u.named)
  const plainA = ga.filter((u) => !u.named && u.kind === 'word')
  const plainB = gb.filter((u) => !u.named && u.kind === 'word')
  const out: Difference[] = []
  if (namedA.length && namedB.length) {
    out.push({ kind: 'name', a: text(namedA), b: text(namedB) })
    if (plainA.length && plainB.length) out.push({ kind: 'wording', a: text(plainA), b: text(plainB) })
    return out
  }
  if (ga.some((u) => u.kind === 'value') || gb.some((u) => u.kind === 'value')) {
    return [{ kind: 'attribute', a: text(ga), b: text(gb) }]
  }
  const single = ga.length === 1 && gb.length === 1
  return [{ kind: single && last ? 'word' : 'wording', a: text(ga), b: text(gb) }]
}

/**
 * Negation parity over the parts both claims share: markers ("not", "never", "no"), negating
 * prefixes ("unlocked") and the negative pole of a polarity group both use ("closed" against
 * "open"). A negation only counts when what it negates appears in the other claim, so "does not
 * eat meat" and "is vegetarian" do not disagree.
 */
function polarity(a: Claim, b: Claim, matched: ReadonlyArray<readonly [number, number]>): Difference | null {
  let pa = a.negations.length
  let pb = b.negations.length
  let anchored = false
  const alignedA = new Set(matched.map(([i]) => i))
  const alignedB = new Set(matched.map(([, j]) => j))
  for (const [i, j] of matched) {
    const [u, v] = [a.units[i]!, b.units[j]!]
    if (u.kind !== 'word') continue
    const group = sharedGroup(u, v)
    if (group) {
      anchored = true
      if (u.polarity.find((p) => p.group === group)!.pole < 0) pa++
      if (v.polarity.find((p) => p.group === group)!.pole < 0) pb++
      continue
    }
    const pre = prefixNegated(u, v)
    if (pre !== 0) {
      anchored = true
      if (pre > 0) pb++
      else pa++
    }
  }
  if (a.negations.some((n) => alignedA.has(n.head)) || b.negations.some((n) => alignedB.has(n.head))) anchored = true
  if (!anchored || pa % 2 === pb % 2) return null
  const neg = (c: Claim): string => c.negations.map((n) => n.unit.surface).join(' ')
  return { kind: 'polarity', a: neg(a) || 'affirmed', b: neg(b) || 'affirmed' }
}

/**
 * "no longer" is a negation, unless the other claim speaks of continuation itself ("still
 * supported" / "support has ended"): then it is that group's negative pole, matched word for word.
 */
function withContinuation(c: Claim, other: Claim): Claim {
  const nl = c.negations.filter((n) => n.unit.canon === 'nolonger')
  if (nl.length === 0 || !other.units.some((u) => u.polarity.some((p) => p.group === 'continuation'))) return c
  const units = [...c.units]
  const negations = c.negations.filter((n) => n.unit.canon !== 'nolonger').map((n) => ({ ...n }))
  for (const n of nl) {
    const at = n.head < 0 ? units.length : n.head
    units.splice(at, 0, { ...n.unit, kind: 'word' })
    for (const m of negations) if (m.head >= at) m.head++
  }
  return { ...c, units, negations }
}

function text(units: readonly Unit[]): string {
  return units.map((u) => u.surface).join(' ')
}
