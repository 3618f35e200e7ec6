import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { createMemory } from '../src/index.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { startCpuProfile } from './cpu-profile.js'
import { factRows } from './fixtures.js'

/**
 * CPU of the facts write path over the public API, for finding where a burst's time goes (not a
 * bench): a store of N of the fact bench's rows in memory storage, then bursts of 1,000 writes
 * issued at once and awaited (the client bench's burst: content only; with `meta`, the page bench's
 * write: content, metadata and validFrom). Prints process CPU of the first burst and the median of
 * the others, and a digest of every record stored (equal digests: the same ids, bodies and bytes).
 * With an output path, a CPU profile of the bursts; with `MEMWEAVE_PROFILE_ALLOC=1` beside it, an
 * allocation sample of them instead (`.heapprofile` of the same name: bytes by allocating function).
 *
 *   npx tsx bench/write-profile.ts [N=10000] [bursts=12] [plain|meta] [profile.cpuprofile]
 */
const size = Number(process.argv[2] ?? 10_000)
const bursts = Number(process.argv[3] ?? 12)
const meta = process.argv[4] === 'meta'
const out = process.argv[5]

async function main(): Promise<void> {
  // A clock that moves only between bursts (the stamps' counter orders a burst's writes), and the clock's node id (drawn at random) fixed: every
  // run writes the same ids (comparable digests). Nothing else this script runs draws random bytes.
  const random = crypto.getRandomValues.bind(crypto)
  const fixed = (array: ArrayBufferView): ArrayBufferView => (array instanceof Uint8Array && array.length === 4 ? array.fill(7) : random(array))
  crypto.getRandomValues = fixed as typeof crypto.getRandomValues
  let tick = Date.UTC(2026, 0, 1)
  const storage = memoryStorage()
  const mem = await createMemory({ storage, now: () => tick })
  const rows = factRows(size + bursts * 1000)
  const write = (r: (typeof rows)[number]): Promise<unknown> =>
    meta ? mem.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom }) : mem.facts.write(r.content)
  for (let i = 0; i < size; i += 1000) {
    tick += 1000
    await Promise.all(rows.slice(i, Math.min(size, i + 1000)).map(write))
  }
  const alloc = out !== undefined && process.env['MEMWEAVE_PROFILE_ALLOC'] === '1'
  const session = new Session()
  if (alloc) {
    session.connect()
    await session.post('HeapProfiler.enable')
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  }
  const stopProfile = await startCpuProfile(alloc ? undefined : out)
  const cpus: number[] = []
  for (let b = 0; b < bursts; b++) {
    const burst = rows.slice(size + b * 1000, size + (b + 1) * 1000)
    tick += 1000
    const start = process.cpuUsage()
    await Promise.all(burst.map(write))
    const cpu = process.cpuUsage(start)
    cpus.push((cpu.user + cpu.system) / 1000)
  }
  await stopProfile()
  if (alloc) writeFileSync(out.replace(/\.cpuprofile$/, '') + '.heapprofile', JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile))
  const records = await storage.read(['records'], (tx) => tx.all<{ id: string }>('records'))
  records.sort((a, b) => (a.id < b.id ? -1 : 1))
  const digest = createHash('sha256').update(JSON.stringify(records)).digest('hex').slice(0, 16)
  await mem.close()
  const warm = cpus.slice(1).sort((a, b) => a - b)
  console.log(
    `facts ${size} ${meta ? 'meta' : 'plain'} bursts ${bursts}: first ${cpus[0]!.toFixed(1)} ms, warm median ${warm[warm.length >> 1]!.toFixed(1)} ms CPU; records ${records.length} digest ${digest}`,
  )
}

await main()
