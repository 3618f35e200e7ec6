import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { createIdentity, createMemory } from '../../src/index.js'
import { FileStorage, fileStorage } from '../../src/node/file-adapter.js'
import { decodeValue, encodeValue } from '../../src/node/file-codec.js'
import { checkedLine } from '../../src/node/file-lines.js'
import type { Embedder } from '../../src/facts/embedder.js'
import { storageContract } from '../helpers/storage-contract.js'

const dirs: string[] = []
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'memweave-file-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** Every file under `dir`, recursively, with its bytes. */
async function filesOf(dir: string): Promise<Array<{ path: string; bytes: Buffer }>> {
  const out: Array<{ path: string; bytes: Buffer }> = []
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out.push({ path, bytes: await readFile(path) })
  }
  return out
}

const meta = async (s: FileStorage, key: string) => s.read(['meta'], (tx) => tx.get<{ key: string; value: unknown }>('meta', key))

storageContract('file', async () => fileStorage({ dir: await tempDir() }))

describe('file storage: durability', () => {
  test('rows (including Float32Array, -0, NaN, undefined and "$mw" keys) survive close and reopen', async () => {
    const dir = await tempDir()
    const vec = new Float32Array([0.1, -0, Number.NaN, Infinity, 1e-40, -3.5])
    const tricky = { $mw: 'Float32Array', b64: 'AAAA', nested: [{ $mw: 'obj' }, undefined, -0] }
    let s = fileStorage({ dir })
    await s.open()
    await s.write(['vectors', 'meta'], async (tx) => {
      await tx.put('vectors', [{ ref: 'r1', embedder: 'e', vec }])
      await tx.put('meta', [{ key: 'tricky', value: tricky }])
    })
    const keys = await s.write(['log'], (tx) => tx.put('log', [{ ref: 'a', op: 'put' }, { ref: 'b', op: 'put' }]))
    await s.close()

    s = fileStorage({ dir })
    const row = await s.read(['vectors'], (tx) => tx.get<{ vec: Float32Array }>('vectors', 'r1'))
    expect(row!.vec).toBeInstanceOf(Float32Array)
    expect(Buffer.from(row!.vec.buffer, row!.vec.byteOffset, row!.vec.byteLength)).toEqual(Buffer.from(vec.buffer))
    expect((await meta(s, 'tricky'))!.value).toStrictEqual(tricky)
    // autoIncrement continues after the reloaded keys.
    const next = await s.write(['log'], (tx) => tx.put('log', [{ ref: 'c', op: 'put' }]))
    expect(Number(next[0])).toBeGreaterThan(Number(keys[1]))
    await s.close()
  })

  test('changes replay in the order they were made (a delete then a put of one key keeps the row)', async () => {
    // MemoryStorage's ChangeSet lists puts and deletes apart; replaying it puts-then-deletes would lose this row.
    const dir = await tempDir()
    const s = fileStorage({ dir })
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'k', value: 1 }]))
    await s.write(['meta'], async (tx) => {
      await tx.delete('meta', ['k'])
      await tx.put('meta', [{ key: 'k', value: 2 }])
      await tx.put('meta', [{ key: 'gone', value: 3 }])
      await tx.delete('meta', ['gone'])
    })
    await s.close()
    const again = fileStorage({ dir })
    expect(await meta(again, 'k')).toMatchObject({ value: 2 })
    expect(await meta(again, 'gone')).toBeUndefined()
    await again.close()
  })

  test('the codec round-trips values JSON cannot hold', () => {
    const value = { a: new Uint8Array([1, 2, 255]), f: new Float64Array([Math.PI]), n: [Number.NEGATIVE_INFINITY, -0], d: new Date(5), $mw: 1 }
    const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(value))))
    expect(back).toStrictEqual(value)
    expect(() => encodeValue({ m: new Map() })).toThrow(expect.objectContaining({ code: 'STORAGE' }))
  })

  test('a GMP store on file storage: facts, supersession, signatures and deletes persist across reopen', async () => {
    const dir = await tempDir()
    const identity = await createIdentity()
    const embedder: Embedder = { id: 'test-embedder', embed: async (texts) => texts.map((t) => new Float32Array([t.length, 1, -0.5])) }
    let mem = await createMemory({ storage: fileStorage({ dir }), identity, facts: { embedder } })
    const r1 = await mem.facts.write('Aria lives in Rome', { validFrom: '2020-01-01T00:00:00Z', metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
    const r2 = await mem.facts.supersede(r1, 'Aria lives in Milan', { validFrom: '2022-01-01T00:00:00Z', metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
    const r3 = await mem.facts.write('tenant fact', { tenantId: 'T' })
    const r4 = await mem.facts.write('short-lived')
    expect(await mem.facts.delete(r4)).toBe(true)
    const before = await mem.facts.audit()
    await mem.close()

    mem = await createMemory({ storage: fileStorage({ dir }), identity, facts: { embedder } })
    const after = await mem.facts.audit()
    expect(after).toEqual(before)
    expect(after.map((m) => m.ref)).toEqual([r1, r2, r3])
    expect(after.find((m) => m.ref === r1)!.supersededBy).toBe(r2)
    for (const m of after) expect(await mem.facts.verifyProvenance(m, m.factId)).toBe(true)
    expect((await mem.facts.retrieve('Aria', { asOf: '2021-01-01T00:00:00Z' })).map((m) => m.ref)).toEqual([r1])
    await mem.close()
  })
})

describe('file storage: atomicity', () => {
  /** An fsync that fails the next `failures` calls, like a disk returning EIO. */
  function flakyDisk() {
    const disk = {
      failures: 0,
      fsync: async (file: import('node:fs/promises').FileHandle) => {
        if (disk.failures > 0) {
          disk.failures--
          throw Object.assign(new Error('EIO: simulated disk failure'), { code: 'EIO' })
        }
        await file.datasync()
      },
    }
    return disk
  }

  test('a failed fsync of the log leaves nothing visible, nothing on disk, and later writes work', async () => {
    const dir = await tempDir()
    const disk = flakyDisk()
    const s = fileStorage({ dir, fsync: disk.fsync })
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'kept', value: 1 }]))
    disk.failures = 1
    await expect(s.write(['meta'], (tx) => tx.put('meta', [{ key: 'lost', value: 'LOST-MARKER' }]))).rejects.toMatchObject({ code: 'STORAGE' })
    expect(await meta(s, 'lost')).toBeUndefined()
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'after', value: 3 }]))
    // The part of the line that reached the file was taken back.
    for (const f of await filesOf(dir)) expect(f.bytes.includes('LOST-MARKER')).toBe(false)
    await s.close()

    const again = fileStorage({ dir })
    expect(await meta(again, 'kept')).toMatchObject({ value: 1 })
    expect(await meta(again, 'lost')).toBeUndefined()
    expect(await meta(again, 'after')).toMatchObject({ value: 3 })
    await again.close()
  })

  test('when the rollback itself cannot be made durable, writes are refused until a reopen', async () => {
    const dir = await tempDir()
    const disk = flakyDisk()
    const s = fileStorage({ dir, fsync: disk.fsync })
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'kept', value: 1 }]))
    disk.failures = 2
    await expect(s.write(['meta'], (tx) => tx.put('meta', [{ key: 'lost', value: 2 }]))).rejects.toMatchObject({ code: 'STORAGE' })
    await expect(s.write(['meta'], (tx) => tx.put('meta', [{ key: 'x', value: 3 }]))).rejects.toThrow(/reopen/)
    expect(await meta(s, 'kept')).toMatchObject({ value: 1 })
    await s.close()
    const again = fileStorage({ dir })
    expect(await meta(again, 'lost')).toBeUndefined()
    await again.write(['meta'], (tx) => tx.put('meta', [{ key: 'x', value: 3 }]))
    await again.close()
  })

  test('a failed compaction (a delete) changes nothing, in memory or on disk, and leaves no temp file', async () => {
    const dir = await tempDir()
    const disk = flakyDisk()
    const s = fileStorage({ dir, fsync: disk.fsync })
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'a', value: 1 }, { key: 'b', value: 2 }]))
    disk.failures = 1
    await expect(s.write(['meta'], (tx) => tx.delete('meta', ['a']))).rejects.toMatchObject({ code: 'STORAGE' })
    expect(await meta(s, 'a')).toMatchObject({ value: 1 })
    expect((await readdir(dir)).sort()).toEqual(['LOCK', 'log.jsonl', 'snapshot.jsonl'])
    // The storage stays usable: the delete goes through on a healthy disk.
    await s.write(['meta'], (tx) => tx.delete('meta', ['b']))
    await s.close()
    const again = fileStorage({ dir })
    expect(await meta(again, 'a')).toMatchObject({ value: 1 })
    expect(await meta(again, 'b')).toBeUndefined()
    await again.close()
  })

  test('a torn last line (crash mid-append) is dropped; log lines already in the snapshot are skipped', async () => {
    const dir = await tempDir()
    const s = fileStorage({ dir })
    await s.write(['meta'], (tx) => tx.put('meta', [{ key: 'a', value: 1 }]))
    await s.write(['meta'], (tx) => tx.delete('meta', ['missing'])) // compacts: snapshot at seq 2
    await s.close()
    const header = JSON.parse((await readFile(join(dir, 'snapshot.jsonl'), 'utf8')).split('\n')[0]!.slice(17)) as { seq: number }
    expect(header.seq).toBe(2)
    // A stale line (seq 1, as if the truncate after a rename never happened) and a torn one.
    const torn = checkedLine({ n: 3, ops: [['p', 'meta', { key: 't', value: 1 }]] }).line
    await writeFile(join(dir, 'log.jsonl'), checkedLine({ n: 1, ops: [['d', 'meta', 'a']] }).line + torn.slice(0, 30))
    const again = fileStorage({ dir })
    expect(await meta(again, 'a')).toMatchObject({ value: 1 })
    expect(await meta(again, 't')).toBeUndefined()
    expect((await stat(join(dir, 'log.jsonl'))).size).toBe(0)
    await again.close()
  })

  test('a corrupt line in the middle of a v1 log refuses to open (DATA_DAMAGED), touches nothing and releases the lock', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'changes.jsonl'), 'garbage\n{"n":1,"ops":[]}\n')
    await expect(fileStorage({ dir }).open()).rejects.toMatchObject({
      code: 'DATA_DAMAGED',
      details: { problems: [{ file: 'changes.jsonl', line: 1, reason: 'not JSON' }] },
    })
    expect((await readdir(dir)).sort()).toEqual(['changes.jsonl'])
    expect(await readFile(join(dir, 'changes.jsonl'), 'utf8')).toBe('garbage\n{"n":1,"ops":[]}\n')
  })
})

