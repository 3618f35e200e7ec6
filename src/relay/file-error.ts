import { ErrorCode, MemweaveError } from '../core/errors.js'

/** A relay file that cannot be read or written: STORAGE, with the cause's message and the cause. */
export function relayFileError(message: string, cause?: unknown): MemweaveError {
  const detail = cause instanceof Error ? `: ${cause.message}` : ''
  return new MemweaveError(ErrorCode.STORAGE, `relay: ${message}${detail}`, {}, cause === undefined ? {} : { cause })
}
