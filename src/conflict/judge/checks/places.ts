import { STOPWORDS } from '../../words/stopwords.js'
import { isTimeWord, type Reading } from '../../read/reading.js'
import { hasStem, sameStem } from '../../read/same-stem.js'
import { stem } from '../../read/stem.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'
import { alternatives, DETERMINER_WORDS, DETERMINERS } from '../../words/determiners.js'

const IN_PLACE = new RegExp(String.raw`\b(?:in|at|inside|outside)\s+(?:(?:${alternatives(DETERMINER_WORDS)})\s+)?([a-z][a-z-]+)`, 'gi')

/** "the wifi in the office is slow" / "the wifi at home is fast": said of two places, two facts. */
export function differentPlaces(a: Reading, b: Reading): boolean {
  const place = (r: Reading): string | null => {
    for (const m of r.norm.matchAll(IN_PLACE)) {
      const w = m[1]!.toLowerCase()
      if (!STOPWORDS.has(w) && !isTimeWord(w) && !/^(?:least|most|all|once|first|last|times?|full|night)$/.test(w)) return stem(w)
    }
    return null
  }
  const [pa, pb] = [place(a), place(b)]
  return pa !== null && pb !== null && !sameStem(pa, pb) && !hasStem(b.content, pa) && !hasStem(a.content, pb)
}

/**
 * One verb and preposition, another place after them: "lands at Newark" / "lands at JFK", "ships
 * via UPS" / "ships via DHL", "works at Stripe" / "works at shopify". The place must be written as
 * a name (a capital or all capitals) on at least one side, so "plays in the band" / "plays in the
 * park" are left alone.
 */
export function placeSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  // "swim at the Y" / "swim at Lake Como in summer": a season, weekday or part of the day makes two facts.
  if ([a, b].some((r) => /\b(?:in|during|on|at)\s+(?:the\s+)?(?:summer|winter|spring|fall|autumn|weekends?|weekdays?|mornings?|evenings?|night|holidays?)\b/i.test(r.norm))) return null
  const frames = (r: Reading): Array<{ verb: string; prep: string; obj: Reading['tokens'][number] }> => {
    const out: Array<{ verb: string; prep: string; obj: Reading['tokens'][number] }> = []
    r.tokens.forEach((t, i) => {
      const [p, o] = [r.tokens[i + 1], r.tokens[i + 2] && DETERMINERS.has(r.tokens[i + 2]!.lower) ? r.tokens[i + 3] : r.tokens[i + 2]]
      if (!p || !o || !/^(?:at|in|to|from|via|on|into)$/.test(p.lower) || !r.keys.has(t.stem) || r.negated.has(o.stem)) return
      if (/^\d/.test(o.lower) || isTimeWord(o.lower) || STOPWORDS.has(o.lower)) return
      out.push({ verb: t.stem, prep: p.lower, obj: o })
    })
    return out
  }
  const name = (x: Reading, t: Reading['tokens'][number]): boolean => /^\p{Lu}/u.test(x.norm.slice(t.start, t.end))
  for (const fa of frames(a)) {
    for (const fb of frames(b)) {
      if (fa.verb !== fb.verb || fa.prep !== fb.prep || sameStem(fa.obj.stem, fb.obj.stem)) continue
      if (hasStem(b.content, fa.obj.stem) || hasStem(a.content, fb.obj.stem) || (!name(a, fa.obj) && !name(b, fb.obj))) continue
      return { kind: 'substitution', reason: `another place after "${fa.verb} ${fa.prep}": "${fa.obj.lower}" vs "${fb.obj.lower}"`, modifier: true, names: [{ text: fa.obj.lower, start: fa.obj.start }, { text: fb.obj.lower, start: fb.obj.start }] }
    }
  }
  return null
}

