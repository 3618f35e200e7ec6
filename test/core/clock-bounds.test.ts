import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  HybridClock, MAX_AHEAD_MS, MAX_COUNTER, MAX_WALL_MS, assertStamp, decodeHlc, encodeHlc, hlcDate, hlcMicros, hlcWall, isStamp, parseHlc,
} from '../../src/core/clock.js'
import { formatTime } from '../../src/core/time.js'
import { decodeRecord } from '../../src/sync/codec.js'
import { PoolKind, signRecord } from '../../src/pools/records.js'
import { RecordLog } from '../../src/records/log.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { memoryBody } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Issue 26, cases 1 and 2: the clock and the codec under stamps a peer chooses. One stamp from the
 * far future moved every clock there, a counter past six digits sorted out of clock order, and a
 * wall past the range of `Date` made every module that dates a record throw a RangeError.
 */

const T = Date.UTC(2026, 10, 27, 12)
const stampArb = fc.record({
  wall: fc.integer({ min: 0, max: MAX_WALL_MS }),
  counter: fc.integer({ min: 0, max: MAX_COUNTER }),
  node: fc.option(fc.stringMatching(/^[0-9a-z]{1,32}$/), { nil: undefined }),
})

describe('the codec of a stamp', () => {
  test('round trips every stamp of the range, and text order is clock order', () => {
    fc.assert(fc.property(stampArb, stampArb, (a, b) => {
      const [ta, tb] = [encodeHlc(a), encodeHlc(b)]
      expect(parseHlc(ta)).toEqual(a.node === undefined ? { wall: a.wall, counter: a.counter } : a)
      expect(isStamp(ta)).toBe(true)
      expect(decodeHlc(ta)).toEqual(parseHlc(ta))
      const clockOrder = a.wall - b.wall || a.counter - b.counter
      // Text breaks a tie on wall and counter by node; the clock's order only needs the first two.
      if (clockOrder !== 0) expect(ta < tb).toBe(clockOrder < 0)
      expect(hlcDate(ta).getTime()).toBe(a.wall)
      expect(() => formatTime(hlcMicros(a))).not.toThrow()
    }))
  })

  test.each([
    ['a wall past the range (year 10889)', 'ffffffffffff.ffffff.mallory'],
    ['a wall of 2^53-1 ms', `${(2 ** 53 - 1).toString(16)}.000000`],
    ['just past the last wall', `${(MAX_WALL_MS + 1).toString(16).padStart(12, '0')}.000000`],
    ['a counter of seven digits', '019ac5f0e000.1000001'],
    ['a wall of thirteen digits', '0019ac5f0e000.000000'],
    ['a wall of eleven digits', '19ac5f0e000.000000'],
    ['a counter of five digits', '019ac5f0e000.00000'],
    ['a sign', '-19ac5f0e000.000000'],
    ['upper-case hex', '019AC5F0E000.000000'],
    ['a node too long', `019ac5f0e000.000000.${'a'.repeat(33)}`],
    ['no counter', '019ac5f0e000'],
    ['not text', 12],
  ])('refuses %s', (_name, text) => {
    expect(parseHlc(text)).toBeNull()
    expect(isStamp(text)).toBe(false)
    expect(() => assertStamp(text, 'hlc')).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT', details: expect.objectContaining({ field: 'hlc' }) }))
  })

  test('takes the first and the last wall of the range, and the largest counter', () => {
    expect(parseHlc('000000000000.000000')).toEqual({ wall: 0, counter: 0 })
    const last = `${MAX_WALL_MS.toString(16).padStart(12, '0')}.ffffff.n`
    expect(parseHlc(last)).toEqual({ wall: MAX_WALL_MS, counter: MAX_COUNTER, node: 'n' })
    expect(formatTime(hlcMicros(parseHlc(last)!))).toMatch(/^2255-06-05T/)
  })

  test('a stamp already stored outside the range reads as the nearest one inside it: never an invalid Date', () => {
    for (const text of ['ffffffffffff.1000001.x', `${(2 ** 53 - 1).toString(16)}.000000`, 'zz', '', 'ffffffffffffffffffff.0']) {
      const hlc = decodeHlc(text)
      expect(hlc.wall).toBeGreaterThanOrEqual(0)
      expect(hlc.wall).toBeLessThanOrEqual(MAX_WALL_MS)
      expect(hlc.counter).toBeLessThanOrEqual(MAX_COUNTER)
      expect(hlcWall(text)).toBe(hlc.wall)
      expect(() => hlcDate(text).toISOString()).not.toThrow()
      expect(() => formatTime(hlcMicros(hlc))).not.toThrow()
    }
  })

  test('formatTime refuses a time no Date can show with INVALID_ARGUMENT, not a RangeError', () => {
    expect(() => formatTime((2 ** 53 - 1) * 1000)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })

  test('a synced record whose stamp is outside the range is refused with reason clock', async () => {
    const id = await identityFor('mallory')
    const pool = 'ab'.repeat(16) as never
    for (const hlc of ['ffffffffffff.ffffff.m', '019ac5f0e000.1000001', `${(2 ** 53 - 1).toString(16)}.000000`]) {
      const r = await signRecord(id, { kind: PoolKind.MEMORY, pool, tenant: null, body: memoryBody('m', 'x'), author: id.did, hlc })
      expect(decodeRecord(r.id, { ...r })).toMatchObject({ ok: false, reason: 'clock' })
    }
    const fine = await signRecord(id, { kind: PoolKind.MEMORY, pool, tenant: null, body: memoryBody('m', 'x'), author: id.did, hlc: encodeHlc({ wall: T, counter: MAX_COUNTER, node: 'm' }) })
    expect(decodeRecord(fine.id, { ...fine })).toMatchObject({ ok: true })
  })
})

describe('the hybrid logical clock under stamps a peer chooses', () => {
  test('does not adopt a stamp more than MAX_AHEAD_MS ahead of its wall clock; adopts one within', () => {
    let now = T
    const clock = new HybridClock(() => now, 'me')
    expect(clock.observe({ wall: T + MAX_AHEAD_MS + 1, counter: 0 })).toBe(false)
    expect(clock.tick()).toEqual({ wall: T, counter: 0, node: 'me' })
    expect(clock.observe({ wall: T + MAX_AHEAD_MS, counter: 5 })).toBe(true)
    expect(clock.tick()).toEqual({ wall: T + MAX_AHEAD_MS, counter: 6, node: 'me' })
    // Once the wall clock has come near, the same stamp is adopted.
    now = T + 2
    expect(clock.observe({ wall: T + MAX_AHEAD_MS + 1, counter: 0 })).toBe(true)
  })

  test('the counter never outgrows its width: past the largest, the stamp moves to the next millisecond', () => {
    const clock = new HybridClock(() => T, 'me')
    clock.observe({ wall: T, counter: MAX_COUNTER })
    const next = clock.tick()
    expect(next).toEqual({ wall: T + 1, counter: 0, node: 'me' })
    expect(encodeHlc(next) > encodeHlc({ wall: T, counter: MAX_COUNTER, node: 'me' })).toBe(true)
  })

  test('observe refuses what is no stamp with INVALID_ARGUMENT', () => {
    const clock = new HybridClock(() => T)
    for (const seen of [{ wall: 2 ** 53 - 1, counter: 0 }, { wall: -1, counter: 0 }, { wall: T, counter: MAX_COUNTER + 1 }, { wall: 1.5, counter: 0 }, { wall: NaN, counter: 0 }]) {
      expect(() => clock.observe(seen)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    }
  })

  test('stamps it issues, among any stamps observed, stay increasing, fixed-width and within the bound of its wall clock', () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(
        fc.record({ step: fc.integer({ min: -5_000, max: 5_000 }) }),
        fc.record({ seen: fc.record({ wall: fc.integer({ min: 0, max: MAX_WALL_MS }), counter: fc.integer({ min: 0, max: MAX_COUNTER }) }) }),
        fc.record({ ahead: fc.integer({ min: -10_000, max: 2 * MAX_AHEAD_MS }), counter: fc.constantFrom(0, MAX_COUNTER - 1, MAX_COUNTER) }),
      ), { maxLength: 60 }),
      (ops) => {
        let now = T
        let high = T
        const clock = new HybridClock(() => now, 'me')
        let last = ''
        for (const op of ops) {
          if ('step' in op) now += op.step
          else if ('seen' in op) clock.observe(op.seen)
          else clock.observe({ wall: now + op.ahead, counter: op.counter })
          high = Math.max(high, now)
          const stamp = encodeHlc(clock.tick())
          expect(stamp).toMatch(/^[0-9a-f]{12}\.[0-9a-f]{6}\.me$/)
          expect(stamp > last).toBe(true)
          last = stamp
          // Never further ahead than the bound, plus the milliseconds a full counter moved it.
          expect(decodeHlc(stamp).wall).toBeLessThanOrEqual(high + MAX_AHEAD_MS + ops.length)
        }
      },
    ))
  })
})

