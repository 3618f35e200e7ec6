import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * Writes test/fixtures/sync-log/<name>/: a Node file store holding a pool whose persisted Yjs log
 * (`syncUpdates`) was compacted by the checkout given, and `expected.json`, what the test needs to
 * know about it. Made for store format 2 (issue 31, second round), whose compaction chunks are
 * smaller than 0.2.0's 4,096 clocks: today's build must read the old parts and re-chunk them, and
 * leave no byte of a forgotten memory in any row.
 *
 *     git worktree add --detach /tmp/mw-old ee16973 && ln -s "$PWD/node_modules" /tmp/mw-old/
 *     npx tsx scripts/make-sync-log-fixture.ts /tmp/mw-old test/fixtures/sync-log/ee16973
 *
 * The writer imports the checkout's own `src/` (tsx compiles it), through its public entries.
 */
const MEMORIES = 300
const SECRET = 'the blue flowerpot by the gate'
const OWNER_SEED = 41

async function main(checkout: string, out: string): Promise<void> {
  const src = (p: string): string => pathToFileURL(join(resolve(checkout), 'src', p)).href
  const api = (await import(src('index.ts'))) as typeof import('../src/index.js')
  const node = (await import(src('node/index.ts'))) as typeof import('../src/node/index.js')
  rmSync(out, { recursive: true, force: true })
  const dir = join(out, 'store')
  mkdirSync(dir, { recursive: true })

  let now = Date.parse('2026-11-27T12:00:00Z')
  const identity = await api.createIdentity({ seed: new Uint8Array(32).fill(OWNER_SEED) })
  const mem = await api.createMemory({ storage: node.fileStorage({ dir }), identity, now: () => (now += 1000) })
  const pool = (await mem.pools.create({ name: 'old log' })).id
  // A link that is always in step with nobody: the document is filled and persisted as with a relay.
  const net = new api.InProcessNetwork()
  await mem.sync.attach(pool, net.provider('owner'))
  const ids: string[] = []
  for (let i = 0; i < MEMORIES; i++) {
    const object = i === 7 ? SECRET : `place ${i}`
    ids.push((await mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: `item ${i}`, predicate: 'is_at', object } })).id)
  }
  await mem.sync.flush()
  // Forgotten before the old build compacted: no row may hold it, now or after today's build rewrites the log.
  await mem.pools.forget(ids[7]!)
  await mem.pools.flush()
  await mem.sync.flush()
  await mem.close()
  const expected = { pool, owner: identity.did, ownerSeed: OWNER_SEED, readAt: now, memories: ids.filter((_, i) => i !== 7), forgotten: ids[7], secret: SECRET }
  writeFileSync(join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`)
}

const [checkout, out] = process.argv.slice(2)
if (!checkout || !out) throw new Error('usage: tsx scripts/make-sync-log-fixture.ts <checkout> <out dir>')
await main(checkout, out)
