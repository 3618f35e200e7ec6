import { invalidArgument } from './errors.js'

/**
 * Times are kept as integer microseconds since the Unix epoch (exact in a double until year 2255)
 * and shown as ISO-8601 with microseconds and an explicit offset, as Python's `isoformat()` does:
 * `2026-01-01T00:00:00.000000+00:00`.
 */
export type Micros = number

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/

/** Parses `Date | string` (ISO-8601; no offset means UTC) into microseconds. */
export function parseTime(input: unknown, field: string): Micros {
  if (input instanceof Date) {
    const ms = input.getTime()
    if (Number.isNaN(ms)) throw invalidArgument(field, 'is an invalid Date')
    return ms * 1000
  }
  if (typeof input !== 'string') throw invalidArgument(field, 'must be a Date or an ISO-8601 string')
  const m = ISO_RE.exec(input.trim())
  if (!m) throw invalidArgument(field, `"${input}" is not an ISO-8601 date-time`)
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw invalidArgument(field, `"${input}" is not a valid calendar date-time`)
  }
  let offsetMinutes = 0
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1
    const digits = zone.slice(1).replace(':', '')
    const oh = Number(digits.slice(0, 2)), om = Number(digits.slice(2))
    if (oh > 23 || om > 59) throw invalidArgument(field, `"${input}" has an invalid UTC offset`)
    offsetMinutes = sign * (oh * 60 + om)
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const micros = Number((frac + '000000').slice(0, 6))
  return (ms - offsetMinutes * 60_000) * 1000 + micros
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** The last instant `Date` can show, in ms (ECMA-262 §21.4.1.1: 8.64e15). */
const LAST_DATE_MS = 8.64e15

/**
 * Formats microseconds as `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`.
 * @throws MemweaveError INVALID_ARGUMENT for a time `Date` cannot show (never a bare RangeError).
 */
export function formatTime(micros: Micros): string {
  const ms = Math.floor(micros / 1000)
  if (!(Math.abs(ms) <= LAST_DATE_MS)) throw invalidArgument('time', `${micros} µs is outside the range of dates`)
  if (Number.isInteger(micros) && ms >= FIRST_YEAR_0_MS && ms <= LAST_YEAR_9999_MS) return civilTime(micros)
  const iso = new Date(ms).toISOString() // YYYY-MM-DDTHH:MM:SS.mmmZ
  const sub = micros - ms * 1000
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}${String(sub).padStart(3, '0')}+00:00`
}

/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in ms: the years `toISOString` writes with four digits. */
const FIRST_YEAR_0_MS = -62_167_219_200_000
const LAST_YEAR_9999_MS = 253_402_300_799_999
/** One day in ms (a fact's valid time counts microseconds: `DAY_MS * 1000`). */
export const DAY_MS = 86_400_000
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'))

/**
 * The civil date (year, month 1-12, day 1-31) of a day number counted from 1970-01-01, proleptic
 * Gregorian (H. Hinnant, "chrono-compatible low-level date algorithms", civil_from_days). Shared by
 * `formatTime` and the SMALL timestamp checks (src/small/timestamp.ts).
 */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day]
}

/**
 * `formatTime` of an integer time in years 0 to 9999, by arithmetic: the civil date of a day
 * number (H. Hinnant, "chrono-compatible low-level date algorithms", days_from_civil's inverse)
 * instead of a `Date` and its ISO text cut and joined again. Every fact write with a subject,
 * predicate and object formats its validFrom for its structured id; the `Date` way was about a
 * twentieth of a page's fact write (issue 31, sixth round). test/core/time.test.ts holds the two equal.
 */
function civilTime(micros: number): string {
  const ms = Math.floor(micros / 1000)
  const days = Math.floor(ms / DAY_MS)
  let rest = ms - days * DAY_MS
  const [year, month, day] = civilFromDays(days)
  const hour = Math.floor(rest / 3_600_000)
  rest -= hour * 3_600_000
  const minute = Math.floor(rest / 60_000)
  rest -= minute * 60_000
  const second = Math.floor(rest / 1000)
  // Six digits of fraction: the ms and the µs below them.
  const fraction = (rest - second * 1000) * 1000 + (micros - ms * 1000)
  return (
    TWO_DIGITS[Math.floor(year / 100)]! + TWO_DIGITS[year % 100]! + '-' + TWO_DIGITS[month]! + '-' + TWO_DIGITS[day]! + 'T' +
    TWO_DIGITS[hour]! + ':' + TWO_DIGITS[minute]! + ':' + TWO_DIGITS[second]! + '.' + String(fraction).padStart(6, '0') + '+00:00'
  )
}

/** Accepts an optional time: `null`/`undefined` stay null. */
export function parseOptionalTime(input: unknown, field: string): Micros | null {
  return input === undefined || input === null ? null : parseTime(input, field)
}

/**
 * `formatTime` for a time already stored: never throws. A write time a version before issue 26
 * stored from a stamp past the date range (its clock had adopted a peer's 2^53-1 ms) is shown as
 * the last instant a `Date` can show, so one such fact does not make every read of the store fail.
 */
export function formatStoredTime(micros: Micros): string {
  const limit = LAST_DATE_MS * 1000
  const clamped = Number.isFinite(micros) ? Math.min(Math.max(micros, -limit), limit) : 0
  return formatTime(clamped)
}
