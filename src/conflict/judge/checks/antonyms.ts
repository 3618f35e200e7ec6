import { differentObjects, differentQualifiers } from '../attachment.js'
import type { Reading } from '../../read/reading.js'
import type { Signal } from '../signal.js'
import { differentPlaces } from './places.js'
import { openQuestionAt } from '../../read/open-question.js'
import { sharedObject } from './preferences.js'
import { FUTURE_BEFORE, NOUN_FORM, SOUGHT_BEFORE, START_DATE } from '../../words/sequence.js'

// Opposite states and outcomes: the antonym groups of words/antonyms.ts and WordNet's, as a
// reading found them (read/reading.ts, `poles`).

/** Opposite poles of one antonym group: approved/rejected, on/off, finished/still running. */
export function antonymSignal(a: Reading, b: Reading): Signal | null {
  for (const [group, pa] of a.poles) {
    const pb = b.poles.get(group)
    if (!pb) continue
    const pure = (ps: typeof pa, pole: number): boolean => ps.every((p) => p.pole === pole)
    for (const pole of [1, -1] as const) {
      const aPure = pure(pa, pole) && pb.some((p) => p.pole === -pole)
      const bPure = pure(pb, pole) && pa.some((p) => p.pole === -pole)
      if (!aPure && !bPure) continue
      // "opens at 9" / "opens at 9am and closes at 9pm": the other side states this pole too.
      // (Only where the pole is qualified by a time: "60% done" beside "still running" is no opening hour.)
      const timed = (r: Reading, end: number): boolean => /^\s*(?:at|from|until|till|by|on)?\s*(?:\d|noon|midnight)/i.test(r.norm.slice(end))
      if (group !== 'preference' && ((aPure && timed(a, pa[0]!.end) && pb.some((p) => p.pole === pole)) || (bPure && timed(b, pb[0]!.end) && pa.some((p) => p.pole === pole)))) continue
      if (group === 'preference' && !sharedObject(a, b)) continue
      const ea = (aPure ? pa[0] : pa.find((p) => p.pole === -pole))!
      const eb = (bPure ? pb[0] : pb.find((p) => p.pole === -pole))!
      if (a.pastAt(ea.end - 1) !== b.pastAt(eb.end - 1)) continue
      // "wants her library to open on Sundays", "her goal is to finish": a wish states no pole.
      if (group !== 'preference' && (wished(a, ea) || wished(b, eb))) continue
      // "asked if the shed has a lock": an open question states no pole (read/open-question.ts).
      if (openQuestionAt(a, ea.end - ea.word.length) || openQuestionAt(b, eb.end - eb.word.length)) continue
      // "is currently closed on Sundays" / "will open on Sundays starting in July": a change planned
      // from a date follows the state before it (a sequence); "now opens" or a future on both sides clash.
      if (group !== 'preference' && planned(a, ea) !== planned(b, eb) && (dated(a, ea) || dated(b, eb))) continue
      // "accepts credit cards" / "does not accept checks": opposite verbs about two objects.
      if (differentObjects(a, ea.end, b, eb.end, group === 'skill') || differentQualifiers(a, ea.end, b, eb.end) || differentPlaces(a, b)) continue
      const [wa, wb] = [ea.word, eb.word]
      return { kind: group === 'preference' ? 'preference' : 'antonym', reason: `opposite ${group}: "${wa}" vs "${wb}"` }
    }
  }
  return null
}

/** A wish, goal or plan reaching to the word's infinitive: "wants her library to open", "goal is to finish". */
const WISH = /\b(?:wants?|wanted|wish(?:es|ed)?|hopes?|hoped|plans?|planned|aims?|aimed|goal\s+is|dreams?\s+is|would\s+like|'d\s+like)\b(?:\s+[\p{L}'’-]+){0,3}?\s+to\s+(?:stay\s+|be\s+|remain\s+|get\s+)?$/iu
function wished(r: Reading, p: { readonly word: string; readonly end: number }): boolean {
  const before = r.norm.slice(Math.max(0, p.end - p.word.length - 60), p.end - p.word.length)
  // ... or asked for: "collected 400 signatures for Sunday opening" (words/sequence.ts).
  return WISH.test(before) || (NOUN_FORM.test(p.word) && SOUGHT_BEFORE.test(before))
}

/** A pole told in the future: "will open", "is going to close". */
const planned = (r: Reading, p: { readonly word: string; readonly end: number }): boolean =>
  FUTURE_BEFORE.test(r.norm.slice(Math.max(0, p.end - p.word.length - 40), p.end - p.word.length))
/** ... and from a date after it: "will open on Sundays starting in July". */
const dated = (r: Reading, p: { readonly word: string; readonly end: number }): boolean => planned(r, p) && START_DATE.test(r.norm.slice(p.end))
