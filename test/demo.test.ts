import { describe, expect, test } from 'vitest'
import { encodeJoin, joinLink, parseJoin, type JoinCode } from '../demo/src/join.js'
import type { MemoryRow, PoolView, Snapshot } from '../demo/src/snapshot.js'
import { changes } from '../demo/src/timeline.js'

// The demo's pure parts (demo/src): join codes and the timeline. The page itself is covered by e2e/demo.spec.ts.

const CODE: JoinCode = {
  v: 1, pool: '0123456789abcdef0123456789abcdef', relay: 'ws://127.0.0.1:7412', token: 'eyJ2IjoxfQ.c2ln', name: 'household ✓', expiresAt: 1_900_000_000_000,
}

describe('demo join codes', () => {
  test('a code and a link round-trip, with spaces around', () => {
    expect(parseJoin(encodeJoin(CODE))).toEqual(CODE)
    const link = joinLink('http://127.0.0.1:7413/', CODE)
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:7413\/#join=[A-Za-z0-9_-]+$/)
    expect(parseJoin(`  ${link}\n`)).toEqual(CODE)
  })

  test.each([
    ['', /not a join link/],
    ['not base64 !', /not a join link/],
    [encodeJoin({ ...CODE, pool: 'x' }), /incomplete/],
    [encodeJoin({ ...CODE, relay: 'http://evil' }), /incomplete/],
    [btoa('{"v":2}'), /incomplete/],
  ])('%j is refused', (text, message) => {
    expect(() => parseJoin(text)).toThrow(message)
  })
})

const ME = 'did:key:z6MkMe'
const OTHER = 'did:key:z6MkOther'

function memory(id: string, author: string, object: string): MemoryRow {
  return { id, type: 'KNOWLEDGE', subject: 'Aria', predicate: 'lives_in', object, author, at: 0, supersedes: [], lifecycle: 'created' }
}

function snapshot(at: number, pools: readonly PoolView[], state: Snapshot['sync']['state'] = 'synced'): Snapshot {
  return { at, pools, factConflicts: [], sync: { state, pending: { outgoing: 0, incoming: 0 }, pools: [] } }
}

function pool(memories: readonly MemoryRow[], info = true, forgotten: PoolView['forgotten'] = []): PoolView {
  const members = [{ did: OTHER, read: true, write: true, owner: true, expiresAt: null }, { did: ME, read: true, write: true, owner: false, expiresAt: null }]
  return {
    id: CODE.pool, name: 'household', memories, conflicts: [], forgotten, sync: null, error: null,
    info: info ? ({ owner: OTHER, members } as unknown as PoolView['info']) : null,
  }
}

describe('demo timeline', () => {
  test('the first snapshot is one summary line', () => {
    expect(changes(null, snapshot(1, [pool([memory('a', ME, 'Rome')])]), ME)).toEqual([
      { at: 1, kind: 'pool', text: 'opened: 1 pool(s), 1 memories', mine: true },
    ])
  })

  test('a joined pool arriving, then memories: written here or arrived from whom', () => {
    const waiting = snapshot(1, [pool([], false)], 'connected')
    const arrived = snapshot(2, [pool([memory('a', OTHER, 'Rome')])])
    expect(changes(waiting, arrived, ME).map((e) => [e.kind, e.text, e.mine])).toEqual([
      ['sync', 'sync connected → synced', true],
      ['pool', 'pool "household" arrived from the relay', false],
    ])
    const more = snapshot(3, [pool([memory('a', OTHER, 'Rome'), memory('b', ME, 'Milan')])])
    expect(changes(arrived, more, ME).map((e) => [e.text, e.mine])).toEqual([['"household": Aria · lives_in · Milan written here', true]])
    const next = snapshot(4, [pool([memory('b', ME, 'Milan'), memory('c', OTHER, 'Turin')])])
    expect(changes(more, next, ME).map((e) => e.text)).toEqual([
      `"household": Aria · lives_in · Turin arrived from ${OTHER}`,
      '"household": Aria · lives_in · Rome forgotten',
    ])
  })

  test('who forgot what: the tombstone’s signer and its reason', () => {
    const before = snapshot(1, [pool([memory('a', OTHER, 'Rome'), memory('b', ME, 'Milan'), memory('c', OTHER, 'Oslo')])])
    const after = snapshot(2, [pool([], true, [
      { memory: 'a' as never, by: OTHER as never, reason: 'forget', at: 2 },
      { memory: 'b' as never, by: ME as never, reason: 'forget', at: 2 },
      { memory: 'c' as never, by: ME as never, reason: 'expired', at: 2 },
    ])])
    expect(changes(before, after, ME).map((e) => [e.text, e.mine])).toEqual([
      [`"household": Aria · lives_in · Rome forgotten by ${OTHER}`, false],
      ['"household": Aria · lives_in · Milan forgotten by you', true],
      ['"household": Aria · lives_in · Oslo forgotten by you (expired)', true],
    ])
  })

  test('synced ↔ syncing blips of every write stay out of it; going offline does not', () => {
    const p = [pool([])]
    expect(changes(snapshot(1, p, 'synced'), snapshot(2, p, 'syncing'), ME)).toEqual([])
    expect(changes(snapshot(1, p, 'synced'), snapshot(2, p, 'offline'), ME).map((e) => e.text)).toEqual(['sync synced → offline'])
  })
})
