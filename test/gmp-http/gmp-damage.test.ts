import { type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { GmpHttpClient } from '../../src/gmp-http/client.js'
import { checkedLine } from '../../src/node/file-lines.js'
import { ensureBuilt, runCliProcess, startCliServer, type CliResult } from '../helpers/processes.js'

// Issue 13, against `memweave gmp serve --dir` as a process and real damaged files: damage was
// skipped silently, served as altered content, or wedged a store with a 500 forever; a store past
// ~512 MiB could no longer be written or reopened.
const BUILT = ['dist/src/cli/gmp-repair.js']
const LISTENING = /^memweave GMP server listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/


const children: ChildProcess[] = []
const dirs: string[] = []

interface Served {
  readonly url: string
  readonly stderr: () => string
  stop(): Promise<number | null>
}

async function serve(dir: string, extra: string[] = []): Promise<Served> {
  const { child, url, exited, stderr: err } = await startCliServer(['gmp', 'serve', '--port', '0', '--dir', dir, ...extra], LISTENING, {
    onSpawn: (c) => children.push(c),
  })
  return {
    url,
    stderr: err,
    stop: () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}

function repair(args: string[]): Promise<CliResult> {
  return runCliProcess(['gmp', 'repair', ...args])
}

async function rawAudit(url: string, store: string): Promise<{ status: number; body: { error?: string; message?: string; memories?: unknown[] } }> {
  const res = await fetch(`${url}/stores/${store}/audit`)
  return { status: res.status, body: (await res.json()) as { error?: string; message?: string; memories?: unknown[] } }
}

async function write(client: GmpHttpClient, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) await client.write(`fact number ${i}`)
}

beforeAll(() => ensureBuilt(BUILT), 120_000)
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'memweave-gmp-damage-'))
  dirs.push(dir)
  return dir
}

