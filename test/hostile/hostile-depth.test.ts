import { expect, test } from 'vitest'
import { fact } from '../helpers/pools-helpers.js'
import { arena, deepUpdate, eventually, objects, pushUpdate, replicaProcess } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Regression (issue 26, case 11): a token holder pushed plain JSON arrays 3,000 to 9,000 levels
 * deep into a pool's document. The relay kept and served them (in some runs), and a device that
 * joined afterwards hit `RangeError: Maximum call stack size exceeded` in Yjs' decoder on every
 * sync attempt and never joined. The joining device here is a process of its own with a smaller
 * stack than Node's default (about what a browser worker has), where Yjs' recursion gives out first.
 */
test.each([3_000, 6_000, 9_000, 200_000])('arrays %i levels deep from a raw client: the relay refuses them, and a device that joins later joins', async (depth) => {
  const a = await arena()
  await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  const mallory = await a.token((await identityFor('mallory')).did, true)
  // Refused out loud, before the relay stored or forwarded anything of that update.
  expect(await pushUpdate(`${a.url}/${a.pool}`, mallory, deepUpdate('deep', depth))).toMatch(/^1007 malformed: too-deep: a value nests more than 128 levels/)
  await a.owner.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
  await eventually(() => objects(a.owner.mem, a.pool), ['Oslo', 'Rome'])

  const reader = await a.raw((await identityFor('dave')).did, false)
  expect(reader.records.has('deep')).toBe(false)
  const carol = await replicaProcess(a, 'carol', ['--stack-size=250'])
  await a.owner.mem.pools.share(a.pool, carol.did, { write: false })
  await eventually(async () => (await carol.ask({ cmd: 'count' }))['count'], 2, 20_000)
  await carol.close()
}, 60_000)
