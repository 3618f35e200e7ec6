import { ErrorCode, MemweaveError } from './errors.js'

/**
 * The version of memweave this build is, and of every format it persists (issue 28,
 * docs/upgrading.md). A format's number goes up whenever an older build could misread or lose
 * what a newer one writes; each bump is named in CHANGELOG.md. A reader accepts every version up to
 * its own and refuses a higher one with FORMAT_TOO_NEW, before writing anything. Builds before
 * 0.2.0 do not check and cannot be changed: roll back only through an export (docs/upgrading.md).
 */
export const MEMWEAVE_VERSION = '0.3.0'

/** The newest version of each persisted format this build reads (and the one it writes). */
export const FORMAT_VERSIONS = {
  /**
   * Records and side tables of a Memory's storage (IndexedDB, file, memory): the `meta` row `format`.
   * 2: a pool's persisted Yjs log (`syncUpdates`) in chunks of 256 clocks, each part carrying its
   * size (src/sync/update-log.ts); 1 (0.2.0) wrote 4,096-clock parts, read and re-chunked here.
   */
  store: 2,
  /** A file storage directory (src/node): the header of `snapshot.jsonl`. */
  fileStorage: 2,
  /** A GMP server store's `store.json`. */
  gmpStore: 1,
  /** A relay room's `updates.log` (its magic `MWYLOG<n>\n`). */
  relayLog: 2,
  /** A relay room's owner pin (`owner.json`, and the Redis `owner` key). */
  ownerPin: 1,
  /** A Redis cluster relay's pool snapshot hash (its `v` field; absent means 1). */
  redisSnapshot: 1,
  /** A cluster relay node's copy of the owner pins (`<pins dir>/pins.jsonl`, each line's `v`; absent means 1). */
  relayPinCopy: 1,
  /** A Node identity file (`identity.json`). */
  identityFile: 1,
  /** A backup made by `mem.export()` (its header line). */
  export: 1,
} as const

export type PersistedFormat = keyof typeof FORMAT_VERSIONS

/**
 * The refusal of data written in a newer format. `where` names the store or file for the message.
 * The caller has written nothing, and writes nothing after it.
 */
export function formatTooNew(what: PersistedFormat, found: number, where: string, writtenBy?: string): MemweaveError {
  const reads = FORMAT_VERSIONS[what]
  const by = writtenBy === undefined ? 'a newer memweave' : `memweave ${writtenBy}`
  return new MemweaveError(
    ErrorCode.FORMAT_TOO_NEW,
    `${where} was written by ${by} in ${what} format ${found}; this build (memweave ${MEMWEAVE_VERSION}) reads up to ${reads}. ` +
      'It was left untouched: open it with that version or later, or export it there and import the backup here (docs/upgrading.md)',
    { what, found, reads, ...(writtenBy === undefined ? {} : { writtenBy }), readerVersion: MEMWEAVE_VERSION, where },
  )
}

/** Whether `found` (a format's version read from data) is newer than this build knows. */
export function isTooNew(what: PersistedFormat, found: unknown): found is number {
  return typeof found === 'number' && Number.isInteger(found) && found > FORMAT_VERSIONS[what]
}
