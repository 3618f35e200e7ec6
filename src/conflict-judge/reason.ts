import type { JudgeMark } from './types.js'

/**
 * What a listed free-text conflict says once the judge's mark is known: judged pairs say so in
 * their reason; null when the judge found no contradiction (the pair is not listed).
 */
export function judgedReason(reason: string, mark: JudgeMark): string | null {
  if (mark.status !== 'judged') return reason
  if (mark.label !== 'contradiction') return null
  return `${reason}; ${mark.id} judges it a contradiction (${mark.confidence.toFixed(2)})`
}
