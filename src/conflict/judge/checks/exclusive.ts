import type { Reading } from '../../read/reading.js'
import { hasStem } from '../../read/same-stem.js'
import type { Signal } from '../signal.js'
import { unmatched } from './names.js'

/** "only" neither after a determiner ("the only admin") nor last ("Tuesdays only"). */
const RESTRICTS_WHAT_FOLLOWS = /(?<!\b(?:the|an|a|my|our|his|her|their|its|your)\s+)\bonly\s+(?=\p{L})/iu

/** "the only admin is Alice" / "admins: Alice and Bob"; "Tuesdays only" / "any day"; "9–5" / "24/7". */
export function exclusiveSignal(a: Reading, b: Reading): Signal | null {
  // Hours against around the clock: "support hours are 9–5 ET" / "support is staffed 24/7".
  const always = /\b24\s*\/\s*7\b|\b(?:a)?round[-\s]the[-\s]clock\b|\b24\s+hours\s+a\s+day\b/i
  for (const [x, y] of [[a, b], [b, a]] as const) {
    const span = x.slots.slots.find((s) => s.kind === 'span')
    if (span && always.test(y.text) && !always.test(x.text)) return { kind: 'exclusive', reason: `one side gives hours ("${span.text.trim()}"), the other says around the clock` }
  }
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const clause of x.exclusive) {
      if (![...clause].some((s) => hasStem(y.keys, s))) continue
      // What "only" keeps is of one kind ("only wire transfers", "the only admin, Alice"); another
      // thing of that kind is an addition, a thing of another kind ("virtual only" / "learning
      // the piano") or the one a clause is about ("Colm booked ...") is not.
      // An "only" before a verb or its object ("Ines's kitchen has only a hot plate", "Tidewater
      // only accepts wire transfers") keeps what follows it: the holder before it is not one kind.
      const from = RESTRICTS_WHAT_FOLLOWS.exec(x.norm)?.index ?? -1
      const kept = x.entities.filter((e) => e.start > from && e.stem.split(' ').every((s) => clause.has(s)))
      const kinds = new Set(kept.map((e) => e.cls))
      const extra = unmatched(y, x).filter((e) => kinds.has(e.cls) && (e.cls !== null || !/^\s*$|[.;!?:,]\s*$/.test(y.norm.slice(0, e.start))))
      if (y.universal) return { kind: 'exclusive', reason: 'one side restricts ("only") what the other allows always' }
      if (extra.length) {
        // The name kept and the name added, a's first: the detector drops this flag where name-role.ts read them as two roles.
        const [k, e] = [kept.find((n) => n.cls === extra[0]!.cls)!, extra[0]!]
        const names = [{ text: k.text, start: k.start }, { text: e.text, start: e.start }] as const
        return { kind: 'exclusive', reason: `one side says "only", the other adds "${e.text}"`, names: x === a ? names : [names[1], names[0]] }
      }
    }
  }
  return null
}
