import { differentAttributes } from '../attachment.js'
import { STOPWORDS } from '../../words/stopwords.js'
import type { Reading } from '../../read/reading.js'
import { sameStem } from '../../read/same-stem.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'

/**
 * Another identifier of the same shape in the same place, after a subject both texts name: "the
 * replica is in us-east-1" / "replica lives in eu-west-1", "invoices go to billing@acme.com" /
 * "send invoices to ap@acme.com". An identifier that labels its noun ("PR #518", "db-02 is down")
 * says which thing, not what is said of it, and is left alone.
 */
export function identifierSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const shape = (s: string): string => s.replace(/\p{L}+/gu, 'a').replace(/\d+/g, '0')
  const placed = (x: Reading, y: Reading): Reading['tokens'] => x.tokens.filter((t, i) => {
    // Amounts with their unit ("2pm", "16gb") are values, the value check's business.
    if (!t.identifier || !/^\p{L}/u.test(t.lower) || y.tokens.some((u) => u.stem === t.stem)) return false
    // Lower-case words joined by hyphens before a noun are an adjective ("long-form explanations",
    // "low-key birthdays"), not an identifier, though every such word has one shape; at the end of
    // a phrase they may name a value ("reply in plain-text", "sort by last-modified").
    if (/^\p{Ll}+(?:-\p{Ll}+)+$/u.test(x.norm.slice(t.start, t.end)) && beforeNoun(x, i)) return false
    const prev = x.tokens[i - 1]
    // After a function word, a verb, an update word ("still", "now") or a label ("region: us-east-1").
    const labelled = !!prev && /^\s*[:=]\s*$/.test(x.norm.slice(prev.end, t.start))
    if (!prev || !(labelled || STOPWORDS.has(prev.lower) || /^(?:still|now|currently)$/.test(prev.lower) || /^[a-z]+(?:s|ed)$/.test(prev.lower)) || prev.identifier) return false
    // The subject: a key both texts name before their identifier.
    return x.tokens.slice(0, i).some((u) => x.keys.has(u.stem) && y.tokens.some((v) => v.start < (y.tokens.find((w) => w.identifier && !x.tokens.some((z) => z.stem === w.stem))?.start ?? -1) && sameStem(v.stem, u.stem)))
  })
  // One identifier of a shape on each side ("us-east-1" / "eu-west-1"; an "s3" beside is another shape).
  const [pa, pb] = [placed(a, b), placed(b, a)]
  for (const x of pa) {
    const [ia, ib] = [pa.filter((t) => shape(t.lower) === shape(x.lower)), pb.filter((t) => shape(t.lower) === shape(x.lower))]
    // "reviewed PR 221" / "approved PR 223": said of two things, not two answers to one.
    if (ia.length === 1 && ib.length === 1 && !differentAttributes(a, ia[0]!.start, b, ib[0]!.start)) return { kind: 'substitution', reason: `different identifier in the same place: "${ia[0]!.lower}" vs "${ib[0]!.lower}"` }
  }
  return null
}

/** Whether the token at `i` stands right before a content word of its phrase (a noun it modifies). */
function beforeNoun(r: Reading, i: number): boolean {
  const t = r.tokens[i]!
  const n = r.tokens[i + 1]
  return !!n && /^\s+$/.test(r.norm.slice(t.end, n.start)) && !STOPWORDS.has(n.lower) && !/^\d/.test(n.lower) && r.content.has(n.stem)
}
