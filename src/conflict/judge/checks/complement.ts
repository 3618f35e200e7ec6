import { complementModifier } from '../attachment.js'
import type { Reading } from '../../read/reading.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'

/** Another modifier of one noun said of one subject: "on the platform team" / "moved to the payments team". */
export function complementSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b) || a.additive || b.additive) return null
  const m = complementModifier(a, b)
  return m ? { kind: 'substitution', reason: `a different answer about the same subject: ${m.text}` } : null
}
