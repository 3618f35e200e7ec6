import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'

/**
 * Translates whatever a backend threw into a coded MemweaveError, keeping the original as `cause`.
 * This is the only place storage exceptions are interpreted (STYLE.md rule 14).
 */
export function translateStorageError(err: unknown, operation: string): MemweaveError {
  if (isMemweaveError(err)) return err
  const name = errorName(err)
  if (name === 'QuotaExceededError') {
    return new MemweaveError(
      ErrorCode.QUOTA_EXCEEDED,
      `${operation}: the browser's storage quota is exhausted; nothing from this write was stored`,
      {},
      { cause: err },
    )
  }
  if (name === 'DatabaseClosedError' || name === 'InvalidStateError') {
    return new MemweaveError(ErrorCode.CLOSED, `${operation}: the database is closed`, {}, { cause: err })
  }
  if (name === 'ConstraintError') {
    return new MemweaveError(ErrorCode.CONFLICT, `${operation}: a storage constraint failed`, {}, { cause: err })
  }
  const message = err instanceof Error ? err.message : String(err)
  return new MemweaveError(ErrorCode.STORAGE, `${operation}: ${message}`, {}, { cause: err })
}

function errorName(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined
  const e = err as { name?: string; inner?: { name?: string } }
  // Dexie wraps DOMExceptions: 'QuotaExceededError' can sit on the wrapper or on `.inner`.
  if (e.inner?.name === 'QuotaExceededError') return 'QuotaExceededError'
  return e.name
}
