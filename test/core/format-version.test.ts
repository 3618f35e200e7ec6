import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemory } from '../../src/memory.js'
import { createIdentity } from '../../src/core/identity.js'
import { FORMAT_VERSIONS, MEMWEAVE_VERSION } from '../../src/core/format-version.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { checkedLine, parseCheckedLine } from '../../src/node/file-lines.js'
import { UpdateLog } from '../../src/relay/update-log.js'
import { readOwnerPin } from '../../src/relay/owner-pin.js'
import { PinCopy } from '../../src/relay/redis/pin-copy.js'
import { loadOrCreateIdentity } from '../../src/gmp-http/server-identity.js'
import { StoreRegistry } from '../../src/gmp-http/store-registry.js'
import { dumpIndexedDb } from '../helpers/raw-indexeddb.js'

/**
 * Issue 28: every persisted format names its version, and a reader that meets a newer one refuses
 * with FORMAT_TOO_NEW, writes nothing (the bytes are the same afterwards) and says which version
 * wrote it. One test per persisted format.
 */

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'memweave-format-'))
  dirs.push(d)
  return d
}

/** Every file under `dir` with its bytes (hex), by relative path. */
async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    out[path.slice(dir.length)] = (await readFile(path)).toString('hex')
  }
  return out
}

async function refusal(promise: Promise<unknown>): Promise<Record<string, unknown> & { code: string; message: string }> {
  const err = await promise.then(() => null, (e: unknown) => e)
  expect(isMemweaveError(err), `expected a MemweaveError, got ${String(err)}`).toBe(true)
  const e = err as { code: string; message: string; details: Record<string, unknown> }
  return { ...e.details, code: e.code, message: e.message }
}

/** A file store holding one fact, closed. */
async function fileStoreWithAFact(dir: string): Promise<void> {
  const mem = await createMemory({ storage: fileStorage({ dir }) })
  await mem.facts.write('Aria lives in Rome')
  await mem.close()
}

describe('file storage directory (snapshot.jsonl header)', () => {
  it('today writes its format version and the memweave that wrote it', async () => {
    const dir = await tempDir()
    await fileStoreWithAFact(dir)
    const first = (await readFile(join(dir, 'snapshot.jsonl'), 'utf8')).split('\n')[0]!
    const parsed = parseCheckedLine(first)
    expect(parsed.ok && parsed.value).toMatchObject({ format: 'memweave.file-storage', version: FORMAT_VERSIONS.fileStorage, writtenBy: MEMWEAVE_VERSION })
  })

  it('a newer header is refused with FORMAT_TOO_NEW, naming its writer, and the directory is byte for byte unchanged', async () => {
    const dir = await tempDir()
    await fileStoreWithAFact(dir)
    const lines = (await readFile(join(dir, 'snapshot.jsonl'), 'utf8')).split('\n')
    const head = (parseCheckedLine(lines[0]!) as { value: Record<string, unknown> }).value
    lines[0] = checkedLine({ ...head, version: FORMAT_VERSIONS.fileStorage + 1, writtenBy: '9.0.0' }).line.slice(0, -1)
    await writeFile(join(dir, 'snapshot.jsonl'), lines.join('\n'))
    // A log line too, so an open that folded the log would change the bytes.
    await writeFile(join(dir, 'log.jsonl'), checkedLine({ n: 999, ops: [] }).line)
    const before = await snapshotDir(dir)
    const err = await refusal(createMemory({ storage: fileStorage({ dir }) }))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'fileStorage', found: 3, reads: 2, writtenBy: '9.0.0' })
    expect(err.message).toContain('memweave 9.0.0')
    expect(await snapshotDir(dir)).toEqual(before)
  })
})

describe("a Memory's records (the meta row 'format')", () => {
  it('on a file store: a newer marker is refused and the directory is byte for byte unchanged', async () => {
    const dir = await tempDir()
    await fileStoreWithAFact(dir)
    const storage = fileStorage({ dir })
    const marker = await storage.read(['meta'], (tx) => tx.get<Record<string, unknown>>('meta', 'format'))
    expect(marker).toMatchObject({ version: FORMAT_VERSIONS.store, writtenBy: MEMWEAVE_VERSION })
    await storage.write(['meta'], (tx) => tx.put('meta', [{ ...marker, version: FORMAT_VERSIONS.store + 1, writtenBy: '9.0.0' }]))
    await storage.close()
    const before = await snapshotDir(dir)
    expect(before['/log.jsonl']).not.toBe('') // an open that folded the log into the snapshot would change the bytes
    const err = await refusal(createMemory({ storage: fileStorage({ dir }) }))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'store', found: FORMAT_VERSIONS.store + 1, reads: FORMAT_VERSIONS.store, writtenBy: '9.0.0' })
    expect(await snapshotDir(dir)).toEqual(before)
  })

  it('on IndexedDB: a database a newer build upgraded (higher schema, newer marker) is refused, not read as empty, and left unchanged', async () => {
    const indexedDB = new IDBFactory()
    const opts = { storage: 'indexeddb' as const, name: 'newer', indexedDB, IDBKeyRange }
    const mem = await createMemory(opts)
    await mem.facts.write('Aria lives in Rome')
    await mem.close()
    // What a newer build does: a higher schema version with a table this build does not know, and its marker.
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('newer', 990)
      req.onupgradeneeded = () => {
        req.result.createObjectStore('verdictsOfTheFuture', { keyPath: 'id' })
        req.transaction!.objectStore('meta').put({ key: 'format', version: FORMAT_VERSIONS.store + 1, schema: 99, writtenBy: '9.0.0' })
      }
      req.onsuccess = () => {
        req.result.close()
        resolve()
      }
      req.onerror = () => reject(req.error)
    })
    const before = await dumpIndexedDb(indexedDB, 'newer')
    const err = await refusal(createMemory(opts))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'store', found: FORMAT_VERSIONS.store + 1, writtenBy: '9.0.0' })
    expect(await dumpIndexedDb(indexedDB, 'newer')).toBe(before)
  })

  it('a store without a marker (written before 0.2.0) opens, is read unchanged, and gets one with its next write', async () => {
    const indexedDB = new IDBFactory()
    const opts = { storage: 'indexeddb' as const, name: 'old', indexedDB, IDBKeyRange }
    const mem = await createMemory(opts)
    await mem.facts.write('Aria lives in Rome')
    await mem.close()
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('old')
      req.onsuccess = () => {
        const tx = req.result.transaction('meta', 'readwrite')
        tx.objectStore('meta').delete('format')
        tx.oncomplete = () => {
          req.result.close()
          resolve()
        }
      }
      req.onerror = () => reject(req.error)
    })
    const unmarked = await dumpIndexedDb(indexedDB, 'old')
    expect(unmarked).not.toContain('"format"')
    const reader = await createMemory(opts)
    expect((await reader.facts.audit()).map((m) => m.content)).toEqual(['Aria lives in Rome'])
    await reader.close()
    expect(await dumpIndexedDb(indexedDB, 'old')).toBe(unmarked)
    const writer = await createMemory(opts)
    await writer.facts.write('Aria works in Milan')
    await writer.close()
    expect(await dumpIndexedDb(indexedDB, 'old')).toContain(`"writtenBy":"${MEMWEAVE_VERSION}"`)
  })
})

