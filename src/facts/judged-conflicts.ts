import { judgedReason } from '../conflict-judge/reason.js'
import type { JudgeStage } from '../conflict-judge/stage.js'
import type { FactHost } from './store-host.js'
import type { FactConflict } from './types.js'

/**
 * The free-text pairs of a conflict list as the judge sees them: its contradictions listed with
 * its word, the pairs it cleared dropped, the others listed on the model-free verdict (pending or
 * unjudged). The newer fact of a pair is the write it counts against (`maxPairsPerWrite`).
 */
export async function judgedConflicts(h: FactHost, judge: JudgeStage, list: FactConflict[], wait: boolean, listAt: number): Promise<FactConflict[]> {
  // The surest pairs first: they take a write's share of judge calls before the band below the threshold.
  const free = list.filter((c) => c.kind === 'free-text').sort((x, y) => (y.confidence ?? 1) - (x.confidence ?? 1))
  if (free.length === 0) return list
  const text = (ref: string): string => h.state.versions.get(ref)?.body.content ?? ''
  const candidates = free.map((c) => ({ a: text(c.refs[0]), b: text(c.refs[1]), writer: c.refs[1] }))
  let marks = await judge.review(candidates)
  if (wait) {
    await judge.idle()
    marks = judge.marks(candidates)
  }
  const markOf = new Map(free.map((c, i) => [c, marks[i]!] as const))
  const out: FactConflict[] = []
  for (const c of list) {
    const mark = markOf.get(c)
    if (mark === undefined) {
      out.push(c)
      continue
    }
    const reason = judgedReason(c.reason, mark)
    if (reason === null) continue
    // Below the listing threshold only the judge's contradiction lists a pair.
    if ((c.confidence ?? 1) < listAt && mark.status !== 'judged') continue
    out.push({ ...c, reason, judge: mark })
  }
  return out
}
