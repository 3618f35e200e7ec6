import { expect, test } from 'vitest'
import { ClusterRoom, type ClusterHost } from '../../src/relay/redis/cluster-room.js'
import { poolKeys } from '../../src/relay/redis/keys.js'
import { redisForFile } from '../helpers/redis-for-file.js'

// Issue 33: a cluster node's append is one XADD and the pool's mark in the compact set. On one
// server the mark is sent with the entry (one connection runs them in order); on a Cluster (the
// mark on another shard) it is sent, with the append notice, only once the entry is stored.

const db = redisForFile()

const COMPACT = 'memweave:compact'

function host(oneServer: boolean, events: string[]): ClusterHost {
  return {
    redis: db.redis, instance: 'test/1', compactAfterBytes: 1 << 20, maxDocumentBytes: 1 << 24, maxPendingBytes: 1 << 20, leaseMs: 1000, waitReplicas: 0, waitMs: 1000, oneServer,
    notifyAppend: oneServer ? null : () => void events.push('notified'),
    onError: () => undefined, onAppendFailed: (_room, err) => void events.push(`failed: ${String(err)}`), publishAwareness: () => undefined,
    counters: { updatesIn: 0, updatesOut: 0, compactions: 0 },
    compactKey: COMPACT, pinCopy: () => null, copyWins: () => false, notePin: () => undefined,
    pinned: async () => undefined, compactedFully: async () => undefined,
  }
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read()
    if (ok(v)) return v
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`timed out waiting for ${what}`)
}

for (const oneServer of [true, false]) {
  const shape = oneServer ? 'one server' : 'a Cluster'
  test(`${shape}: each local update is one entry in the pool's stream, and the pool is marked in the compact set`, async () => {
    const name = (oneServer ? 'a' : 'b').repeat(32)
    const keys = poolKeys('memweave:', name)
    const events: string[] = []
    const room = await ClusterRoom.load(name, keys, host(oneServer, events))
    room.doc.getMap('m').set('k1', 'one')
    room.doc.getMap('m').set('k2', 'two')
    const entries = await until('two entries', () => db.redis.xrangeBuffer(keys.log, '-', '+'), (e) => e.length === 2)
    expect(entries.map(([, fields]) => fields[1]!.toString())).toEqual(['test/1', 'test/1'])
    await until('the mark', () => db.redis.zscore(COMPACT, name), (s) => s !== null)
    if (!oneServer) await until('the notices', async () => events.filter((e) => e === 'notified').length, (n) => n === 2)
    expect(events.filter((e) => e.startsWith('failed'))).toEqual([])
    await room.discard('test over')
  })

  test(`${shape}: an entry Redis refuses is reported as a failed append${oneServer ? '' : ', with no mark and no notice'}`, async () => {
    const name = (oneServer ? 'c' : 'd').repeat(32)
    const keys = poolKeys('memweave:', name)
    const events: string[] = []
    const room = await ClusterRoom.load(name, keys, host(oneServer, events))
    // The log key holds a string: XADD answers WRONGTYPE.
    await db.redis.set(keys.log, 'not a stream')
    room.doc.getMap('m').set('k', 'v')
    await until('the failure', async () => events.filter((e) => e.startsWith('failed')), (f) => f.length === 1)
    expect(events.find((e) => e.startsWith('failed'))).toMatch(/WRONGTYPE/)
    expect(await db.redis.get(keys.log)).toBe('not a stream')
    // On one server the mark went with the entry (a sweep then folds a clean pool); on a Cluster it waits for the entry.
    if (!oneServer) {
      expect(await db.redis.zscore(COMPACT, name)).toBeNull()
      expect(events).not.toContain('notified')
    }
    await room.discard('test over')
  })
}