describe('file storage: hard delete', () => {
  test('deleted content leaves no byte in any file of the directory', async () => {
    const dir = await tempDir()
    const mem = await createMemory({ storage: fileStorage({ dir }), identity: await createIdentity() })
    const secret = 'zq-SECRET-7f3a9c'
    const ref = await mem.facts.write(`the vault code is ${secret}`, { metadata: { subject: 'vault', predicate: 'code', object: `obj-${secret}` } })
    const keep = await mem.facts.write('the weather is mild')
    const hasSecret = async () => (await filesOf(dir)).some((f) => f.bytes.includes(secret))
    expect(await hasSecret()).toBe(true)
    expect(await mem.facts.delete(ref)).toBe(true)
    expect(await hasSecret()).toBe(false)
    // The deleted signature bytes are gone too.
    expect((await mem.facts.audit()).map((m) => m.ref)).toEqual([keep])
    await mem.close()
    expect(await hasSecret()).toBe(false)
  })
})

describe('file storage: one process owns a directory', () => {
  test('a live process holding the lock is refused with CONFLICT', async () => {
    const dir = await tempDir()
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      await writeFile(join(dir, 'LOCK'), `${child.pid}\n`)
      const err = await fileStorage({ dir }).open().catch((e: unknown) => e)
      expect(err).toMatchObject({ code: 'CONFLICT', details: { pid: child.pid } })
      expect((err as Error).message).toContain(`process ${child.pid}`)
    } finally {
      child.kill('SIGKILL')
    }
  })

  test('a second open in the same process is refused; after close it succeeds', async () => {
    const dir = await tempDir()
    const a = fileStorage({ dir })
    await a.open()
    await expect(fileStorage({ dir }).open()).rejects.toMatchObject({ code: 'CONFLICT' })
    await a.close()
    const b = fileStorage({ dir })
    await b.open()
    expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(`${process.pid}\n`)
    await b.close()
    expect(await readdir(dir)).not.toContain('LOCK')
  })

  test('a lock left by a dead process is taken over', async () => {
    const dir = await tempDir()
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
    await new Promise((resolve) => child.once('exit', resolve))
    await writeFile(join(dir, 'LOCK'), `${child.pid}\n`)
    const s = fileStorage({ dir })
    await s.open()
    expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(`${process.pid}\n`)
    await s.close()
  })

  test('use after close throws CLOSED; close is idempotent', async () => {
    const s = fileStorage({ dir: await tempDir() })
    await s.open()
    await s.close()
    await s.close()
    await expect(s.read(['meta'], (tx) => tx.count('meta'))).rejects.toMatchObject({ code: 'CLOSED' })
  })
})

describe('file storage: found by name', () => {
  // Issue 29: `storage: 'file'` is what a Node user tries first; the refusal names what to use instead.
  test("createMemory({ storage: 'file' }) is INVALID_ARGUMENT naming fileStorage from memweave/node", async () => {
    const err = await createMemory({ storage: 'file' as never }).then(() => null, (e: unknown) => e)
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'storage' } })
    expect((err as Error).message).toMatch(/fileStorage\(\{ dir \}\) from "memweave\/node"/)
  })
})
