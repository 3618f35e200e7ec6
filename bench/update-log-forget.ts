import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as Y from 'yjs'

/**
 * What one forget costs the persisted Yjs log (src/sync/update-log.ts) at a pool size, alone: a
 * document of N record-like values (about 700 bytes each, one clock each, as the pool's Y.Map
 * holds them) compacted once, then one key deleted at a time and compacted again, as a forget
 * does. Reports the bytes and rows each such compaction writes (a count, not noisy) and its p50
 * CPU time (the process's, so less moved by other work on the machine than wall time).
 * Counts compare chunk sizes; the sync bench is the figure.
 *
 *     npx tsx bench/update-log-forget.ts [checkout] [sizes]   # checkout: whose src/ to load (default: this one)
 */
const checkout = resolve(process.argv[2] ?? '.')
const sizes = (process.argv[3] ?? '1000,100000').split(',').map(Number)
const FORGETS = 9

const src = (p: string): string => pathToFileURL(join(checkout, 'src', p)).href
const { UpdateLog } = (await import(src('sync/update-log.ts'))) as typeof import('../src/sync/update-log.js')
const { memoryStorage } = (await import(src('storage/memory-adapter.ts'))) as typeof import('../src/storage/memory-adapter.js')

const value = (i: number): Record<string, unknown> => ({
  id: i.toString(16).padStart(32, '0'), kind: 'pool-memory', pool: 'p'.repeat(32), tenant: null,
  body: { v: 1, payload: { subject: `subject ${i}`, predicate: 'is_at', object: `object ${i} `.repeat(20) } },
  author: 'did:key:z6Mk' + 'a'.repeat(44), hlc: `${1_800_000_000_000 + i}:0`, sig: 'f'.repeat(128),
})

for (const size of sizes) {
  const storage = memoryStorage()
  await storage.open()
  const doc = new Y.Doc({ gc: true })
  doc.clientID = 1
  const log = new UpdateLog(storage, 'p')
  doc.on('afterTransactionCleanup', (tr: Y.Transaction) => log.noteTransaction(tr))
  const map = doc.getMap('records')
  doc.transact(() => {
    for (let i = 0; i < size; i++) map.set(String(i), value(i))
  })
  await log.compact(doc)
  let written = 0
  let rows = 0
  const put = storage.write.bind(storage)
  // Counts what each compaction puts: the rows and their update bytes.
  storage.write = ((tables, body) =>
    put(tables, (tx) => {
      const inner = tx.put.bind(tx)
      tx.put = ((table: string, values: Array<{ update?: Uint8Array }>) => {
        if (table === 'syncUpdates') for (const v of values) { rows++; written += v.update?.length ?? 0 }
        return inner(table, values as never)
      }) as typeof tx.put
      return body(tx)
    })) as typeof storage.write
  const times: number[] = []
  for (let k = 0; k < FORGETS; k++) {
    map.delete(String(Math.floor(((k + 0.5) * size) / FORGETS)))
    const t = process.cpuUsage()
    await log.compact(doc)
    const used = process.cpuUsage(t)
    times.push((used.user + used.system) / 1000)
  }
  times.sort((a, b) => a - b)
  console.log(`${size}: per forget ${Math.round(written / FORGETS).toLocaleString('en-US')} bytes in ${(rows / FORGETS).toFixed(1)} rows, compaction p50 ${times[FORGETS >> 1]!.toFixed(2)} ms of CPU`)
}
