import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { Dexie } from 'dexie'
import { openMemoryModules } from '../src/memory-loader.js'
import { createMemory } from '../src/index.js'
import { indexedDbStorage } from '../src/storage/dexie-adapter.js'
import { factRow } from './client-rows.js'

/**
 * Issue 31 (session 12): a cold open through IndexedDB in Node (fake-indexeddb, which clones every
 * row it stores and returns, as a browser does, but keeps them in memory): N of the client bench's
 * rows written through `facts.write`, then `rounds` times, alternating, the raw read of the
 * `records` table whole (Dexie `toArray`, the floor: what `coldParts` reads in Chromium) and the
 * worker's open (`openMemoryModules`, then a retrieve, as the client bench's cold open). Prints
 * process CPU (user + system) of each, and wall; read the CPU under load. Not a bench of
 * Chromium: it shows the clone's share in kind (fake-indexeddb's own JS is slower than LevelDB).
 *
 *   npx tsx bench/open-idb.ts [N=20000] [rounds=3]
 */
const size = Number(process.argv[2] ?? 20_000)
const rounds = Number(process.argv[3] ?? 3)

async function main(): Promise<void> {
  const indexedDB = new IDBFactory()
  const name = 'open-idb'
  const opts = { storage: indexedDbStorage({ name, indexedDB, IDBKeyRange }), now: ((t) => () => (t += 1))(Date.UTC(2026, 0, 1)) }
  const mem = await createMemory(opts)
  for (let i = 0; i < size; i += 1000) {
    await Promise.all(Array.from({ length: Math.min(1000, size - i) }, (_, k) => mem.facts.write(factRow(i + k, 'fill').content)))
  }
  await mem.close()
  const measure = async (job: () => Promise<void>): Promise<[number, number]> => {
    const t = performance.now()
    const c = process.cpuUsage()
    await job()
    const { user, system } = process.cpuUsage(c)
    return [performance.now() - t, (user + system) / 1000]
  }
  const raw: Array<[number, number]> = []
  const open: Array<[number, number]> = []
  for (let r = 0; r < rounds; r++) {
    raw.push(await measure(async () => {
      const db = new Dexie(name, { indexedDB, IDBKeyRange })
      await db.open()
      const rows = await db.table('records').toArray()
      if (rows.length < size) throw new Error(`read ${rows.length} rows`)
      db.close()
    }))
    open.push(await measure(async () => {
      const cold = await openMemoryModules({ storage: indexedDbStorage({ name, indexedDB, IDBKeyRange }) })
      await cold.facts.retrieve('x', { budgetTokens: 0 })
      await cold.close()
    }))
  }
  const fmt = (xs: Array<[number, number]>, i: 0 | 1): string => xs.map((x) => x[i].toFixed(0)).join(' / ')
  console.log(`${size} facts, fake-indexeddb: raw read of records ${fmt(raw, 1)} ms CPU (${fmt(raw, 0)} wall); open + first retrieve ${fmt(open, 1)} ms CPU (${fmt(open, 0)} wall)`)
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err)
  process.exit(1)
})
