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
