import type { Reading } from './reading.js'

// An open question or a condition states nothing: "a review of whether or not the minister broke the
// code" says neither that he did nor that he did not; "asked if the shed has a lock" leaves the lock
// open. The reading drops such a clause's negations (reading.ts, clauseSpans); this says the same of
// a word the other side's negation or opposite meets there (public30, issue 27: ProSeCCo's "whether
// or not" flagged against a plain denial).
const OPEN_BEFORE = /\b(?:whether|if|unless)\b[^.;!?,()–—]*$/i

/** Whether the word at `at` stands in an open question or a condition of its clause. */
export function openQuestionAt(r: Reading, at: number): boolean {
  return OPEN_BEFORE.test(r.norm.slice(0, at))
}
