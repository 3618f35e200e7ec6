import { describe, expect, test } from 'vitest'
import { encodeJoin, joinLink, parseJoin, type JoinCode } from '../../demo/src/join.js'
import type { MemoryRow, PoolView, Snapshot } from '../../demo/src/snapshot.js'
import { poolProblem, STALL_MS, unreachable } from '../../demo/src/render.js'
import { DemoError, refusalLine } from '../../demo/src/errors.js'
import { MemweaveError } from '../../src/core/errors.js'
import { changes } from '../../demo/src/timeline.js'

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
    id: CODE.pool, name: 'household', memories, conflicts: [], forgotten, sync: null, error: null, denied: false, joinedAt: null,
    info: info ? ({ owner: OTHER, members } as unknown as PoolView['info']) : null,
  }
}

describe('demo timeline', () => {
  test('who forgot what: the tombstone’s signer (named as the page names people) and its reason', () => {
    const before = snapshot(1, [pool([memory('a', OTHER, 'Rome'), memory('b', ME, 'Milan'), memory('c', OTHER, 'Oslo')])])
    const after = snapshot(2, [pool([], true, [
      { memory: 'a' as never, by: OTHER as never, reason: 'forget', at: 2 },
      { memory: 'b' as never, by: ME as never, reason: 'forget', at: 2 },
      { memory: 'c' as never, by: ME as never, reason: 'expired', at: 2 },
    ])])
    expect(changes(before, after, ME).map((e) => [e.text, e.mine])).toEqual([
      [`"household": ${OTHER} forgot Aria · lives_in · Rome`, false],
      ['"household": you forgot Aria · lives_in · Milan', true],
      ['"household": you forgot Aria · lives_in · Oslo (expired)', true],
    ])
  })

  test('the first snapshot is one summary line', () => {
    expect(changes(null, snapshot(1, [pool([memory('a', ME, 'Rome')])]), ME)).toEqual([
      { at: 1, kind: 'pool', text: 'opened: 1 pool, 1 memory', mine: true },
    ])
  })

  test('a joined pool arriving, then memories: written here or arrived from whom', () => {
    const waiting = snapshot(1, [pool([], false)], 'connected')
    const arrived = snapshot(2, [pool([memory('a', OTHER, 'Rome')])])
    expect(changes(waiting, arrived, ME).map((e) => [e.kind, e.text, e.mine])).toEqual([
      ['sync', 'sync: connecting → up to date', true],
      ['pool', 'pool "household" arrived from the relay', false],
    ])
    const more = snapshot(3, [pool([memory('a', OTHER, 'Rome'), memory('b', ME, 'Milan')])])
    expect(changes(arrived, more, ME).map((e) => [e.text, e.mine])).toEqual([['"household": Aria · lives_in · Milan, written by you', true]])
    const next = snapshot(4, [pool([memory('b', ME, 'Milan'), memory('c', OTHER, 'Turin')])])
    expect(changes(more, next, ME).map((e) => e.text)).toEqual([
      `"household": Aria · lives_in · Turin, from ${OTHER}`,
      // ME and OTHER are the only writers and ME did not forget it here: OTHER did.
      `"household": ${OTHER} forgot Aria · lives_in · Rome`,
    ])
  })

  test('synced ↔ syncing blips of every write stay out of it; going offline does not', () => {
    const p = [pool([])]
    expect(changes(snapshot(1, p, 'synced'), snapshot(2, p, 'syncing'), ME)).toEqual([])
    expect(changes(snapshot(1, p, 'synced'), snapshot(2, p, 'offline'), ME).map((e) => e.text)).toEqual(['sync: up to date → offline'])
  })

  test('a forget or a settled conflict names who did it and which value won', () => {
    const rome = memory('a', OTHER, 'Rome'), milan = memory('b', ME, 'Milan')
    const conflict = { id: 'c1', pool: CODE.pool, kind: 'contradiction', memories: ['a', 'b'], subject: 'Aria', predicate: 'lives_in', context: null, suggestion: { winner: null, rule: 'merge', reason: 'close in time' } }
    const open = snapshot(1, [{ ...pool([rome, milan]), conflicts: [conflict] } as unknown as PoolView])
    const name = (did: string): string => (did === ME ? 'you' : 'Bob')
    // Kept here: "you".
    const kept = snapshot(2, [pool([{ ...rome, lifecycle: 'archived' }, milan])])
    expect(changes(open, kept, ME, { name, here: new Set(['c1']) }).map((e) => [e.text, e.mine])).toEqual([
      ['"household": conflict on Aria · lives_in settled by you: "Milan" kept over "Rome"', true],
    ])
    // Kept elsewhere: the pool's one other writer.
    expect(changes(open, kept, ME, { name }).map((e) => e.text)).toEqual(['"household": conflict on Aria · lives_in settled by Bob: "Milan" kept over "Rome"'])
    // Merged by OTHER: the merge's author, and the value it kept.
    const merged = { ...memory('m', OTHER, 'Milan'), supersedes: ['a', 'b'] }
    const afterMerge = snapshot(3, [pool([{ ...rome, lifecycle: 'archived' }, { ...milan, lifecycle: 'archived' }, merged])])
    expect(changes(open, afterMerge, ME, { name }).map((e) => [e.text, e.mine])).toEqual([
      ['"household": Bob merged the conflict on Aria · lives_in: "Milan" kept', false],
    ])
    // Forgotten here.
    expect(changes(kept, snapshot(4, [pool([milan])]), ME, { name, here: new Set(['a']) }).map((e) => e.text)).toEqual(['"household": you forgot Aria · lives_in · Rome'])
  })
})

