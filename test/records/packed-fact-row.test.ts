import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemory, type Memory } from '../../src/memory.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { FORMAT_VERSIONS } from '../../src/core/format-version.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'
import { FORMAT_ROW, type FormatRow } from '../../src/records/format-marker.js'

/**
 * Issue 31 (session 12): store format 3 packs a fact's row (src/core/packed-fact-row.ts). These go
 * through a Memory and the rows its storage holds: a write stores the packed row, every field of
 * the record comes back on the next open (through IndexedDB's clone and the file storage's JSON),
 * a row written before format 3 is read as it is and never rewritten, and a packed row this build
 * cannot read is refused with a code.
 */

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

type Row = Record<string, unknown> & { id: string; kind: string; tenant: string | null; author: string | null; hlc: string }
const rowsOf = (storage: StoragePort, kind = 'fact'): Promise<Row[]> =>
  storage.read(['records'], (tx) => tx.where<Row>('records', 'kind', kind))

const SEED = new Uint8Array(32).fill(7)

/** Facts that use every field of a body: metadata (structured, so a structured id), tenant, a signed source, a supersession, a valid time apart from the write time, and text a byte packing could mangle. */
async function writeEveryField(mem: Memory): Promise<void> {
  const rome = await mem.facts.write('Aria lives in Rome', {
    metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome', importance: 0.5, session_id: 's-1' },
    validFrom: '2020-01-01T00:00:00Z',
  })
  await mem.facts.supersede(rome, 'Aria lives in Milan', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
  await mem.facts.write('signed: Bo likes tea \u0000\u00ff\u{1f375}', { signingKey: SEED, tenantId: 'acme' })
  await mem.facts.write('plain, no metadata')
}

/** What a Memory answers about every fact it holds, as the API gives it. */
async function answers(mem: Memory): Promise<unknown> {
  const all = await mem.facts.audit()
  return all.map((m) => JSON.parse(JSON.stringify(m)) as unknown).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
}

/** The fact records a Memory's export writes, as they were signed. */
async function exported(mem: Memory): Promise<Row[]> {
  const out: Row[] = []
  for await (const line of mem.export()) {
    const l = JSON.parse(line) as { record?: Row }
    if (l.record?.kind === 'fact') out.push(l.record)
  }
  return out
}

async function refusal(promise: Promise<unknown>): Promise<Record<string, unknown> & { code: string }> {
  const err = await promise.then(() => null, (e: unknown) => e)
  expect(isMemweaveError(err), `expected a MemweaveError, got ${String(err)}`).toBe(true)
  const e = err as { code: string; message: string; details: Record<string, unknown> }
  return { ...e.details, code: e.code, message: e.message }
}

async function idbStorage(): Promise<StoragePort> {
  const { indexedDbStorage } = await import('../../src/storage/dexie-adapter.js')
  return indexedDbStorage({ name: 'packed', indexedDB: new IDBFactory(), IDBKeyRange })
}

describe('on IndexedDB (fake-indexeddb: a structured clone each way)', () => {
  it('a write stores the packed row (no body object), and the next open answers every field as the writing handle did', async () => {
    const storage = await idbStorage()
    const mem = await createMemory({ storage })
    await writeEveryField(mem)
    const before = await answers(mem)
    await mem.close()
    await storage.open()
    const rows = await rowsOf(storage)
    expect(rows).toHaveLength(4)
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(['id', 'kind', 'f'])
      expect((r['f'] as unknown[])[0]).toBe(FORMAT_VERSIONS.factRow)
    }
    const marker = await storage.read(['meta'], (tx) => tx.get<FormatRow>('meta', FORMAT_ROW))
    expect(marker?.version).toBe(3)
    await storage.close()
    const again = await createMemory({ storage })
    expect(await answers(again)).toEqual(before)
    // Every field, the ids of each record included: the export writes records as they were signed.
    const lines: string[] = []
    for await (const line of again.export()) lines.push(line)
    const records = await exported(again)
    expect(records).toHaveLength(4)
    for (const r of records) {
      expect(Object.keys(r)).toEqual(['id', 'kind', 'tenant', 'body', 'author', 'hlc'])
      expect(Object.keys(r['body'] as object)).toEqual(['content', 'factId', 'structuredId', 'metadata', 'validFrom', 'writtenAt', 'supersedes', 'source'])
    }
    const fresh = await createMemory({ storage: 'memory' })
    const report = await fresh.import(lines.join(''))
    expect(report.problems).toEqual([])
    expect(report.complete).toBe(true)
    expect(await answers(fresh)).toEqual(before)
    await fresh.close()
    await again.close()
  })
})

// The memory and file adapters keep a written record by reference and store it as it is
// (log.ts #packRows); they read packed rows too (a store's rows copied from IndexedDB).
const unpacking: Array<[string, () => Promise<StoragePort>]> = [
  ['memory', async () => memoryStorage()],
  ['file (JSON lines)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'memweave-packed-'))
    dirs.push(dir)
    return fileStorage({ dir })
  }],
]

