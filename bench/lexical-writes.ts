import { terms } from '../src/facts/text.js'
import { factRowStream } from './fixtures.js'

/**
 * Issue 31 (seventh round): the lexical index alone, writes per 1,000 operations at a given size
 * (not a bench: the index's own cost, no FactState, no storage). The fact bench's contents are
 * indexed (templated facts: common terms held by a large share of the store), then, timed, in
 * rounds: 1,000 appends of new documents, 1,000 removals spread over the index, 1,000 adds after
 * those removals (before the seventh round they took the freed slots, their postings inserted in
 * the middle). With a module path, that file's LexicalIndex is measured instead (e.g. main's,
 * copied out with `git show main:src/facts/lexical-index.ts`), so old and new run alike.
 *
 *   npx tsx bench/lexical-writes.ts [N=100000] [rounds=3] [module]
 *
 * Prints ms per 1,000 for each kind (median of the rounds, and the range).
 */
const size = Number(process.argv[2] ?? 100_000)
const rounds = Number(process.argv[3] ?? 3)
const modulePath = process.argv[4] ?? '../src/facts/lexical-index.js'

interface Index {
  add(ref: string, terms: readonly string[], doc?: unknown): void
  remove(ref: string, terms: readonly string[]): void
  readonly size: number
}

async function main(): Promise<void> {
  const { LexicalIndex } = (await import(modulePath)) as { LexicalIndex: new () => Index }
  const rows = factRowStream()
  const texts: string[][] = []
  const next = (): string[] => terms(rows.next().value.content)
  for (let i = 0; i < size; i++) texts.push(next())
  const index = new LexicalIndex()
  for (let i = 0; i < size; i++) index.add(`r${i}`, texts[i]!, i)
  let made = size
  const kinds = { appends: [] as number[], removals: [] as number[], 'adds after removals': [] as number[] }
  const extra: string[][] = []
  for (let i = 0; i < rounds * 2000; i++) extra.push(next())
  let e = 0
  for (let r = 0; r < rounds; r++) {
    let t = performance.now()
    for (let i = 0; i < 1000; i++, made++) {
      texts.push(extra[e++]!)
      index.add(`r${made}`, texts[made]!, made)
    }
    kinds.appends.push(performance.now() - t)
    // Spread over what is indexed: a different stride each round, so no document is removed twice.
    const gone: number[] = []
    for (let i = 0; i < 1000; i++) gone.push(Math.floor(((i + 0.5) * size) / 1000) + r * 7 + 1)
    t = performance.now()
    for (const g of gone) index.remove(`r${g}`, texts[g]!)
    kinds.removals.push(performance.now() - t)
    t = performance.now()
    for (let i = 0; i < 1000; i++, made++) {
      texts.push(extra[e++]!)
      index.add(`r${made}`, texts[made]!, made)
    }
    kinds['adds after removals'].push(performance.now() - t)
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
  console.log(`lexical writes, ${size} documents, ${modulePath}, index size ${index.size}`)
  for (const [kind, xs] of Object.entries(kinds)) {
    console.log(`  ${kind}: ${median(xs).toFixed(1)} ms per 1,000 (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`)
  }
}

void main()
