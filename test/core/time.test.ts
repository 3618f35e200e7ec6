import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatTime, parseTime } from '../../src/core/time.js'
import { HybridClock, encodeHlc } from '../../src/core/clock.js'

describe('timestamps', () => {
  test.each([
    ['2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00'],
    ['2026-01-01T02:30:00+02:30', '2026-01-01T00:00:00.000000+00:00'],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000000+00:00'],
    ['2026-01-01', '2026-01-01T00:00:00.000000+00:00'],
    ['2026-01-01T00:00:00.123456789Z', '2026-01-01T00:00:00.123456+00:00'],
    ['2026-01-01 12:00', '2026-01-01T12:00:00.000000+00:00'],
    ['1969-12-31T23:59:59.999999Z', '1969-12-31T23:59:59.999999+00:00'],
  ])('%s -> %s', (input, output) => {
    expect(formatTime(parseTime(input, 't'))).toBe(output)
  })

  // The text `formatTime` wrote with a Date before it formatted by arithmetic (issue 31, sixth round).
  const byDate = (micros: number): string => {
    const ms = Math.floor(micros / 1000)
    const iso = new Date(ms).toISOString()
    return `${iso.slice(0, 19)}.${iso.slice(20, 23)}${String(micros - ms * 1000).padStart(3, '0')}+00:00`
  }

  test('formats every integer time of years 0 to 9999 as the Date-based text did', () => {
    const edges = [-62_167_219_200_000_000, -62_167_219_199_999_999, -1, 0, 1, 951_782_400_000_000, 4_107_456_000_000_000, 253_402_300_799_999_999]
    for (const us of edges) expect(formatTime(us)).toBe(byDate(us))
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000_000, max: 253_402_300_799_999_999 }), (us) => formatTime(us) === byDate(us)),
      { numRuns: 5_000 },
    )
    // Every month's first microsecond and the one before it, over one 400-year cycle of the calendar (its leap rules).
    for (let year = 1600; year < 2000; year++) {
      for (let month = 0; month < 12; month++) {
        const us = Date.UTC(year, month, 1) * 1000
        expect(formatTime(us)).toBe(byDate(us))
        expect(formatTime(us - 1)).toBe(byDate(us - 1))
      }
    }
  })

  test('formats years past 9999 and non-integer times as before', () => {
    for (const us of [253_402_300_800_000_000, -62_167_219_200_000_001, 8.64e18, 1.5, -0.25]) expect(formatTime(us)).toBe(byDate(us))
  })

  test('accepts Date', () => {
    expect(formatTime(parseTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), 't'))).toBe('2026-01-02T03:04:05.678000+00:00')
  })

  test.each(['2026-13-01', '2026-02-30', 'yesterday', '2026-01-01T25:00', '', '2026-01-01T00:00+24:00'])(
    'rejects %j with INVALID_ARGUMENT naming the field',
    (input) => {
      expect(() => parseTime(input, 'validFrom')).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT', details: expect.objectContaining({ field: 'validFrom' }) }))
    },
  )
})

describe('hybrid logical clock', () => {
  test('strictly increases when the wall clock stalls or steps back', () => {
    const times = [1000, 1000, 999, 500, 1001, 1001]
    let i = 0
    const clock = new HybridClock(() => times[i++]!)
    const stamps = times.map(() => encodeHlc(clock.tick()))
    expect([...stamps].sort()).toEqual(stamps)
    expect(new Set(stamps).size).toBe(stamps.length)
  })

  test('moves past observed timestamps', () => {
    const clock = new HybridClock(() => 10)
    clock.observe({ wall: 50, counter: 3 })
    const t = clock.tick()
    expect(t).toMatchObject({ wall: 50, counter: 4 })
  })
})