describe.each(unpacking)('on %s storage', (_, make) => {
  it('packed rows copied in answer every field as IndexedDB did; its own writes are stored as objects', async () => {
    const idb = await idbStorage()
    const source = await createMemory({ storage: idb })
    await writeEveryField(source)
    const expected = await answers(source)
    await source.close()
    await idb.open()
    const packed = await idb.read(['records', 'meta'], async (tx) => ({ records: await tx.all<Row>('records'), meta: await tx.all<object>('meta') }))
    await idb.close()
    const storage = await make()
    await storage.open()
    await storage.write(['records', 'meta'], async (tx) => {
      await tx.put('records', packed.records)
      await tx.put('meta', packed.meta)
    })
    await storage.close()
    const mem = await createMemory({ storage })
    expect(await answers(mem)).toEqual(expected)
    await mem.facts.write('Bo likes tea')
    await mem.close()
    await storage.open()
    const rows = await rowsOf(storage)
    expect(rows.filter((r) => r['f'] !== undefined)).toHaveLength(4)
    expect(rows.filter((r) => r['f'] === undefined).map((r) => Object.keys(r))).toEqual([['id', 'kind', 'tenant', 'body', 'author', 'hlc']])
    await storage.close()
  })
})

describe('rows written before store format 3', () => {
  it('are read as they are, and a write beside them packs only its own row: the old row keeps every byte', async () => {
    // A fact row as format 2 wrote it (the body an object), put in by hand under a format 2 marker.
    const storage = memoryStorage()
    const writer = await createMemory({ storage })
    await writer.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
    const expected = await answers(writer)
    const [record] = await exported(writer)
    await writer.close()
    const old = await idbStorage()
    await old.open()
    await old.write(['records', 'meta'], async (tx) => {
      await tx.put('records', [record!])
      await tx.put('meta', [{ key: FORMAT_ROW, version: 2, schema: 3, writtenBy: '0.3.0' }])
    })
    const oldBytes = JSON.stringify(await rowsOf(old))
    await old.close()

    const mem = await createMemory({ storage: old })
    expect(await answers(mem)).toEqual(expected)
    await mem.facts.write('Bo likes tea')
    await mem.close()
    await old.open()
    const rows = await rowsOf(old)
    expect(JSON.stringify(rows.filter((r) => r.id === record!.id))).toBe(oldBytes)
    expect(rows.filter((r) => r.id !== record!.id).map((r) => Object.keys(r))).toEqual([['id', 'kind', 'f']])
    await old.close()
  })

  it('a record of another shape than a write makes (a body key more) is stored and read back as it is', async () => {
    const storage = memoryStorage()
    const mem = await createMemory({ storage })
    await mem.facts.write('Aria lives in Rome')
    await mem.close()
    await storage.open()
    const { unpackRecord, packRecord } = await import('../../src/core/packed-fact-row.js')
    const [row] = await rowsOf(storage)
    const record = unpackRecord(row!) as Row & { body: Record<string, unknown> }
    const odd = { ...record, body: { ...record.body, extra: 1 } }
    expect(packRecord(odd)).toBe(odd)
    const upper = { ...record, body: { ...record.body, factId: (record.body['factId'] as string).toUpperCase() } }
    expect(packRecord(upper)).toBe(upper)
    expect(unpackRecord(packRecord(record))).toEqual(record)
    await storage.close()
  })
})

describe('a packed row this build cannot read', () => {
  /** A store holding one fact whose row is packed by hand (format 1 of the row: version, clock, text, id bytes, valid time), then edited. */
  async function storeWithRow(edit: (f: unknown[]) => unknown): Promise<StoragePort> {
    const storage = memoryStorage()
    const mem = await createMemory({ storage })
    await mem.facts.write('Aria lives in Rome')
    const [record] = await exported(mem)
    await mem.close()
    const body = record!['body'] as { content: string; factId: string; validFrom: number }
    const ids = String.fromCharCode(...body.factId.match(/../g)!.map((h) => parseInt(h, 16)))
    const f = [1, record!.hlc, body.content, ids, body.validFrom]
    await storage.open()
    await storage.write(['records'], (tx) => tx.put('records', [{ id: record!.id, kind: 'fact', f: edit(f) }]))
    await storage.close()
    return storage
  }

  it('of a newer packed version is refused with FORMAT_TOO_NEW naming the row format and versions', async () => {
    expect(FORMAT_VERSIONS.factRow).toBe(1)
    const storage = await storeWithRow((f) => [2, ...f.slice(1)])
    const err = await refusal(createMemory({ storage }))
    expect(err).toMatchObject({ code: 'FORMAT_TOO_NEW', what: 'factRow', found: 2, reads: 1 })
  })

  it('that is damaged (ids cut short, a field of the wrong type, not a list) is refused with DATA_DAMAGED naming the row', async () => {
    for (const edit of [
      (f: unknown[]) => f.map((x, i) => (i === 3 ? (x as string).slice(0, 5) : x)),
      (f: unknown[]) => f.map((x, i) => (i === 2 ? 42 : x)),
      () => 'not a list',
    ]) {
      const storage = await storeWithRow(edit)
      const err = await refusal(createMemory({ storage }))
      expect(err.code).toBe('DATA_DAMAGED')
      expect(err['problems']).toEqual([expect.objectContaining({ table: 'records', ref: expect.any(String) })])
    }
  })
})