describe('gmp serve --dir: damaged stores are refused clearly, the others keep working, repair keeps what is intact', () => {
  test('a line removed from the middle of the log: 503 store_damaged (files untouched), then repair keeps 199 of 200', async () => {
    const dir = await tempDir()
    const first = await serve(dir)
    const a = await GmpHttpClient.createStore(first.url)
    const b = await GmpHttpClient.createStore(first.url)
    await write(a, 200)
    await write(b, 3)
    expect(await first.stop()).toBe(0)

    const log = join(dir, 'stores', a.storeId, 'log.jsonl')
    const lines = (await readFile(log, 'utf8')).split('\n')
    expect(lines).toHaveLength(201)
    lines.splice(99, 1)
    await writeFile(log, lines.join('\n'))
    const damaged = await readFile(log)

    const second = await serve(dir)
    const refused = await rawAudit(second.url, a.storeId)
    expect(refused.status).toBe(503)
    expect(refused.body.error).toBe('store_damaged')
    expect(refused.body.message).toMatch(new RegExp(`store ${a.storeId} is damaged.*log\\.jsonl line 100: transactions 100\\.\\.100 are missing.*Run: memweave gmp repair --dir .* --store ${a.storeId}`))
    await expect(new GmpHttpClient(second.url, a.storeId).audit()).rejects.toMatchObject({ code: 'DATA_DAMAGED' })
    expect(await new GmpHttpClient(second.url, b.storeId).audit()).toHaveLength(3)
    await new GmpHttpClient(second.url, b.storeId).write('the other store still takes writes')
    expect(Buffer.compare(await readFile(log), damaged)).toBe(0)
    // Reported once on the server's stderr, however many requests it refused.
    expect(second.stderr().split(`store ${a.storeId} is damaged`)).toHaveLength(2)

    // Repair refuses to run beside a live server.
    expect((await repair(['--dir', dir])).code).toBe(1)
    expect(await second.stop()).toBe(0)
    const fixed = await repair(['--dir', dir])
    expect(fixed.code).toBe(0)
    expect(fixed.stdout).toContain(`store ${a.storeId}: repaired, kept`)
    expect(fixed.stdout).toContain('dropped log.jsonl line 100: transactions 100..100 are missing')
    expect(fixed.stdout).toContain(`store ${b.storeId}: intact`)
    const backups = (await readdir(join(dir, 'stores', a.storeId))).filter((f) => f.startsWith('damaged-'))
    expect(backups).toHaveLength(1)
    expect(Buffer.compare(await readFile(join(dir, 'stores', a.storeId, backups[0]!, 'log.jsonl')), damaged)).toBe(0)

    const third = await serve(dir)
    const facts = await new GmpHttpClient(third.url, a.storeId).audit()
    expect(facts).toHaveLength(199)
    expect(facts.map((m) => m.content)).not.toContain('fact number 99')
    expect(await new GmpHttpClient(third.url, b.storeId).audit()).toHaveLength(4)
    expect(await third.stop()).toBe(0)
    expect((await repair(['--dir', dir])).stdout).not.toContain('repaired')
  }, 120_000)

  test('altered content: a bit flip fails its line checksum; an edit with a recomputed checksum fails the fact hash and signature', async () => {
    const dir = await tempDir()
    const first = await serve(dir)
    const flipped = await GmpHttpClient.createStore(first.url)
    const edited = await GmpHttpClient.createStore(first.url)
    await write(flipped, 5)
    await write(edited, 5)
    expect(await first.stop()).toBe(0)

    const flippedLog = join(dir, 'stores', flipped.storeId, 'log.jsonl')
    await writeFile(flippedLog, (await readFile(flippedLog, 'utf8')).replace('fact number 3', 'fact number 8'))
    const editedLog = join(dir, 'stores', edited.storeId, 'log.jsonl')
    const lines = (await readFile(editedLog, 'utf8')).split('\n')
    const at = lines.findIndex((l) => l.includes('fact number 3'))
    lines[at] = checkedLine(JSON.parse(lines[at]!.slice(17).replace('fact number 3', 'fact number 8'))).line.trimEnd()
    await writeFile(editedLog, lines.join('\n'))

    const second = await serve(dir)
    const one = await rawAudit(second.url, flipped.storeId)
    expect(one.status).toBe(503)
    expect(one.body.message).toMatch(/log\.jsonl line 4: checksum mismatch/)
    const two = await rawAudit(second.url, edited.storeId)
    expect(two.status).toBe(503)
    expect(two.body.message).toMatch(/holds 1 record\(s\) that fail their checks \([0-9a-f]{32}: its content does not hash to its id \(altered\)\)/)
    // Facts are checked when first served; once one fails, the whole store is refused.
    const refusedWrite = await fetch(`${second.url}/stores/${edited.storeId}/write`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'more' }) })
    expect(refusedWrite.status).toBe(503)
    expect(await second.stop()).toBe(0)

    const fixed = await repair(['--dir', dir])
    expect(fixed.code).toBe(0)
    expect(fixed.stdout).toMatch(/dropped log\.jsonl line 4: checksum mismatch/)
    expect(fixed.stdout).toMatch(/dropped records [0-9a-f]{32}: its content does not hash to its id \(altered\)/)
    const third = await serve(dir)
    for (const id of [flipped.storeId, edited.storeId]) {
      const contents = (await new GmpHttpClient(third.url, id).audit()).map((m) => m.content).sort()
      expect(contents).toEqual(['fact number 0', 'fact number 1', 'fact number 2', 'fact number 4'])
    }
    expect(await third.stop()).toBe(0)
  }, 120_000)

  test('a snapshot deleted with its log kept is refused, not served as the 199 facts of the log; repair keeps those', async () => {
    const dir = await tempDir()
    const first = await serve(dir)
    const store = await GmpHttpClient.createStore(first.url)
    await write(store, 20)
    expect(await first.stop()).toBe(0)
    const second = await serve(dir) // folds the 20 into the snapshot on open
    await write(new GmpHttpClient(second.url, store.storeId), 199, 20)
    expect(await second.stop()).toBe(0)
    await unlink(join(dir, 'stores', store.storeId, 'snapshot.jsonl'))

    const third = await serve(dir)
    const refused = await rawAudit(third.url, store.storeId)
    expect(refused.status).toBe(503)
    expect(refused.body.message).toMatch(/snapshot\.jsonl: missing while log\.jsonl exists/)
    expect(await third.stop()).toBe(0)
    const fixed = await repair(['--dir', dir, '--store', store.storeId])
    expect(fixed.stdout).toMatch(/dropped log\.jsonl line 1: transactions 1\.\.\d+ are missing/)
    const fourth = await serve(dir)
    expect(await new GmpHttpClient(fourth.url, store.storeId).audit()).toHaveLength(199)
    expect(await fourth.stop()).toBe(0)
  }, 120_000)
})