describe('relay room files', () => {
  it('an update log with a newer magic (MWYLOG3) is refused and left unchanged', async () => {
    const dir = await tempDir()
    const path = join(dir, 'updates.log')
    await writeFile(path, Buffer.concat([Buffer.from('MWYLOG3\n'), Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9])]))
    const before = await snapshotDir(dir)
    const err = await refusal(UpdateLog.open(path, { warn: () => undefined }))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'relayLog', found: 3, reads: 2 })
    expect(await snapshotDir(dir)).toEqual(before)
  })

  it('an owner pin of a newer version is refused and left unchanged', async () => {
    const dir = await tempDir()
    const owner = (await createIdentity()).did
    await writeFile(join(dir, 'owner.json'), `${JSON.stringify({ v: 2, owner, source: 'proof', at: 1, writtenBy: '9.0.0' })}\n`)
    const before = await snapshotDir(dir)
    const err = await refusal(readOwnerPin(dir))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'ownerPin', found: 2, reads: 1, writtenBy: '9.0.0' })
    expect(await snapshotDir(dir)).toEqual(before)
  })

  it("a cluster node's pin copy with a line of a newer version is refused and left unchanged", async () => {
    const dir = await tempDir()
    const owner = (await createIdentity()).did
    const pin = JSON.stringify({ v: 1, owner, source: 'proof', at: 1 })
    // A line this build wrote, then one a newer relay wrote: the copy is refused whole, not skipped line by line.
    const ours = await PinCopy.open(dir, () => undefined)
    await ours.remember('a'.repeat(32), pin, () => undefined)
    await ours.close()
    expect(JSON.parse((await readFile(join(dir, 'pins.jsonl'), 'utf8')).split('\n')[0]!)).toMatchObject({ v: FORMAT_VERSIONS.relayPinCopy })
    await writeFile(join(dir, 'pins.jsonl'), `${JSON.stringify({ v: 2, pool: 'b'.repeat(32), pin })}\n`, { flag: 'a' })
    const before = await snapshotDir(dir)
    const err = await refusal(PinCopy.open(dir, () => undefined))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'relayPinCopy', found: 2, reads: 1 })
    expect(await snapshotDir(dir)).toEqual(before)
  })
})

describe('identity and GMP store files', () => {
  it('an identity file of a newer version is refused, not replaced by a new identity', async () => {
    const dir = await tempDir()
    await loadOrCreateIdentity(dir)
    const file = JSON.parse(await readFile(join(dir, 'identity.json'), 'utf8')) as Record<string, unknown>
    expect(file['version']).toBe(FORMAT_VERSIONS.identityFile)
    await writeFile(join(dir, 'identity.json'), JSON.stringify({ ...file, version: 2 }))
    const before = await snapshotDir(dir)
    expect(await refusal(loadOrCreateIdentity(dir))).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'identityFile', found: 2 })
    expect(await snapshotDir(dir)).toEqual(before)
  })

  it("a GMP store whose store.json a newer server wrote is refused and left unchanged", async () => {
    const dir = await tempDir()
    const identity = await createIdentity()
    const registry = new StoreRegistry({ dir, identity })
    const id = await registry.create()
    await (await registry.get(id))!.write('Aria lives in Rome')
    await registry.close()
    const path = join(dir, 'stores', id, 'store.json')
    const file = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
    await writeFile(path, JSON.stringify({ ...file, version: 2, writtenBy: '9.0.0' }))
    const before = await snapshotDir(dir)
    const again = new StoreRegistry({ dir, identity })
    expect(await refusal(again.get(id))).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'gmpStore', found: 2, writtenBy: '9.0.0' })
    await again.close()
    expect(await snapshotDir(dir)).toEqual(before)
  })
})

it('MEMWEAVE_VERSION is the package version', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  expect(MEMWEAVE_VERSION).toBe(pkg.version)
})
