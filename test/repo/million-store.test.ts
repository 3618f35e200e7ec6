import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { formatMillionReport, type MillionResult } from '../../bench/million-bench.js'
import {
  MILLION_STORE_VERSION,
  manifestPath,
  parseMillionStore,
  prepareKeepDir,
  readMillionStore,
  writeMillionStore,
  type MillionStore,
} from '../../bench/million-store.js'

/**
 * Issue 31: the million-fact run's kept store (MEMWEAVE_BENCH_MILLION_KEEP / _REUSE). A reuse must
 * refuse a store it cannot vouch for, or it prints a 20k store's figures under a million's heading.
 */
const store: MillionStore = {
  version: MILLION_STORE_VERSION,
  count: 20_000,
  rawName: 'bench-million-raw-x',
  memweaveName: 'bench-million-x',
  port: 4610,
  write: { memweaveMs: 4310, baselineMs: 2360, tailPerSec: 5323 },
  storage: { usageBytes: 28_560_518, quotaBytes: 10_765_978_758 },
  commit: 'cc0487d51c42ad571c456caf9561a56ea30190ab',
  date: '2026-11-29T05:23:02.692Z',
}

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'million-store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('a kept manifest reads back at its own count', async () => {
  await writeMillionStore(dir, store)
  expect(await readMillionStore(dir, 20_000)).toEqual(store)
})

test('a reuse at another count is refused, naming both counts', async () => {
  await writeMillionStore(dir, store)
  await expect(readMillionStore(dir, 1_000_000)).rejects.toMatchObject({ code: 'MILLION_STORE_COUNT', message: expect.stringContaining('holds 20000 facts, the run asks for 1000000') })
})

test('a directory without a manifest is refused, and nothing is created in it', async () => {
  const missing = join(dir, 'never-kept')
  await expect(readMillionStore(missing, 20_000)).rejects.toMatchObject({ code: 'MILLION_STORE_MISSING' })
  await expect(readFile(manifestPath(missing))).rejects.toThrow()
})

test('a manifest that is not JSON, of another version, or missing a field is refused', () => {
  expect(() => parseMillionStore('{', 20_000)).toThrow(expect.objectContaining({ code: 'MILLION_STORE_INVALID' }))
  expect(() => parseMillionStore(JSON.stringify({ ...store, version: 2 }), 20_000)).toThrow(expect.objectContaining({ code: 'MILLION_STORE_INVALID' }))
  const { port: _port, ...noPort } = store
  expect(() => parseMillionStore(JSON.stringify(noPort), 20_000)).toThrow(expect.objectContaining({ code: 'MILLION_STORE_INVALID' }))
  expect(() => parseMillionStore(JSON.stringify({ ...store, write: { ...store.write, baselineMs: 'fast' } }), 20_000)).toThrow(
    expect.objectContaining({ code: 'MILLION_STORE_INVALID' }),
  )
})

test('keeping into a directory that already holds a store is refused, and its manifest is left as it was', async () => {
  await mkdir(dir, { recursive: true })
  await writeMillionStore(dir, store)
  const before = await readFile(manifestPath(dir), 'utf8')
  await expect(prepareKeepDir(dir)).rejects.toMatchObject({ code: 'MILLION_STORE_EXISTS' })
  expect(await readFile(manifestPath(dir), 'utf8')).toBe(before)
})

test("a reuse's table takes the write row from the kept run and says so", async () => {
  await writeFile(manifestPath(dir), JSON.stringify({ ...store, commit: `${store.commit}-dirty` }))
  const kept = await readMillionStore(dir, 20_000)
  const result: MillionResult = {
    facts: 20_000,
    open: { memweaveMs: 656, baselineMs: 290, ratio: 656 / 290, reps: 1, firstRetrieveMs: 91 },
    retrieve: { queries: 50, medianMs: 9.45, p95Ms: 27, meanHits: 24.2 },
    heap: { beforeBytes: 17 * 2 ** 20, heldBytes: 28 * 2 ** 20, backingBytes: 2 * 2 ** 20, perFact: 577 },
    elapsedMs: 4000,
  }
  const table = formatMillionReport(result, kept)
  expect(table).toContain('(stored run, 2026-11-29 05:23 UTC, commit cc0487d with uncommitted changes)')
  expect(table).toContain('| 1.83x |')
  expect(formatMillionReport(result)).toContain('(not written in this run)')
})
