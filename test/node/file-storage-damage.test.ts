import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { MEMWEAVE_VERSION } from '../../src/core/format-version.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { checkedLine } from '../../src/node/file-lines.js'

// Issue 13: damaged files of the file storage were skipped silently, served, or wedged the store.

const dirs: string[] = []
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'memweave-damage-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** A directory whose log holds `n` transactions (one meta row each) after an empty snapshot. */
async function storeWithLog(n: number): Promise<string> {
  const dir = await tempDir()
  const s = fileStorage({ dir })
  await s.open()
  for (let i = 0; i < n; i++) await s.write(['meta'], (tx) => tx.put('meta', [{ key: `k${i}`, value: i }]))
  await s.close()
  return dir
}

const meta = async (s: ReturnType<typeof fileStorage>, key: string) => s.read(['meta'], (tx) => tx.get<{ key: string; value: string }>('meta', key))

async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const f of (await readdir(dir)).sort()) out[f] = await readFile(join(dir, f), 'utf8')
  return out
}

async function refused(dir: string, options: { expectData?: boolean } = {}): Promise<unknown> {
  const before = await files(dir)
  const err = await fileStorage({ dir, ...options }).open().then(() => null, (e: unknown) => e)
  // Refused, untouched, unlocked.
  expect(await files(dir)).toEqual(before)
  return err
}

describe('file storage: damage is refused (DATA_DAMAGED), never served or skipped', () => {
  test('a line removed from the middle of log.jsonl: a gap in the transaction numbers', async () => {
    const dir = await storeWithLog(200)
    const lines = (await readFile(join(dir, 'log.jsonl'), 'utf8')).split('\n')
    lines.splice(99, 1)
    await writeFile(join(dir, 'log.jsonl'), lines.join('\n'))
    expect(await refused(dir)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ file: 'log.jsonl', line: 100, reason: 'transactions 100..100 are missing' }] } })
  })

  test('a bit flip inside a row (still valid JSON) fails the line checksum', async () => {
    const dir = await storeWithLog(20)
    const text = await readFile(join(dir, 'log.jsonl'), 'utf8')
    await writeFile(join(dir, 'log.jsonl'), text.replace('"value":7}', '"value":6}'))
    expect(await refused(dir)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ file: 'log.jsonl', line: 8, reason: 'checksum mismatch' }, { line: 9, reason: 'transactions 8..8 are missing' }] } })
    expect(String((await refused(dir) as Error).message)).toMatch(/is damaged \(log\.jsonl line 8: checksum mismatch; .*\); it was left untouched: a repair/)
  })

  test('a garbage line, in the log or the snapshot', async () => {
    const dir = await storeWithLog(5)
    await writeFile(join(dir, 'log.jsonl'), `${await readFile(join(dir, 'log.jsonl'), 'utf8')}garbage\n`)
    expect(await refused(dir)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ file: 'log.jsonl', line: 6, reason: 'no checksum' }] } })
    const other = await storeWithLog(5)
    const s = fileStorage({ dir: other })
    await s.open()
    await s.close() // folds the log into the snapshot
    const snap = (await readFile(join(other, 'snapshot.jsonl'), 'utf8')).split('\n')
    snap[3] = 'garbage'
    await writeFile(join(other, 'snapshot.jsonl'), snap.join('\n'))
    expect(await refused(other)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ file: 'snapshot.jsonl', line: 4 }, { reason: 'holds 4 intact rows, its end line says 5' }] } })
  })

  test('a snapshot cut at a line boundary, or deleted with its log kept, or deleted with an empty log', async () => {
    const cut = await storeWithLog(10)
    const opened = fileStorage({ dir: cut })
    await opened.open()
    await opened.close()
    const snap = (await readFile(join(cut, 'snapshot.jsonl'), 'utf8')).split('\n')
    await writeFile(join(cut, 'snapshot.jsonl'), snap.slice(0, 5).join('\n') + '\n')
    expect(await refused(cut)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ reason: 'no end line (cut short)' }] } })

    const lost = await storeWithLog(30)
    await unlink(join(lost, 'snapshot.jsonl'))
    expect(await refused(lost)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ file: 'snapshot.jsonl', reason: expect.stringMatching(/^missing while log\.jsonl exists/) }] } })

    const empty = await storeWithLog(0)
    await unlink(join(empty, 'snapshot.jsonl'))
    expect(await refused(empty, { expectData: true })).toMatchObject({ code: 'DATA_DAMAGED' })
  })

  test('v1 files (no checksums): a renumbered line is a gap, a missing snapshot is a gap, a clean v1 store migrates', async () => {
    const v1Line = (n: number): string => `${JSON.stringify({ n, ops: [['p', 'meta', { key: `k${n}`, value: n }]] })}\n`
    const renumbered = await tempDir()
    await writeFile(join(renumbered, 'changes.jsonl'), [1, 2, 3, 9, 5, 6].map(v1Line).join(''))
    expect(await refused(renumbered)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ line: 4, reason: 'transactions 4..8 are missing' }, { line: 5, reason: 'transaction 5 out of order (after 9)' }, { line: 6 }] } })

    const noSnapshot = await tempDir()
    await writeFile(join(noSnapshot, 'changes.jsonl'), [200, 201, 202].map(v1Line).join(''))
    expect(await refused(noSnapshot)).toMatchObject({ code: 'DATA_DAMAGED', details: { problems: [{ reason: 'transactions 1..199 are missing' }] } })

    const clean = await tempDir()
    const snapshot = { format: 'memweave.file-storage', version: 1, seq: 2, tables: { meta: [{ key: 'k1', value: 1 }, { key: 'k2', value: 2 }] } }
    await writeFile(join(clean, 'snapshot.json'), JSON.stringify(snapshot))
    await writeFile(join(clean, 'changes.jsonl'), [1, 2, 3, 4].map(v1Line).join(''))
    const s = fileStorage({ dir: clean })
    expect(await s.read(['meta'], (tx) => tx.all('meta'))).toEqual([1, 2, 3, 4].map((n) => ({ key: `k${n}`, value: n })))
    await s.close()
    expect((await readdir(clean)).sort()).toEqual(['log.jsonl', 'snapshot.jsonl'])
    const again = fileStorage({ dir: clean })
    expect(await again.read(['meta'], (tx) => tx.count('meta'))).toBe(4)
    await again.close()
  })
})

