import { Dexie } from 'dexie'
import { DEXIE_VERSIONS } from '../src/storage/schema.js'
import type { RawRecord } from './fixtures.js'

/**
 * The baseline: the same rows in plain Dexie, with memweave's own table layout (DEXIE_VERSIONS:
 * `records: 'id, kind'`, ...), so the only difference the figures show is what memweave does on
 * top of IndexedDB.
 */
export interface IdbDeps {
  readonly indexedDB: IDBFactory
  readonly IDBKeyRange: typeof IDBKeyRange
}

export function openRawDexie(name: string, deps: IdbDeps): Dexie {
  const db = new Dexie(name, { indexedDB: deps.indexedDB, IDBKeyRange: deps.IDBKeyRange })
  for (const { version, stores } of DEXIE_VERSIONS) db.version(version).stores(stores)
  return db
}

/** Writes rows in chunks, one `bulkPut` (one transaction) per chunk, as memweave's batcher does. */
export async function rawWrite(db: Dexie, rows: readonly RawRecord[], chunk: number): Promise<void> {
  const table = db.table<RawRecord, string>('records')
  for (let i = 0; i < rows.length; i += chunk) await table.bulkPut(rows.slice(i, i + chunk) as RawRecord[])
}

const STOP = new Set('a an and are at does for in is of on the to what where who with like anyone people'.split(' '))

/** Lower-cased query words worth matching on: 3+ characters and not a stop word. */
export function keywords(query: string): string[] {
  return query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOP.has(w))
}

/**
 * The naive retrieve an app writes without memweave: read every row (`toArray()`), keep those whose
 * content or metadata contains a query keyword, order by keyword hits then importance, and fill the
 * character budget in that order.
 */
export async function naiveRetrieve(db: Dexie, query: string, budget: number): Promise<RawRecord[]> {
  const words = keywords(query)
  const rows = await db.table<RawRecord, string>('records').toArray()
  const hits: Array<{ row: RawRecord; score: number }> = []
  for (const row of rows) {
    const md = row.body.metadata
    const text = `${row.body.content} ${md.subject} ${md.predicate} ${md.object}`.toLowerCase()
    let score = 0
    for (const w of words) if (text.includes(w)) score++
    if (score > 0) hits.push({ row, score })
  }
  hits.sort((a, b) => b.score - a.score || b.row.body.metadata.importance - a.row.body.metadata.importance)
  const out: RawRecord[] = []
  let used = 0
  for (const { row } of hits) {
    if (used + row.body.content.length > budget) break
    used += row.body.content.length
    out.push(row)
  }
  return out
}

/** The least a load-everything store must do at open: open the database and read every row. */
export async function rawLoad(db: Dexie): Promise<number> {
  await db.open()
  return (await db.table('records').toArray()).length
}
