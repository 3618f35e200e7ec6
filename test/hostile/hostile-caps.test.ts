import { expect, test } from 'vitest'
import type { FactMemory } from '../../src/facts/types.js'
import type { Memory, PoolId } from '../../src/index.js'
import { PoolKind, type PoolBody } from '../../src/pools/records.js'
import { asValue } from '../../e2e/raw-client.js'
import { fact } from '../helpers/pools-helpers.js'
import { writersArena, eventually, memoryBody, objects, signedAt, sleep } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Regression (issue 26, case 3): the API refuses a memory over its caps, but records that arrived
 * by sync met none of them. A member's 10 MB memory was accepted into every pool, the facts store
 * then refused its fact, which failed the whole fact-view update: later honest memories never
 * reached `mem.facts`, the pool stayed `syncing`, and the owner's share() and revoke() rejected with
 * INVALID_ARGUMENT. Records that arrive by sync now meet the API's caps (one definition) before
 * anything derives from them, and are quarantined `malformed` with the field and the cap.
 */

const MB = 1 << 20

/** The objects of the pool's facts in `mem.facts` (the fact view of the pool's memories). */
async function factObjects(mem: Memory, pool: PoolId): Promise<string[]> {
  const all = (await mem.facts.audit()) as FactMemory[]
  return all.filter((f) => f.metadata['pool'] === pool && f.validUntil === null).map((f) => String(f.metadata['object'])).sort()
}

async function state(mem: Memory): Promise<string> {
  return (await mem.sync.status()).pools[0]!.state
}

test('a member\'s oversized and mis-shaped memories are quarantined; honest memories reach mem.facts, sync settles, share and revoke work', async () => {
  const { a, bob, malloryId } = await writersArena()
  const mallory = await a.raw(malloryId.did, true)
  await sleep(30)

  const p = { ...(memoryBody('mallory', 'honest') as { payload: object }).payload }
  const bodies: Record<string, object> = {
    'object of 10 MB': { payload: { ...p, object: 'x'.repeat(10 * MB) } },
    'subject over 512': { payload: { ...p, subject: 's'.repeat(513) } },
    'context over 4096': { payload: { ...p, context: 'c'.repeat(5000) } },
    'source over 256': { payload: { ...p, source: 'y'.repeat(257) } },
    'empty predicate': { payload: { ...p, predicate: '   ' } },
    'confidence over 1': { payload: { ...p, confidence: 7 } },
    'evidence not ids': { payload: { ...p, evidence: ['e'.repeat(2 * MB)] } },
    'a field the API never writes': { payload: { ...p, junk: 'j'.repeat(2 * MB) } },
    'tombstone target not an id': { targets: [{ id: 't'.repeat(2 * MB), supersedes: [] }], reason: 'forget' },
    'resolve with a huge loser': { winner: 'a'.repeat(32), losers: ['l'.repeat(2 * MB)] },
    'observation of 2 MB': { task: 't', content: 'o'.repeat(2 * MB), agent: 'mallory', attention: 0.5, confidence: 1, candidate: false, beliefType: null },
    'artifact with a path for a slug': { slug: '../../etc/passwd', version: 1, parents: [], text: 'x' },
  }
  const kinds: Record<string, string> = {
    'tombstone target not an id': PoolKind.TOMBSTONE, 'resolve with a huge loser': PoolKind.RESOLVE,
    'observation of 2 MB': 'observation', 'artifact with a path for a slug': 'artifact-version',
  }
  const planted = new Map<string, string>()
  for (const [what, body] of Object.entries(bodies)) {
    const kind = (kinds[what] ?? PoolKind.MEMORY) as PoolKind
    const r = await signedAt(malloryId, a.pool, kind, body as PoolBody, Date.now())
    planted.set(r.id, what)
    mallory.records.set(r.id, asValue(r))
  }
  await sleep(100)

  // Honest writes after the attack, on both replicas.
  await bob.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  await a.owner.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
  for (const r of [a.owner, bob]) {
    await eventually(() => objects(r.mem, a.pool), ['Oslo', 'Rome'], 30_000)
    await eventually(() => factObjects(r.mem, a.pool), ['Oslo', 'Rome'], 30_000)
    await eventually(async () => (await r.mem.sync.quarantine(a.pool)).map((q) => `${planted.get(q.key)} ${q.reason}`).sort(),
      [...planted.values()].map((w) => `${w} malformed`).sort(), 30_000)
    await eventually(() => state(r.mem), 'synced', 30_000)
  }
  const detail = (await a.owner.mem.sync.quarantine(a.pool)).find((q) => planted.get(q.key) === 'object of 10 MB')!.detail
  expect(detail).toMatch(/object/)

  // The owner administers the pool as before, and every replica hears of it.
  const carolId = await identityFor('carol')
  await a.owner.mem.pools.share(a.pool, carolId.did, { write: false })
  await a.owner.mem.pools.revoke(a.pool, malloryId.did)
  await eventually(async () => (await bob.mem.pools.info(a.pool)).members.map((m) => m.did).sort(), [a.owner.id.did, bob.id.did, carolId.did].sort(), 30_000)
  await bob.mem.pools.write(a.pool, fact('Carla', 'lives_in', 'Lima'))
  await eventually(() => factObjects(a.owner.mem, a.pool), ['Lima', 'Oslo', 'Rome'], 30_000)
  expect(await state(a.owner.mem)).toBe('synced')
}, 120_000)