describe('gmp serve --dir: the store size cap', () => {
  test('writes past --max-store-bytes answer 413 quota_exceeded before the limit; the store reopens with every accepted fact', async () => {
    const dir = await tempDir()
    const first = await serve(dir, ['--max-store-bytes', '3000000'])
    const store = await GmpHttpClient.createStore(first.url)
    const big = (i: number): string => `${i} `.padEnd(900_000, 'x')
    const refs = []
    for (let i = 0; i < 3; i++) refs.push(await store.write(big(i)))
    const res = await fetch(`${first.url}/stores/${store.storeId}/write`, { method: 'POST', body: JSON.stringify({ content: big(3) }), headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ error: 'quota_exceeded', message: expect.stringMatching(/is limited to 3000000 bytes; this write would make it \d+/) })
    await expect(store.write(big(4))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' })
    expect(await store.audit()).toHaveLength(3)
    expect(await first.stop()).toBe(0)

    const second = await serve(dir, ['--max-store-bytes', '3000000'])
    const again = new GmpHttpClient(second.url, store.storeId)
    expect((await again.audit()).map((m) => m.content.slice(0, 2)).sort()).toEqual(['0 ', '1 ', '2 '])
    expect(await again.delete(refs[0]!)).toBe(true)
    await again.write(big(5))
    expect(await again.audit()).toHaveLength(3)
    expect(await second.stop()).toBe(0)
    expect(second.stderr()).toBe('')
  }, 120_000)
})

describe('store-check: what a stored fact must prove', () => {
  test('a fact passes; altered content, fact id or signature fails even with every hash recomputed around it', async () => {
    const { createMemory } = await import('../../src/index.js')
    const { recordId, contentFactId } = await import('../../src/core/ids.js')
    const { toHex } = await import('../../src/core/bytes.js')
    const { checkRecord } = await import('../../src/gmp-http/store-check.js')
    const storage = (await import('../../src/storage/memory-adapter.js')).memoryStorage()
    const mem = await createMemory({ storage })
    await mem.facts.write('Aria lives in Rome', { signingKey: new Uint8Array(32).fill(7) })
    type Rec = { id: string; kind: string; tenant: string | null; body: { content: string; factId: string; source: { signature: string } }; author: string | null; hlc: string }
    const [row] = await storage.read(['records'], (tx) => tx.where<Rec>('records', 'kind', 'fact'))
    expect(await checkRecord(row!)).toBeNull()
    const rehash = (r: Rec): Rec => ({ ...r, id: recordId({ kind: r.kind, tenant: r.tenant, body: r.body, author: r.author, hlc: r.hlc }) })
    expect(await checkRecord({ ...row!, body: { ...row!.body, content: 'Aria lives in Oslo' } })).toMatch(/does not hash to its id/)
    expect(await checkRecord(rehash({ ...row!, body: { ...row!.body, content: 'Aria lives in Oslo' } }))).toMatch(/does not hash to its fact id/)
    const factId = toHex(contentFactId('Aria lives in Oslo', null))
    expect(await checkRecord(rehash({ ...row!, body: { ...row!.body, content: 'Aria lives in Oslo', factId } }))).toBe('its signature does not verify')
    const sig = row!.body.source.signature
    const flipped = `${sig.slice(0, 10)}${sig[10] === '0' ? '1' : '0'}${sig.slice(11)}`
    expect(await checkRecord(rehash({ ...row!, body: { ...row!.body, source: { ...row!.body.source, signature: flipped } } }))).toBe('its signature does not verify')
    await mem.close()
  })
})

describe('GMP server: large replies', () => {
  test('an audit past 16 MiB of content is streamed item by item (chunked) and reads back whole', async () => {
    const { createGmpServer } = await import('../../src/gmp-http/server.js')
    const server = createGmpServer({ port: 0 })
    const { url } = await server.listen()
    try {
      const store = await GmpHttpClient.createStore(url)
      const contents = Array.from({ length: 18 }, (_, i) => `${i} "quoted" \\ `.padEnd(1_000_000, 'y'))
      for (const c of contents) await store.write(c)
      const res = await fetch(`${url}/stores/${store.storeId}/audit`)
      expect(res.status).toBe(200)
      expect(res.headers.get('transfer-encoding')).toBe('chunked')
      expect(res.headers.get('content-length')).toBeNull()
      const body = (await res.json()) as { memories: Array<{ content: string }> }
      expect(body.memories.map((m) => m.content).sort()).toEqual([...contents].sort())
      // A small list keeps its content-length.
      const small = await GmpHttpClient.createStore(url)
      await small.write('one')
      expect((await fetch(`${url}/stores/${small.storeId}/audit`)).headers.get('content-length')).not.toBeNull()
    } finally {
      await server.close()
    }
  }, 60_000)
})
