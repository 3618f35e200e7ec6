import { Verdict } from '../pools/authority.js'
import type { PoolId } from '../pools/types.js'
import { describeValue, type Described } from './describe.js'

/**
 * Why the materializer refused a value it found in a pool's Y.Doc. Quarantine is a pure function
 * of the document's record set, like everything the materializer derives: a record refused now
 * may be accepted later (its pool's create record or the grant of its author arrives after it),
 * and one accepted may be refused later (a revocation dated before it arrives). Quarantined
 * values stay in the Y.Doc (deleting them would look like a deletion without a tombstone to every
 * other replica) but never reach the `records` table.
 */
export const QuarantineReason = {
  /** Not a pool record: wrong shape, a field of the wrong type, or stored under another key than its id. */
  MALFORMED: 'malformed',
  /** No signature at all. */
  MISSING_SIGNATURE: 'missing-signature',
  /** The signature does not verify against the author's key over the record's id (or the id does not match the content). */
  BAD_SIGNATURE: 'bad-signature',
  /** A record of another pool smuggled into this pool's document. */
  WRONG_POOL: 'wrong-pool',
  /** The pool's create record is not (yet) in the document: nothing can be judged without its owner. */
  UNKNOWN_POOL: 'unknown-pool',
  FORGED_CREATE: Verdict.FORGED_CREATE,
  WRONG_TENANT: Verdict.WRONG_TENANT,
  NOT_OWNER: Verdict.NOT_OWNER,
  NOT_MEMBER: Verdict.NOT_MEMBER,
  READ_ONLY: Verdict.READ_ONLY,
  /**
   * Its clock stamp is outside the range every replica can represent (a wall time past 2255-06-05,
   * fields of another width): it could not be sorted or dated. Never accepted.
   */
  CLOCK: 'clock',
  /**
   * Stamped more than a minute (`MAX_AHEAD_MS`) ahead of this replica's clock: held, not judged,
   * until its time comes, then judged like any record (docs/sync.md, "Clocks").
   */
  FUTURE: 'future',
  /** Signed by a writer, but its module's protocol forbids it (a human-owned SMALL document by an agent, an edited progress entry, plaintext in an encrypted pool). */
  PROTOCOL: 'protocol',
} as const
export type QuarantineReason = (typeof QuarantineReason)[keyof typeof QuarantineReason]

/** Verdicts about who wrote a record, or what its protocol allows given the rest of the set (not about its bytes): a stored record refused for one of these leaves `records`. */
export const AUTHORITY_REASONS: ReadonlySet<QuarantineReason> = new Set([
  QuarantineReason.FORGED_CREATE, QuarantineReason.WRONG_TENANT, QuarantineReason.NOT_OWNER, QuarantineReason.NOT_MEMBER,
  QuarantineReason.READ_ONLY, QuarantineReason.PROTOCOL,
])

/**
 * Verdicts that take a stored copy of the record out of `records` (it stays in the document): who
 * wrote it, and a clock stamp that no module may see yet (`future`: it comes back in its time) or
 * ever (`clock`: a store written before the codec checked the range).
 */
export const EVICTING_REASONS: ReadonlySet<QuarantineReason> = new Set([...AUTHORITY_REASONS, QuarantineReason.CLOCK, QuarantineReason.FUTURE])

/** One refused value of a pool's Y.Doc (`mem.sync.quarantine()`). */
export interface QuarantinedRecord {
  readonly pool: PoolId
  /** The Y.Map key it was found under (the record id, for anything well-formed). */
  readonly key: string
  readonly reason: QuarantineReason
  /** A human-readable detail of the reason. */
  readonly detail: string
  /** The record's kind and author when they could be read, else null. */
  readonly kind: string | null
  readonly author: string | null
}

/**
 * The stored row: the report plus a JSON-safe description of the refused value (describe.ts), for
 * inspection. Never the value itself: it may be a live Yjs type that no store can clone.
 */
export interface QuarantineRow extends QuarantinedRecord {
  readonly id: string
  readonly value: Described
}

/** Values larger than this (as JSON) are stored as a note, not verbatim: a hostile peer must not fill the disk through quarantine. */
const MAX_VALUE_CHARS = 64 * 1024

export function quarantineRowId(pool: string, key: string): string {
  return `${pool}/${key}`
}

export function toQuarantineRow(q: QuarantinedRecord, value: unknown): QuarantineRow {
  let kept = describeValue(value)
  const chars = JSON.stringify(kept).length
  if (chars > MAX_VALUE_CHARS) kept = { truncated: true, chars }
  return { id: quarantineRowId(q.pool, q.key), ...q, value: kept }
}

/** The row kept when even the described row could not be stored: the report alone. */
export function bareQuarantineRow(q: QuarantinedRecord): QuarantineRow {
  return { id: quarantineRowId(q.pool, q.key), ...toReport(q), value: { unstorable: true } }
}

/** A report without the stored value (what the API returns). */
export function toReport(row: QuarantinedRecord): QuarantinedRecord {
  return { pool: row.pool, key: row.key, reason: row.reason, detail: row.detail, kind: row.kind, author: row.author }
}
