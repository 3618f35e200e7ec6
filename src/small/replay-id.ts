import { sha256 } from '@noble/hashes/sha2.js'
import { toHex, utf8 } from '../core/bytes.js'

/**
 * The replayId of a run (SMALL.md invariants 4 and 6; the reference CLI's `generateReplayId`):
 *
 *     sha256(intent + "\n" + plan [+ "\n" + constraints])   as 64 lowercase hex digits
 *
 * over the raw file bytes after normalising line endings (CRLF and lone CR become LF), so the same
 * documents give the same id on every machine. Constraints take part only when the file exists.
 */
export interface ReplayInputs {
  readonly intent: string | Uint8Array
  readonly plan: string | Uint8Array
  readonly constraints?: string | Uint8Array | null
}

export const REPLAY_ID_PATTERN = /^[a-fA-F0-9]{64}$/

export function computeReplayId(inputs: ReplayInputs): string {
  const parts = [inputs.intent, inputs.plan]
  if (inputs.constraints !== undefined && inputs.constraints !== null) parts.push(inputs.constraints)
  const normalised = parts.map((p) => normalizeLineEndings(typeof p === 'string' ? utf8(p) : p))
  let length = normalised.length - 1
  for (const p of normalised) length += p.length
  const message = new Uint8Array(length)
  let at = 0
  normalised.forEach((p, i) => {
    if (i > 0) message[at++] = 0x0a
    message.set(p, at)
    at += p.length
  })
  return toHex(sha256(message))
}

/** CRLF -> LF, then lone CR -> LF, on bytes (so a file that is not valid UTF-8 still hashes as it is). */
export function normalizeLineEndings(bytes: Uint8Array): Uint8Array {
  if (!bytes.includes(0x0d)) return bytes
  const out = new Uint8Array(bytes.length)
  let n = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if (b === 0x0d) {
      out[n++] = 0x0a
      if (bytes[i + 1] === 0x0a) i++
    } else out[n++] = b
  }
  return out.slice(0, n)
}

/** A manual replayId (`--replay-id`): 64 hex digits, kept in lowercase as the reference does. */
export function normalizeReplayId(value: string): string | null {
  return REPLAY_ID_PATTERN.test(value) ? value.toLowerCase() : null
}
