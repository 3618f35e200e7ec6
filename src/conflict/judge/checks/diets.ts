import { DIETS } from '../../words/diets.js'
import type { Reading } from '../../read/reading.js'
import type { Signal } from '../signal.js'
import { twoHolders } from '../diet-holder.js'

/** A diet on one side, a food that breaks it eaten on the other ("vegan" / "ordered the steak"). */
export function dietSignal(a: Reading, b: Reading): Signal | null {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const { diet, breaks } of DIETS) {
      const d = diet.exec(x.norm)
      const f = breaks.exec(y.norm)
      if (!d || !f || diet.test(y.norm) || breaks.test(x.norm)) continue
      // "not vegan any more", "no steak": a negated diet or food says nothing against the other.
      if (/\b(?:not|no|never|without)\s+(?:\w+\s+)?$/i.test(x.norm.slice(0, d.index)) || /\b(?:not|no|never|without|free)\s+(?:\w+\s+)?$/i.test(y.norm.slice(0, f.index))) continue
      // "I'm coeliac" / "He wants pizza": the food is another's (diet-holder.ts).
      if (twoHolders(x.norm, d.index, y.norm, f.index)) continue
      return { kind: 'diet', reason: `"${d[0]}" vs "${f[0]}"` }
    }
  }
  return null
}
