import type { Schema } from './port.js'

/**
 * memweave's tables. Records are immutable and content-addressed (DESIGN.md "Records"); every
 * derived view can be rebuilt from them. The log is an ordered list of record ids that changed,
 * which lets another handle on the same database (another tab, another process) catch up without
 * rescanning. `meta` also holds caches of derived state that are expensive to rebuild on open (the
 * facts' lexical snapshots, src/facts/store.ts): written in the same transactions as records,
 * checked against them on load, and dropped with any hard delete whose content they reflect.
 *
 * No index holds user content: hard delete must leave no index entry behind (GMP §6.2).
 */
export const SCHEMA = {
  records: { key: 'id', indexes: ['kind'] },
  log: { key: 'seq', autoIncrement: true, indexes: ['ref'] },
  meta: { key: 'key' },
  vectors: { key: 'ref' },
  /** Results of forwarded mutations by request id, so a retried request commits once (v2). */
  requests: { key: 'id', indexes: ['at'] },
  /** The sync layer's persisted Yjs updates, one log per pool, compacted in place (v3; src/sync/update-log.ts). */
  syncUpdates: { key: 'seq', autoIncrement: true, indexes: ['pool'] },
  /** Records a pool's Y.Doc holds that the materializer refused, with the reason (v3; src/sync/quarantine.ts). */
  quarantine: { key: 'id', indexes: ['pool'] },
} as const satisfies Schema

export type TableName = keyof typeof SCHEMA

/**
 * Dexie's version history. A new version appends an entry; earlier entries never change,
 * so a database made by any earlier release upgrades in place.
 */
export const DEXIE_VERSIONS: ReadonlyArray<{ version: number; stores: Record<string, string> }> = [
  { version: 1, stores: { records: 'id, kind', log: '++seq, ref', meta: 'key', vectors: 'ref' } },
  // v2: exactly-once commits forwarded by the browser runtime (leader/follower tabs).
  { version: 2, stores: { requests: 'id, at' } },
  // v3: the sync layer (src/sync/): persisted Yjs updates per pool, and quarantined records.
  { version: 3, stores: { syncUpdates: '++seq, pool', quarantine: 'id, pool' } },
]

export interface StoredRecord {
  readonly id: string
  readonly kind: string
  readonly tenant: string | null
  readonly body: unknown
  readonly author: string | null
  readonly hlc: string
  readonly sig?: string
  /** The pool the record is shared through (it replicates in that pool's Y.Doc, src/sync), if any. */
  readonly pool?: string
}

/**
 * One commit: the ids it stored (in order) and the ids it deleted. Rows written before issue 15
 * name one record each (`ref`, `op`); readers take both (`logChanges`). One row per commit, not per
 * record: at 100k facts the row per record doubled what a write stored.
 */
export interface LogRow {
  readonly seq?: number
  readonly put?: readonly string[]
  readonly del?: readonly string[]
  /** A row of one record (before issue 15). */
  readonly ref?: string
  readonly op?: 'put' | 'del'
}

/** The changes of log rows in commit order: each stored id with the position of its row, each deleted id. */
export function logChanges(rows: readonly LogRow[], each: (op: 'put' | 'del', ref: string) => void): void {
  for (const r of rows) {
    if (r.ref !== undefined) each(r.op === 'del' ? 'del' : 'put', r.ref)
    for (const ref of r.put ?? []) each('put', ref)
    for (const ref of r.del ?? []) each('del', ref)
  }
}
