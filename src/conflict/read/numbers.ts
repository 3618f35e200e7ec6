/**
 * Numbers written as words ("twelve", "twenty-five", "one thousand", "a dozen", "1.5 million"),
 * so that "12 open issues" and "twelve open issues" are the same quantity.
 */
const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, dozen: 12,
}
const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
}
const SCALES: Readonly<Record<string, number>> = {
  hundred: 100, thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mm: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9,
}

/** Ordinal words for days and positions. */
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, twentieth: 20, thirtieth: 30,
}

const WORD = Object.keys(UNITS).concat(Object.keys(TENS)).join('|')

/**
 * A number in digits ("1,200", "0.5", "50k", "1.5 million") or words ("twenty-five", "a dozen",
 * "one thousand"). The source is a pattern fragment without groups of its own beyond non-capturing ones.
 * A number word starts a word: "rotten", "often" and "someone" hold no number (issue 27, second round).
 */
export const NUMBER_SRC =
  `(?:(?<![\\w.])\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|(?<![\\w.])\\d+(?:\\.\\d+)?|\\.\\d+|` +
  `(?<![A-Za-z])(?:a\\s+)?(?:${WORD})(?:[-\\s](?:${WORD}))*)` +
  `(?:\\s*(?:k|m|bn|mn)\\b|\\s+(?:hundred|thousand|million|billion)(?:\\s+(?:and\\s+)?(?:${WORD})(?:[-\\s](?:${WORD}))*)?)?`

/** Parses what NUMBER_SRC matched; NaN when it is not a number after all. */
export function parseNumber(text: string): number {
  const t = text.trim().toLowerCase().replace(/^a\s+/, '')
  const digits = /^(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(k|m|bn|mn|hundred|thousand|million|billion)?$/.exec(t)
  if (digits) {
    const base = Number(digits[1]!.replace(/,/g, ''))
    return digits[2] ? base * SCALES[digits[2]]! : base
  }
  // Words: "twenty-five", "one thousand two hundred", "1.5 million" handled above.
  let total = 0
  let current = 0
  let any = false
  for (const w of t.split(/[-\s]+/)) {
    if (w === 'and' || w === '') continue
    if (w in UNITS) current += UNITS[w]!
    else if (w in TENS) current += TENS[w]!
    else if (w === 'hundred') current = (current || 1) * 100
    else if (w in SCALES) {
      total += (current || 1) * SCALES[w]!
      current = 0
    } else if (/^\d+(?:\.\d+)?$/.test(w)) current += Number(w)
    else return NaN
    any = true
  }
  return any ? total + current : NaN
}
