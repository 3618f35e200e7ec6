/**
 * Run INSIDE a checkout of an older commit (by make-upgrade-fixtures.ts, cwd = that checkout):
 * writes known data through that commit's public API into a file store, and what that build
 * answered about it into expected.json. Only APIs that every fixture commit has are used.
 *
 *   tsx upgrade-fixture-writer.ts <out dir>
 */
const out = process.argv[2]
if (!out) throw new Error('usage: upgrade-fixture-writer.ts <out dir>')
const root = process.cwd()
const { writeFile } = await import('node:fs/promises')
const { createMemory } = await import(`${root}/src/memory.ts`)
const { createIdentity } = await import(`${root}/src/core/identity.ts`)
// The file storage lived in src/storage/ before it moved to src/node/ (84484a9).
const files = await import(`${root}/src/node/file-adapter.ts`).catch(() => import(`${root}/src/storage/file-adapter.ts`))
const identity = await createIdentity({ seed: new Uint8Array(32).fill(28) })
const member = await createIdentity({ seed: new Uint8Array(32).fill(29) })
const mem = await createMemory({ storage: files.fileStorage({ dir: `${out}/store` }), identity })

const rome = await mem.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
await mem.facts.write('Aria lives in Paris', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Paris' } })
await mem.facts.supersede(rome, 'Aria lives in Milan', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
const doomed = await mem.facts.write('The vault code is 4417')
await mem.facts.write('Bo likes tea', { tenant: 'acme' })
await mem.facts.delete(doomed)

const pool = await mem.pools.create()
await mem.pools.share(pool.id, member.did, { write: true })
await mem.pools.write(pool.id, { type: 'PREFERENCE', content: { subject: 'communication_style', predicate: 'prefers', object: 'bullet_points', context: 'reviews' }, confidence: 0.9 })
await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' }, confidence: 0.6 })
await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Oslo' }, confidence: 0.7 })

await mem.artifacts.create('notes', { body: 'first\n' })
await mem.artifacts.commit('notes', { body: 'first\nsecond\n', message: 'a second line' })
await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] })
const wm = await mem.working.open('task')
await wm.addObservation({ content: 'The deploy window opens at 09:00 UTC', sourceAgentId: 'agent-a', confidence: 0.6 })
await wm.addObservation({ content: 'The deploy window opens at 11:00 UTC', sourceAgentId: 'agent-b' })

const expected = {
  audit: await mem.facts.audit(),
  factConflicts: await mem.facts.conflicts(),
  pools: await mem.pools.list(),
  poolMemories: (await mem.pools.query(pool.id)).map((m: { id: string; content: unknown; type: string; confidence: number }) => ({ id: m.id, content: m.content, type: m.type, confidence: m.confidence })),
  poolConflicts: await mem.pools.conflicts(pool.id),
  notes: await mem.artifacts.read('notes'),
  notesHistory: await mem.artifacts.history('notes'),
  plan: await mem.small.get('plan'),
  observations: await wm.observations(),
}
await mem.close()
await writeFile(`${out}/expected.json`, `${JSON.stringify(expected, null, 2)}\n`)
console.log(`wrote ${out}`)
