import { expect, it } from 'vitest'
import { isMemweaveError } from '../../src/core/errors.js'
import { ClusterRoom, type ClusterHost } from '../../src/relay/redis/cluster-room.js'
import { poolKeys } from '../../src/relay/redis/keys.js'
import { redisForFile } from '../helpers/redis-for-file.js'

// Issue 28: a cluster relay refuses a pool whose Redis keys a newer relay wrote (the snapshot's
// `v` field, the owner pin's `v`), and changes none of them.

const db = redisForFile()

const host = (): ClusterHost => ({
  redis: db.redis, instance: 'test/1', compactAfterBytes: 1 << 20, maxDocumentBytes: 1 << 24, maxPendingBytes: 1 << 20, leaseMs: 1000, waitReplicas: 0, waitMs: 1000, oneServer: true, notifyAppend: null,
  onError: () => undefined, onAppendFailed: () => undefined, publishAwareness: () => undefined,
  counters: { updatesIn: 0, updatesOut: 0, compactions: 0 },
  compactKey: 'memweave:compact', pinCopy: () => null, copyWins: () => false, notePin: () => undefined,
  pinned: async () => undefined, compactedFully: async () => undefined,
})

/** Every key of a pool with its value, as text. */
async function dump(keys: ReturnType<typeof poolKeys>): Promise<string> {
  return JSON.stringify([await db.redis.hgetall(keys.snap), await db.redis.xrange(keys.log, '-', '+'), await db.redis.get(keys.owner), await db.redis.get(keys.lease)])
}

it('a snapshot of a newer format (v = 2) is refused and the keys are unchanged', async () => {
  const keys = poolKeys('memweave:', 'a'.repeat(32))
  await db.redis.hset(keys.snap, { s: Buffer.from([0, 0]), upto: '1-0', v: '2' })
  await db.redis.xadd(keys.log, '2-0', 'u', Buffer.from([0, 0]), 'n', 'other/1')
  const before = await dump(keys)
  const err = await ClusterRoom.load('a'.repeat(32), keys, host()).catch((e: unknown) => e)
  expect(isMemweaveError(err) && err.code).toBe('FORMAT_TOO_NEW')
  expect(isMemweaveError(err) && err.details).toMatchObject({ what: 'redisSnapshot', found: 2, reads: 1 })
  expect(await dump(keys)).toBe(before)
})

it('an owner pin of a newer format (v = 2) is refused and the keys are unchanged', async () => {
  const keys = poolKeys('memweave:', 'b'.repeat(32))
  await db.redis.set(keys.owner, JSON.stringify({ v: 2, owner: 'did:key:z6MknjP9hAx6HD8DqLfycGYuvM6Y9WLHRQ1sKE2wCSj6nA4i', source: 'proof', at: 1 }))
  const before = await dump(keys)
  const err = await ClusterRoom.load('b'.repeat(32), keys, host()).catch((e: unknown) => e)
  expect(isMemweaveError(err) && err.code).toBe('FORMAT_TOO_NEW')
  expect(isMemweaveError(err) && err.details).toMatchObject({ what: 'ownerPin', found: 2 })
  expect(await dump(keys)).toBe(before)
})
