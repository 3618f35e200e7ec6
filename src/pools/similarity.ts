import { memoByString } from '../core/string-memo.js'
import type { MemoryPayload } from './records.js'

/**
 * When two memories say the same thing (duplicates), nearly the same thing (near-duplicates, which
 * autoMerge folds together) or contradicting things (conflicts). Text is compared after NFKC,
 * lower-casing, and treating `_`, `-` and runs of spaces alike, so `bullet_points` equals
 * `Bullet points`; similarity is the Jaccard index of the word sets.
 *
 * Subjects, predicates and objects recur across memories: each distinct text is normalized once. A
 * join's fact view keys every memory for duplicates, four texts each: NFKC and a regex per text were
 * most of that key (issue 31, sixth round). A context (a sentence, over 40 characters) is normalized each time.
 */
export const norm: (s: string) => string = memoByString((s) => s.normalize('NFKC').toLowerCase().replace(/[\s_-]+/g, ' ').trim(), { longest: 40 })

/** A value as similarity compares it: equal texts are identical (similarity 1). */
export const text = (v: string | number | boolean | null): string => (v === null ? '' : norm(String(v)))

/** The word set of a `text`. */
export function words(v: string): Set<string> {
  return new Set(v.split(/[^\p{L}\p{N}]+/u).filter(Boolean))
}

/** Jaccard index of two word sets (of texts that differ); two empty sets are identical (1). */
export function jaccard(wa: ReadonlySet<string>, wb: ReadonlySet<string>): number {
  let both = 0
  for (const w of wa) if (wb.has(w)) both++
  const union = wa.size + wb.size - both
  return union === 0 ? 1 : both / union
}

/** Jaccard index of the word sets; two empty texts are identical (1). */
export function similarity(a: string | number | boolean | null, b: string | number | boolean | null): number {
  const x = text(a), y = text(b)
  return x === y ? 1 : jaccard(words(x), words(y))
}

// Payloads are immutable once stored: their keys are computed once.
const dupKeys = new WeakMap<MemoryPayload, string>()
const slotKeys = new WeakMap<MemoryPayload, string>()

/** Equal keys mean duplicates: same type and the same normalized subject, predicate, object, context. */
export function duplicateKey(p: MemoryPayload): string {
  let k = dupKeys.get(p)
  if (k === undefined) dupKeys.set(p, (k = duplicateKeyOf(p.type, p.subject, p.predicate, p.object, p.context)))
  return k
}

/** `duplicateKey` of a memory with these fields (the fact view looks memories up by what a fact's metadata says). */
export function duplicateKeyOf(type: string, subject: string, predicate: string, object: string | number | boolean | null, context: string | null): string {
  return [type, norm(subject), norm(predicate), text(object), text(context)].join('\u001f')
}

/** The "slot" a memory fills: subject, predicate and context. Two different objects in one slot contradict. */
export function slotKey(p: MemoryPayload): string {
  let k = slotKeys.get(p)
  if (k === undefined) slotKeys.set(p, (k = [norm(p.subject), norm(p.predicate), text(p.context)].join('\u001f')))
  return k
}

export function nearDuplicate(a: MemoryPayload, b: MemoryPayload, threshold: number): boolean {
  return (
    a.type === b.type && norm(a.subject) === norm(b.subject) && norm(a.predicate) === norm(b.predicate) &&
    similarity(a.object, b.object) >= threshold && similarity(a.context, b.context) >= threshold
  )
}

export function contradicts(a: MemoryPayload, b: MemoryPayload, threshold: number, multiValued: ReadonlySet<string>): boolean {
  if (slotKey(a) !== slotKey(b) || multiValued.has(norm(a.predicate))) return false
  return similarity(a.object, b.object) < threshold
}
