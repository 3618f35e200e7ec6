import type { MemoryPayload } from './records.js'
import { payloadProblem } from './record-shape.js'

/**
 * Shape check of a payload read from storage, from another replica or decrypted: the API's caps and
 * fields (record-shape.ts); a record that fails it is ignored, never trusted.
 */
export function isPayload(x: unknown): x is MemoryPayload {
  return payloadProblem(x) === null
}
