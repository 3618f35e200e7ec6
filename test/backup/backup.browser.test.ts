import { expect, test } from 'vitest'
import { createIdentity, openMemory, type OpenMemoryOptions, type RemoteMemory } from '../../src/index.js'

// Issue 28 in Chromium through openMemory: export to a file, clear the site's data (every
// IndexedDB database deleted), import from a file input, same answers.

const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
const open = (o: OpenMemoryOptions): Promise<RemoteMemory> => openMemory({ worker, ...o })

async function answers(mem: RemoteMemory): Promise<Record<string, unknown>> {
  const pools = await mem.pools.list()
  const wm = await mem.working.open('task')
  return {
    audit: await mem.facts.audit(),
    factConflicts: await mem.facts.conflicts(),
    pools,
    poolConflicts: await mem.pools.conflicts(pools[0]!.id),
    notes: await mem.artifacts.read('notes'),
    plan: await mem.small.get('plan'),
    observations: await wm.observations(),
  }
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name)
    req.onsuccess = () => resolve()
    req.onerror = () => reject(req.error)
    req.onblocked = () => reject(new Error(`deleting ${name} is blocked: a connection is still open`))
  })
}

test('export to a file, clear the site data, import from a file input: the same answers', async () => {
  const name = `backup-${crypto.randomUUID()}`
  const seed = crypto.getRandomValues(new Uint8Array(32))
  const mem = await open({ name, mode: 'shared', identity: await createIdentity({ seed }) })
  await mem.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
  await mem.facts.write('Aria lives in Paris', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Paris' } })
  const gone = await mem.facts.write('The vault code is 4417')
  await mem.facts.delete(gone)
  const pool = await mem.pools.create()
  await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' }, confidence: 0.6 })
  await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Oslo' }, confidence: 0.7 })
  await mem.artifacts.create('notes', { body: 'first\n' })
  await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] })
  const wm = await mem.working.open('task')
  await wm.addObservation({ content: 'The deploy window opens at 09:00 UTC', sourceAgentId: 'agent-a' })
  const before = await answers(mem)

  // The download: the lines as a Blob behind an object URL, as a page offers it.
  const lines: string[] = []
  for await (const line of mem.export()) lines.push(line)
  const blob = new Blob(lines, { type: 'application/x-ndjson' })
  const link = document.createElement('a')
  link.download = 'memory.jsonl'
  link.href = URL.createObjectURL(blob)
  const file = new File([await (await fetch(link.href)).blob()], 'memory.jsonl', { type: 'application/x-ndjson' })
  URL.revokeObjectURL(link.href)
  // The deleted text is gone; its digits alone could stand in a random signature's hex.
  expect(await file.text()).not.toContain('vault code')
  await mem.close()

  // Clear the site's data: every IndexedDB database of the origin goes.
  for (const db of await indexedDB.databases()) if (db.name) await deleteDatabase(db.name)
  expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(name)

  const input = document.createElement('input')
  input.type = 'file'
  const picked = new DataTransfer()
  picked.items.add(file)
  input.files = picked.files
  const restored = await open({ name, mode: 'shared', identity: await createIdentity({ seed }) })
  expect(await restored.facts.audit()).toEqual([])
  const report = await restored.import(input.files[0]!.stream())
  expect(report).toMatchObject({ refused: 0, complete: true, imported: lines.length - 2 })
  expect(await answers(restored)).toEqual(before)
  await restored.close()
})
