import { serialize } from 'node:v8'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { SCHEMA } from '../src/storage/schema.js'
import { createMemory } from '../src/index.js'
import { factRow, storedRow } from './client-rows.js'

/**
 * Issue 31 (session 12): what a fact costs in storage, table by table and field by field. N of the
 * client bench's rows written through `facts.write` into a memory storage, then every table read
 * back and each row measured as V8 serializes it (the structured clone IndexedDB stores and reads
 * back in Chromium, before its own compression), beside the raw bench's row and `storedRow`.
 *
 *   npx tsx bench/row-bytes.ts [N=10000]
 */
const size = Number(process.argv[2] ?? 10_000)
const bytes = (v: unknown): number => serialize(v).length

async function main(): Promise<void> {
  const storage = memoryStorage()
  let tick = Date.UTC(2026, 0, 1)
  const mem = await createMemory({ storage, now: () => (tick += 1) })
  for (let i = 0; i < size; i += 1000) {
    await Promise.all(Array.from({ length: Math.min(1000, size - i) }, (_, k) => mem.facts.write(factRow(i + k, 'fill').content)))
  }
  await mem.close()
  await storage.open()
  const tables = await storage.read(Object.keys(SCHEMA), async (tx) => {
    const out: Record<string, unknown[]> = {}
    for (const t of Object.keys(SCHEMA)) out[t] = await tx.all(t)
    return out
  })
  const per = (n: number): string => (n / size).toFixed(1)
  console.log(`${size} facts, bytes per fact (V8 serialize, the structured clone's wire form)`)
  let total = 0
  for (const [t, rows] of Object.entries(tables)) {
    const b = rows.reduce<number>((n, r) => n + bytes(r), 0)
    total += b
    console.log(`  ${t.padEnd(12)} ${String(rows.length).padStart(7)} rows ${per(b).padStart(8)} B/fact`)
    if (t === 'meta') for (const r of rows as Array<{ key: string }>) console.log(`    meta ${r.key.padEnd(28)} ${per(bytes(r)).padStart(8)} B/fact`)
  }
  console.log(`  total ${per(total)} B/fact`)
  const facts = (tables.records as Array<Record<string, unknown>>).filter((r) => r.kind === 'fact')
  const field = (get: (r: Record<string, unknown>) => unknown): string => per(facts.reduce((n, r) => n + bytes(get(r)), 0) * (size / Math.max(1, facts.length)))
  console.log('  a fact row, by field (each serialized alone, so each carries ~2-3 B of header):')
  const one = facts[0]!
  for (const k of Object.keys(one)) console.log(`    ${k.padEnd(12)} ${field((r) => r[k]).padStart(8)}`)
  for (const k of Object.keys(one.body as object)) console.log(`    body.${k.padEnd(12)} ${field((r) => (r.body as Record<string, unknown>)[k]).padStart(8)}`)

  console.log(`  one row: ${bytes(one)} B; storedRow ${bytes(storedRow(5, 'raw'))} B; raw bench row ${bytes({ id: 'raw-5', kind: 'fact', tenant: null, body: factRow(5, 'raw'), author: null, hlc: '5' })} B`)
  console.log(JSON.stringify(one))
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err)
  process.exit(1)
})
