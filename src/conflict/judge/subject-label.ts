import type { Reading } from '../read/reading.js'
import { itemLabels } from '../read/labels.js'
import { SENTENCE_BREAK } from '../read/statement.js'

// Where a sentence of a normalized text starts: where read/statement.ts `sentences` splits.
const SENTENCE_START = new RegExp(SENTENCE_BREAK.source, 'g')

/**
 * Whether the number written at `at` is the label of its sentence's subject ("room 204 has no
 * wifi", "bus 42 is on diversion"): it says which item the sentence is about, so it is no value
 * of an attribute, and another number in another text ("the big room on 5", "the 14 bus") is no
 * other answer to it. A label after the verb is a value ("the standup moved to room 4C").
 * cross28, issue 27.
 */
export function labelsTheSubject(r: Reading, at: number, text: string): boolean {
  if (at < 0) return false
  let start = 0
  for (const m of r.norm.matchAll(SENTENCE_START)) {
    const end = m.index + m[0].length
    if (end > at) break
    start = end
  }
  const sentence = r.norm.slice(start).trimStart()
  const [label] = itemLabels([sentence])
  const lead = r.norm.slice(start).length - sentence.length
  // The label must open the sentence as its subject, its verb next: "booked 2 nights", "biscuit
  // turns 5" read as "<noun> <label>" to labels.ts, but the number there is a count or an age.
  return !!label && label.label === text.toLowerCase() && at - start - lead < label.text.length &&
    SUBJECT_THEN_VERB.test(sentence.slice(label.text.length))
}

// What follows a subject: an auxiliary or a modal ("room 204 has no wifi", "bus 42 is late").
const SUBJECT_THEN_VERB = /^\s+(?:is|isn't|are|aren't|was|wasn't|were|has|hasn't|had|have|will|won't|can|can't|does|doesn't|did|didn't|should|must|needs|gets|got|stays|remains)\b/i