describe('file storage: a size cap refuses growth before it, and a capped store reopens', () => {
  test('writes past maxBytes are refused with QUOTA_EXCEEDED and change nothing; deletes still work', async () => {
    const dir = await tempDir()
    const big = 'x'.repeat(10_000)
    const s = fileStorage({ dir, maxBytes: 35_000 })
    for (let i = 0; i < 3; i++) await s.write(['meta'], (tx) => tx.put('meta', [{ key: `k${i}`, value: big }]))
    await expect(s.write(['meta'], (tx) => tx.put('meta', [{ key: 'k3', value: big }]))).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { limit: 35_000, size: expect.any(Number) },
    })
    expect(await s.read(['meta'], (tx) => tx.count('meta'))).toBe(3)
    // Replacing a row with a smaller one, and deleting, are always allowed.
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'k0', value: 'small' }]))
    await s.write(['meta'], (tx) => tx.delete('meta', ['k1']))
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'k3', value: big }]))
    const size = s.size
    await s.close()
    const again = fileStorage({ dir, maxBytes: 35_000 })
    expect(await again.read(['meta'], (tx) => tx.all('meta'))).toEqual([
      { key: 'k0', value: 'small' }, { key: 'k2', value: big }, { key: 'k3', value: big },
    ])
    expect(again.size).toBe(size)
    await again.close()
  })

  test('a store reopens with a lower cap than it was written under: over the cap it only refuses growth', async () => {
    const dir = await tempDir()
    const s = fileStorage({ dir, maxBytes: 10_000_000 })
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'big', value: 'z'.repeat(2_500_000) }]))
    await s.close()
    const lower = fileStorage({ dir, maxBytes: 1_000_000 })
    expect((await meta(lower, 'big'))?.value).toHaveLength(2_500_000)
    await expect(lower.write(['meta'], (tx) => tx.put('meta', [{ key: 'more', value: 1 }]))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' })
    await lower.write(['meta'], (tx) => tx.delete('meta', ['big']))
    await lower.write(['meta'], (tx) => tx.put('meta', [{ key: 'more', value: 1 }]))
    await lower.close()
  })

  test('a budget shared by several storages caps their sum while they are open, and is given back on close', async () => {
    const budget = { limit: 50_000, used: 0 }
    const big = 'x'.repeat(10_000)
    const a = fileStorage({ dir: await tempDir(), budget })
    const bDir = await tempDir()
    const b = fileStorage({ dir: bDir, budget })
    for (let i = 0; i < 3; i++) await a.write(['meta'], (tx) => tx.put('meta', [{ key: `a${i}`, value: big }]))
    await b.write(['meta'], (tx) => tx.put('meta', [{ key: 'b0', value: big }]))
    expect(budget.used).toBe(a.size + b.size)
    await expect(b.write(['meta'], (tx) => tx.put('meta', [{ key: 'b1', value: big }]))).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED', details: { limit: 50_000, scope: 'shared' },
    })
    await a.close()
    expect(budget.used).toBe(b.size)
    await b.write(['meta'], (tx) => tx.put('meta', [{ key: 'b1', value: big }]))
    await b.close()
    expect(budget.used).toBe(0)
    const again = fileStorage({ dir: bDir, budget })
    expect(await again.read(['meta'], (tx) => tx.count('meta'))).toBe(2)
    expect(budget.used).toBe(again.size)
    await again.close()
  })

  test('the snapshot is one checksummed line per row, with a header and a row count', async () => {
    const dir = await storeWithLog(3)
    const s = fileStorage({ dir })
    await s.open()
    await s.close()
    const lines = (await readFile(join(dir, 'snapshot.jsonl'), 'utf8')).trimEnd().split('\n')
    expect(lines).toEqual([
      checkedLine({ format: 'memweave.file-storage', version: 2, seq: 3, writtenBy: MEMWEAVE_VERSION }).line.trimEnd(),
      ...[0, 1, 2].map((i) => checkedLine({ t: 'meta', r: { key: `k${i}`, value: i } }).line.trimEnd()),
      checkedLine({ end: 3 }).line.trimEnd(),
    ])
  })
})

