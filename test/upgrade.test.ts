import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createIdentity } from '../src/core/identity.js'
import { createMemory, type Memory } from '../src/memory.js'
import { fileStorage } from '../src/node/file-adapter.js'

/**
 * Issue 28: stores written by earlier commits of main (test/fixtures/upgrade/<commit>/, made by
 * scripts/make-upgrade-fixtures.ts through each commit's own public API) open in today's build
 * with every fact, pool, artifact, SMALL document and working-memory item as that build answered
 * (expected.json), field by field. The fixtures differ in format:
 *   12e980e  file storage format 1 (snapshot.json, changes.jsonl), a log row per record
 *   3d12fb5  file storage format 2 (checksummed snapshot.jsonl, log.jsonl), a log row per record
 *   b65c06b  file storage format 2, a log row per commit (main before 0.2.0)
 */

const FIXTURES = join(import.meta.dirname, 'fixtures', 'upgrade')
const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

/** A copy of a fixture's store: the fixture itself is never opened (an open migrates). */
async function copyOf(commit: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `memweave-upgrade-${commit}-`))
  dirs.push(dir)
  await cp(join(FIXTURES, commit, 'store'), dir, { recursive: true })
  return dir
}

async function open(dir: string, options: { fsync?: () => Promise<void> } = {}): Promise<Memory> {
  return createMemory({ storage: fileStorage({ dir, ...options }), identity: await createIdentity({ seed: new Uint8Array(32).fill(28) }) })
}

async function answers(mem: Memory, expected: Record<string, unknown>): Promise<Record<string, unknown>> {
  const pool = (expected['pools'] as Array<{ id: string }>)[0]!.id
  const wm = await mem.working.open('task')
  return {
    audit: await mem.facts.audit(),
    factConflicts: await mem.facts.conflicts(),
    pools: await mem.pools.list(),
    poolMemories: (await mem.pools.query(pool)).map((m) => ({ id: m.id, content: m.content, type: m.type, confidence: m.confidence })),
    poolConflicts: await mem.pools.conflicts(pool),
    notes: await mem.artifacts.read('notes'),
    notesHistory: await mem.artifacts.history('notes'),
    plan: await mem.small.get('plan'),
    observations: await wm.observations(),
  }
}

/** Dates as the JSON of expected.json has them. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

const commits = (await readdir(FIXTURES)).sort()

it('there are fixtures of today and of at least two earlier formats', () => {
  expect(commits.length).toBeGreaterThanOrEqual(3)
})

describe.each(commits)('a store written by %s', (commit) => {
  it('opens in today\'s build with everything as that build answered, field by field', async () => {
    const expected = JSON.parse(await readFile(join(FIXTURES, commit, 'expected.json'), 'utf8')) as Record<string, unknown>
    const mem = await open(await copyOf(commit))
    const actual = asJson(await answers(mem, expected)) as Record<string, unknown>
    for (const [field, value] of Object.entries(expected)) {
      if (value === null) continue // that build could not answer it
      expect(actual[field], field).toMatchObject(value as object)
    }
    expect((actual['audit'] as unknown[]).length).toBeGreaterThan(0)
    expect(JSON.stringify(actual)).not.toContain('4417') // the fact deleted there stays deleted
    await mem.close()
  })
})

it('a migration cut short (the disk fails during the rewrite) leaves the old files byte for byte, and they open after', async () => {
  const dir = await copyOf('12e980e')
  const before = Object.fromEntries(await Promise.all((await readdir(dir)).map(async (f) => [f, (await readFile(join(dir, f))).toString('hex')] as const)))
  expect(Object.keys(before).sort()).toEqual(['changes.jsonl', 'snapshot.json'])
  const failing = await open(dir, { fsync: () => Promise.reject(new Error('injected: the disk failed')) }).then(
    () => null,
    (err: unknown) => err,
  )
  expect((failing as { code?: string })?.code).toBe('STORAGE')
  const after = Object.fromEntries(await Promise.all((await readdir(dir)).filter((f) => f !== 'LOCK').map(async (f) => [f, (await readFile(join(dir, f))).toString('hex')] as const)))
  expect(after).toEqual(before)
  const expected = JSON.parse(await readFile(join(FIXTURES, '12e980e', 'expected.json'), 'utf8')) as Record<string, unknown>
  const mem = await open(dir)
  expect(asJson(await mem.facts.audit())).toMatchObject(expected['audit'] as object)
  await mem.close()
  expect((await readdir(dir)).sort()).toEqual(['log.jsonl', 'snapshot.jsonl'])
})
