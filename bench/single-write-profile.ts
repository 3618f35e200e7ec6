import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { createMemory } from '../src/index.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { factRow } from './client-rows.js'

/**
 * CPU of single awaited writes (the client bench's "single write", called in the worker): a store
 * of N facts in memory storage, then `writes` writes each awaited before the next. Prints process
 * CPU per write; with an output path, a CPU profile of the loop (issue 31, session 13).
 *
 *   npx tsx bench/single-write-profile.ts [N=5000] [writes=3000] [profile.cpuprofile]
 */
const size = Number(process.argv[2] ?? 5000)
const writes = Number(process.argv[3] ?? 3000)
const out = process.argv[4]

const mem = await createMemory({ storage: memoryStorage() })
for (let i = 0; i < size; i += 1000) await Promise.all(Array.from({ length: Math.min(1000, size - i) }, (_, j) => mem.facts.write(factRow(i + j, 'fill').content)))
for (let i = 0; i < 300; i++) await mem.facts.write(factRow(i, 'warm').content)
const session = new Session()
if (out) {
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 50 })
  await session.post('Profiler.start')
}
const start = process.cpuUsage()
for (let i = 0; i < writes; i++) await mem.facts.write(factRow(i, 'single').content)
const cpu = process.cpuUsage(start)
if (out) writeFileSync(out, JSON.stringify((await session.post('Profiler.stop')).profile))
console.log(`facts ${size}: ${writes} single awaited writes, ${((cpu.user + cpu.system) / writes).toFixed(1)} µs CPU each`)
await mem.close()