describe('repairFileStorage', () => {
  test('keeps every intact row and transaction, drops and reports the rest, copies the damaged files first; an intact directory is left alone', async () => {
    const { repairFileStorage } = await import('../../src/node/file-repair.js')
    const dir = await storeWithLog(10)
    const s = fileStorage({ dir })
    await s.open()
    await s.close() // the 10 rows are in the snapshot now
    const again = fileStorage({ dir })
    for (let i = 10; i < 15; i++) await again.write(['meta'], (tx) => tx.put('meta', [{ key: `k${i}`, value: i }]))
    await again.close()
    const snap = (await readFile(join(dir, 'snapshot.jsonl'), 'utf8')).split('\n')
    snap[3] = snap[3]!.replace('"value":2', '"value":9') // row k2: checksum fails
    await writeFile(join(dir, 'snapshot.jsonl'), snap.join('\n'))
    const log = (await readFile(join(dir, 'log.jsonl'), 'utf8')).split('\n')
    log.splice(1, 1) // transaction 12 (k11) gone
    await writeFile(join(dir, 'log.jsonl'), log.join('\n'))
    const damagedSnapshot = await readFile(join(dir, 'snapshot.jsonl'))

    const report = await repairFileStorage({
      dir,
      check: async (tables) => (tables.get('meta')?.has('k13') ? [{ table: 'meta', key: 'k13', reason: 'refused by the check' }] : []),
    })
    expect(report.damage).toEqual([
      { file: 'snapshot.jsonl', line: 4, reason: 'checksum mismatch' },
      { file: 'snapshot.jsonl', reason: 'holds 9 intact rows, its end line says 10' },
      { file: 'log.jsonl', line: 2, reason: 'transactions 12..12 are missing' },
    ])
    expect(report.dropped).toEqual([{ table: 'meta', key: 'k13', reason: 'refused by the check' }])
    expect(report.rows).toBe(12)
    expect(Buffer.compare(await readFile(join(report.backup!, 'snapshot.jsonl')), damagedSnapshot)).toBe(0)
    const opened = fileStorage({ dir, expectData: true })
    const keys = (await opened.read(['meta'], (tx) => tx.all<{ key: string }>('meta'))).map((r) => r.key).sort()
    expect(keys).toEqual(['k0', 'k1', 'k10', 'k12', 'k14', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9'])
    await opened.write(['meta'], (tx) => tx.put('meta', [{ key: 'after', value: 1 }]))
    await opened.close()
    const twice = await repairFileStorage({ dir })
    expect(twice.backup).toBeNull()
    expect(twice.damage).toEqual([])
  })
})

test('v1 files left beside a v2 snapshot (a migration cut short after its rename) are removed on open', async () => {
  const dir = await storeWithLog(2)
  await writeFile(join(dir, 'changes.jsonl'), `${JSON.stringify({ n: 1, ops: [['p', 'meta', { key: 'old', value: 'STALE-MARKER' }]] })}\n`)
  await writeFile(join(dir, 'snapshot.json'), '{"format":"memweave.file-storage","version":1,"seq":0,"tables":{}}')
  const s = fileStorage({ dir })
  expect(await s.read(['meta'], (tx) => tx.count('meta'))).toBe(2)
  await s.close()
  expect((await readdir(dir)).sort()).toEqual(['log.jsonl', 'snapshot.jsonl'])
})
