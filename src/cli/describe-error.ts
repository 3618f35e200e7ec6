import { isMemweaveError } from '../core/errors.js'

/** One line for an error: a MemweaveError's message, a system error's code and message. */
export function describeError(err: unknown): string {
  if (isMemweaveError(err)) return err.message
  const e = err as NodeJS.ErrnoException
  return e?.code ? `${e.code} ${e.message}` : String(e?.message ?? err)
}