describe('demo pool problems', () => {
  const waiting = (joinedAt: number | null, state: 'synced' | 'connected' | 'offline', error: string | null = null, refusal: { code: number; reason: string } | null = null): PoolView => ({
    ...pool([], false), joinedAt, sync: { pool: CODE.pool, state, connected: state !== 'offline', links: 1, pending: { outgoing: 0, incoming: 0 }, records: 3, quarantined: 0, error, refusal },
  } as unknown as PoolView)

  test('a joined pool whose records never arrive is told, not left "waiting" under a green badge', () => {
    expect(poolProblem(waiting(0, 'synced'), STALL_MS - 1)).toBeNull() // still arriving
    expect(poolProblem(waiting(0, 'connected'), STALL_MS + 1)).toBeNull() // not in step with the relay yet
    expect(poolProblem(waiting(0, 'synced'), STALL_MS + 1)?.title).toBe('Nothing has arrived from this pool.')
    expect(poolProblem(waiting(0, 'offline', 'the relay closed the connection (4401: expired: …)', { code: 4401, reason: 'expired: the token expired' }), 0)?.text).toContain('expired: the token expired')
    expect(poolProblem({ ...pool([]), denied: true }, 0)?.title).toBe('You no longer have access to this pool.')
    expect(poolProblem(pool([]), 0)).toBeNull()
  })
})

describe('demo: a relay that is down is not a refusal (issue 29)', () => {
  const status = (error: string | null, refusal: { code: number; reason: string } | null, connected = false, links = 1) =>
    ({ pool: CODE.pool, state: connected ? 'synced' : 'offline', connected, links, pending: { outgoing: 0, incoming: 0 }, records: 3, quarantined: 0, error, refusal }) as PoolView['sync']
  const held = (sync: PoolView['sync'], owner: boolean): PoolView => ({ ...pool([]), sync, info: { owner: owner ? ME : OTHER, members: [], access: { owner, read: true, write: true } } as unknown as PoolView['info'] })
  const owned = (sync: PoolView['sync']): PoolView => held(sync, true)

  test('a failed connection with no refusal code is "unreachable", no problem, on the owner\'s device too', () => {
    const down = status('connection error', null)
    expect(unreachable(down)).toBe(true)
    expect(poolProblem(owned(down), 0)).toBeNull()
    expect(poolProblem(held(down, false), 0)).toBeNull()
  })

  test('a 44xx close is a refusal: a problem, worded for the owner and for a member', () => {
    const refused = status('the relay closed the connection (4403: wrong-owner: …)', { code: 4403, reason: 'wrong-owner: the pool belongs to another owner' })
    expect(unreachable(refused)).toBe(false)
    expect(poolProblem(held(refused, false), 0)).toMatchObject({ title: 'The relay refused this device\'s connection.', text: expect.stringContaining('ask the pool\'s owner') })
    expect(poolProblem(owned(refused), 0)?.text).not.toContain('ask the pool\'s owner')
  })

  test('connected, deliberately offline (no link) or no sync at all is neither', () => {
    for (const s of [status(null, null, true), status('connection error', null, false, 0), null]) expect(unreachable(s)).toBe(false)
  })
})

describe('demo: expected refusals are one console line (issue 29)', () => {
  test('the demo\'s own and memweave\'s expected codes give one line; faults give none (their stack is logged)', () => {
    expect(refusalLine(new DemoError('That is not a join link.', 'Copy it again.'))).toBe('memweave demo: That is not a join link.')
    const line = refusalLine(new MemweaveError('INVALID_ARGUMENT', 'agentDid: must be a did:key', { field: 'agentDid' }))
    expect(line).toBe('memweave demo: INVALID_ARGUMENT: agentDid: must be a did:key')
    expect(line).not.toContain('\n')
    expect(refusalLine(new MemweaveError('INTERNAL', 'a bug'))).toBeNull()
    expect(refusalLine(new Error('boom'))).toBeNull()
  })
})
