/**
 * The crude baseline of issue 16: two observations conflict when they share a content word and
 * either their numbers differ or one of them is negated. No normalization, no topic gate beyond
 * one shared word. It is what the free-text detector has to beat on the same pairs.
 */
const STOP = new Set(
  ('the a an and or but of to in on at by for from with is are was were be been it its this that these those ' +
    'we you he she they i me my our your their his her them us as so if then than just only also very all any ' +
    'has have had do does did will would can could should there here what when where who how not no').split(' '),
)
/** Negation and retraction, generously: the rule should get every chance. */
const NEGATION = /\b(?:not|no|never|none|nothing|cannot|without|off|longer|stop|dropped|cancel\w*|called|declin\w*|den(?:y|ied)|fail\w*|reject\w*|refus\w*)\b|n['’]t\b/i

function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9][a-z0-9']*/g) ?? []).map((w) => w.replace(/'s$/, '')).filter((w) => w.length >= 2 && !STOP.has(w)))
}
function numbers(text: string): Set<string> {
  return new Set((text.match(/\d+(?:[.,]\d+)?/g) ?? []).map((n) => n.replace(/,/g, '')))
}

/** True when the crude rule calls the pair a conflict. */
export function crudeRule(a: string, b: string): boolean {
  const wa = contentWords(a)
  if (![...contentWords(b)].some((w) => wa.has(w))) return false
  const [na, nb] = [numbers(a), numbers(b)]
  const differ = [...na].some((n) => !nb.has(n)) || [...nb].some((n) => !na.has(n))
  return differ || NEGATION.test(a) || NEGATION.test(b)
}
