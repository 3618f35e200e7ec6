/**
 * Every error memweave throws is a `MemweaveError` with a stable string `code`.
 * Callers branch on `err.code`, never on the message. The codes are the whole list:
 * adding one is a minor version, changing one is a major version.
 */
export const ErrorCode = {
  /** An operation needs a capability the store was built without (GMP §7.2). */
  CAPABILITY_NOT_SUPPORTED: 'CAPABILITY_NOT_SUPPORTED',
  /** An argument failed validation; `details.field` names it. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** A named thing (store, ref, slug) does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** A write raced another one or a precondition (expected version) no longer holds. */
  CONFLICT: 'CONFLICT',
  /** The caller's identity may not do this. */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** Stored or received bytes fail a hash or signature check. */
  INTEGRITY: 'INTEGRITY',
  /**
   * No room for the write: the browser refused to store more (IndexedDB QuotaExceededError), or
   * a file store would grow past its size limit (`details.limit`, `details.size` in bytes).
   */
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  /**
   * Data at rest is damaged (a checksum, a sequence number, a record's hash or signature fails,
   * a file is missing): nothing was served or changed; `details.problems` lists what was found.
   * A repair (`memweave gmp repair`) keeps what is intact.
   */
  DATA_DAMAGED: 'DATA_DAMAGED',
  /**
   * Data at rest was written by a newer memweave in a format this build does not know (issue 28):
   * nothing was read as if it were understood and nothing was written. `details.what` names the
   * format, `details.found` the version in the data, `details.reads` the newest this build reads,
   * `details.writtenBy` the memweave version that wrote it when recorded. Open it with that
   * version or later, or export there and import here (docs/upgrading.md).
   */
  FORMAT_TOO_NEW: 'FORMAT_TOO_NEW',
  /** The storage backend failed for another reason; `cause` holds the original. */
  STORAGE: 'STORAGE',
  /** The memory or store was closed before or during the call. */
  CLOSED: 'CLOSED',
  /** The memory worker did not start (its script failed to load or never answered); the message names the likely cause. */
  WORKER_FAILED: 'WORKER_FAILED',
  /** The caller's AbortSignal fired. */
  ABORTED: 'ABORTED',
  /** A bug in memweave: an invariant did not hold. Please report it. */
  INTERNAL: 'INTERNAL',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

const BRAND = '__memweaveError' as const

export interface ErrorDetails {
  /** The argument or field that failed validation. */
  readonly field?: string
  /** For CAPABILITY_NOT_SUPPORTED: the capability flag that is missing. */
  readonly capability?: string
  /** For CAPABILITY_NOT_SUPPORTED: the operation that needed it. */
  readonly operation?: string
  readonly [key: string]: unknown
}

/**
 * The one error class of memweave.
 *
 * @example
 * try { await mem.facts.supersede(ref, 'x') } catch (err) {
 *   if (isMemweaveError(err) && err.code === 'CAPABILITY_NOT_SUPPORTED') console.warn(`this store cannot ${err.details.operation}`)
 *   else throw err
 * }
 */
export class MemweaveError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorDetails;
  /** Lets `isMemweaveError` recognise errors rebuilt across a worker or wire boundary. */
  readonly [BRAND] = true

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'MemweaveError'
    this.code = code
    this.details = details
  }

  /** A plain, structured-cloneable form (used by the worker transfer handler and the HTTP server). */
  toJSON(): { name: string; code: ErrorCode; message: string; details: ErrorDetails } {
    return { name: this.name, code: this.code, message: this.message, details: this.details }
  }
}

/** True for a `MemweaveError`, also one rebuilt in another realm (brand check, not `instanceof`). */
export function isMemweaveError(value: unknown): value is MemweaveError {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)[BRAND] === true
}

/** Shorthand for the most common throw: a labelled invalid argument. */
export function invalidArgument(field: string, message: string, extra: ErrorDetails = {}): MemweaveError {
  return new MemweaveError(ErrorCode.INVALID_ARGUMENT, `${field}: ${message}`, { ...extra, field })
}

export function capabilityNotSupported(capability: string, operation: string): MemweaveError {
  return new MemweaveError(
    ErrorCode.CAPABILITY_NOT_SUPPORTED,
    `${operation} needs the "${capability}" capability, which this store does not declare`,
    { capability, operation },
  )
}