describe('the record log', () => {
  test('passes over stored stamps past the bound or the range, and follows the latest admissible one', async () => {
    const storage = memoryStorage()
    const writer = new RecordLog(storage, { now: () => T, ownsStorage: false })
    const admissible = encodeHlc({ wall: T + MAX_AHEAD_MS - 1, counter: 7, node: 'peer' })
    await writer.append([
      writer.seal('note', { n: 1 }, { hlc: encodeHlc({ wall: T - 5, counter: 0 }) }),
      writer.seal('note', { n: 2 }, { hlc: admissible }),
      writer.seal('note', { n: 3 }, { hlc: encodeHlc({ wall: T + MAX_AHEAD_MS + 1, counter: 0, node: 'evil' }) }),
    ])
    await writer.close()
    // A stamp no version now writes, as a store from before the codec's check holds it.
    await storage.write(['records'], (tx) => tx.put('records', [{ id: 'f'.repeat(32), kind: 'note', tenant: null, body: {}, author: null, hlc: 'ffffffffffff.1000001.x' }]))
    const reader = new RecordLog(storage, { now: () => T, ownsStorage: false })
    await reader.register({ name: 'notes', kinds: ['note'], reset() {}, async receive() {}, removed() {} })
    const next = decodeHlc(reader.tick())
    expect([next.wall, next.counter]).toEqual([T + MAX_AHEAD_MS - 1, 8])
    await reader.close()
  })

  test('seal refuses a caller’s stamp outside the range with INVALID_ARGUMENT', () => {
    const log = new RecordLog(memoryStorage(), { now: () => T })
    for (const hlc of ['ffffffffffff.ffffff', '019ac5f0e000.1000001', 'soon']) {
      expect(() => log.seal('note', {}, { hlc })).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT', details: expect.objectContaining({ field: 'hlc' }) }))
    }
  })
})
