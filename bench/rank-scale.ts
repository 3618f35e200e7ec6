import { pack, rank } from '../src/facts/rank.js'
import { FactState } from '../src/facts/state.js'
import { LexicalIndex } from '../src/facts/lexical-index.js'
import type { StoredRecord } from '../src/storage/schema.js'
import { startCpuProfile } from './cpu-profile.js'
import { benchQueries, factRowStream } from './fixtures.js'

/**
 * Issue 31: the ranking alone at a million facts, in Node (not a bench): the fact bench's rows
 * applied straight to a FactState (no write path, no signatures, no storage, free-text conflicts
 * off), so a store of 300k or 1M is built in seconds. Then, as a cold open from a lexical
 * snapshot does, the index restored from its snapshot and every record applied again, and the
 * heads' orders built as the store's load ends (`prepare`, timed alone); the first
 * query is timed alone (what is built on first use), then the bench's queries with its
 * 2,000-character budget, CPU per query. With an output path, a CPU profile of the measured queries.
 *
 *   npx tsx bench/rank-scale.ts [N=300000] [rounds=3] [profile.cpuprofile]
 *
 * Prints facts, prepare ms, first query ms, CPU µs per query (mean, p50, p95; wall p50 and p95 beside, noisy under load), postings the queries' terms hold, memories
 * returned, and a checksum of the refs returned in order (equal checksums: the same answers).
 */
const size = Number(process.argv[2] ?? 300_000)
const rounds = Number(process.argv[3] ?? 3)
const out = process.argv[4]

function load(records: readonly StoredRecord[], snapshot?: ReturnType<FactState['lexicalSnapshots']>): FactState {
  const state = new FactState(new Set())
  if (snapshot) state.restoreLexical(snapshot)
  for (const r of records) state.apply(r)
  if (snapshot) state.checkLexical()
  return state
}

async function main(): Promise<void> {
  const records: StoredRecord[] = []
  const rows = factRowStream()
  for (let i = 0; i < size; i++) records.push(rows.next().value.record as StoredRecord)
  const snapshot = load(records).lexicalSnapshots()
  // The cold open: a fresh state from the snapshot and the records, then its first query. The
  // store's load ends by building the heads' orders (`prepareOrders`); timed apart as `prepare`.
  const state = load(records, snapshot)
  let t = performance.now()
  state.prepareOrders()
  const prepareMs = performance.now() - t
  const budget = 2000
  const ask = (q: string): string[] =>
    pack(rank(q, state.current(null), { lexical: state.lexical(null), liveInIndex: true }), budget, null).map((v) => v.ref)
  const queries = benchQueries(50 * rounds)
  t = performance.now()
  ask(queries[0]!)
  const firstMs = performance.now() - t
  for (const q of benchQueries(3, 1)) ask(q)
  const lexical = state.lexical(null) as LexicalIndex
  let postings = 0
  for (const q of queries) for (const term of new Set(termsOf(q))) postings += lexical.documentFrequency(term)
  const stopProfile = await startCpuProfile(out)
  const answers: string[][] = []
  const start = process.cpuUsage()
  t = performance.now()
  const times: number[] = [], cpus: number[] = []
  for (const q of queries) {
    const s = performance.now(), c = process.cpuUsage()
    answers.push(ask(q))
    const used = process.cpuUsage(c)
    cpus.push(used.user + used.system)
    times.push(performance.now() - s)
  }
  times.sort((a, b) => a - b)
  cpus.sort((a, b) => a - b)
  const wall = performance.now() - t
  const cpu = process.cpuUsage(start)
  await stopProfile()
  let hits = 0, sum = 0
  for (const got of answers) {
    hits += got.length
    for (const ref of got) for (let i = 0; i < ref.length; i++) sum = (sum * 31 + ref.charCodeAt(i)) >>> 0
  }
  const perQuery = (cpu.user + cpu.system) / queries.length
  console.log(
    `facts ${size} prepare ${prepareMs.toFixed(0)} ms first ${firstMs.toFixed(0)} ms cpu/query mean ${perQuery.toFixed(0)} us p50 ${cpus[cpus.length >> 1]} us p95 ${cpus[Math.floor(cpus.length * 0.95)]} us (wall mean ${((wall / queries.length) * 1000).toFixed(0)} us, p50 ${(times[times.length >> 1]! * 1000).toFixed(0)} us, p95 ${(times[Math.floor(times.length * 0.95)]! * 1000).toFixed(0)} us) ` +
      `postings/query ${Math.round(postings / queries.length)} hits ${hits} checksum ${sum.toString(16)}`,
  )
}

const { terms: termsOf } = await import('../src/facts/text.js')
await main()
