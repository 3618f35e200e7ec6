import { openMemoryModules } from '../src/memory-loader.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { createMemory } from '../src/index.js'
import { factRow } from './client-rows.js'
import { startCpuProfile } from './cpu-profile.js'

/**
 * Issue 31: where a cold open's JavaScript goes, in Node (not a bench): N of the client bench's rows
 * (plain text, as openMemory's bench writes them) written into one in-memory storage, then the
 * worker's open of it (`openMemoryModules`, then a retrieve with no budget, as the client bench's
 * cold open), `rounds` times. The memory adapter clones rows like IndexedDB, so the read's cost is
 * there in kind, not in size. Prints wall and process CPU per open (read the CPU under load). With
 * an output path, a CPU profile of the last open.
 *
 *   npx tsx bench/open-profile.ts [N=100000] [rounds=3] [profile.cpuprofile]
 */
const size = Number(process.argv[2] ?? 100_000)
const rounds = Number(process.argv[3] ?? 3)
const out = process.argv[4]

async function main(): Promise<void> {
  const storage = memoryStorage()
  let tick = Date.UTC(2026, 0, 1)
  const now = (): number => (tick += 1)
  const mem = await createMemory({ storage, now })
  for (let i = 0; i < size; i += 1000) {
    await Promise.all(Array.from({ length: Math.min(1000, size - i) }, (_, k) => mem.facts.write(factRow(i + k, 'fill').content)))
  }
  // One handle stays open, as a page's would: the storage outlives the opens below.
  const times: number[] = []
  const cpus: number[] = []
  for (let r = 0; r < rounds; r++) {
    const stop = await startCpuProfile(r === rounds - 1 ? out : undefined)
    const t = performance.now()
    const c = process.cpuUsage()
    const cold = await openMemoryModules({ storage, now })
    await cold.facts.retrieve('x', { budgetTokens: 0 })
    const { user, system } = process.cpuUsage(c)
    times.push(performance.now() - t)
    cpus.push((user + system) / 1000)
    await stop()
    await cold.close()
  }
  await mem.close()
  const ms = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(' / ')
  console.log(`${size} facts: open + first retrieve ${ms(times)} ms wall, ${ms(cpus)} ms CPU (process, user + system)`)
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err)
  process.exit(1)
})
