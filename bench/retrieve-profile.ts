import { createMemory, type FactMemory } from '../src/index.js'
import { startCpuProfile } from './cpu-profile.js'
import { benchQueries, factRows } from './fixtures.js'

/**
 * CPU per retrieve over the public API, for finding where a query's time goes (not a bench): N of
 * the fact bench's rows written into an in-memory store, then the bench's queries with its
 * 2,000-character budget, `process.cpuUsage` around them (rounds of 50, each round's queries
 * returning facts not returned before, as the bench's do). With an output path, a CPU profile of
 * the measured queries (`.cpuprofile`, for Chrome DevTools or speedscope).
 *
 *   npx tsx bench/retrieve-profile.ts [N=30000] [rounds=3] [profile.cpuprofile]
 *   MEMWEAVE_FREETEXT=off npx tsx bench/retrieve-profile.ts ...   # free-text conflicts off
 *
 * Prints one line: facts, queries, CPU µs per query (user + system), memories returned, and a
 * checksum of the memories returned in order and their `conflictsWith` (equal checksums: the same answers).
 */
const size = Number(process.argv[2] ?? 30_000)
const rounds = Number(process.argv[3] ?? 3)
const out = process.argv[4]

async function main(): Promise<void> {
  // A clock one millisecond on per reading: every run writes the same ids (comparable checksums),
  // and write times stay distinct, as a real clock leaves them.
  let tick = Date.UTC(2026, 0, 1)
  const mem = await createMemory({ storage: 'memory', now: () => (tick += 1), facts: { freeTextConflicts: process.env['MEMWEAVE_FREETEXT'] !== 'off' } })
  const rows = factRows(size)
  for (let i = 0; i < rows.length; i += 1000) {
    await Promise.all(rows.slice(i, i + 1000).map((r) => mem.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
  }
  // The bench's three warm-up queries: the first query's one-time costs stay out of the figure.
  for (const q of benchQueries(3, 1)) await mem.facts.retrieve(q, { budgetTokens: 2000 })
  const queries = benchQueries(50 * rounds)
  const stopProfile = await startCpuProfile(out)
  const answers: FactMemory[][] = []
  const start = process.cpuUsage()
  for (const q of queries) answers.push(await mem.facts.retrieve(q, { budgetTokens: 2000 }))
  const cpu = process.cpuUsage(start)
  await stopProfile()
  // Refs differ between runs (each store stamps with its own clock id): the checksum reads contents.
  let hits = 0, sum = 0
  const contentOf = async (ref: string): Promise<string> => (await mem.facts.get(ref))?.content ?? ref
  for (const got of answers) {
    hits += got.length
    for (const m of got) {
      const said = m.content + (await Promise.all(m.conflictsWith.map(contentOf))).sort().join('|')
      for (let i = 0; i < said.length; i++) sum = (sum * 31 + said.charCodeAt(i)) >>> 0
    }
  }
  await mem.close()
  const perQuery = (cpu.user + cpu.system) / queries.length
  console.log(`facts ${size} queries ${queries.length} cpu/query ${perQuery.toFixed(0)} us hits ${hits} checksum ${sum.toString(16)}`)
}

await main()
