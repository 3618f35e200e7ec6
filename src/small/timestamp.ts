import { civilFromDays } from '../core/time.js'

/**
 * RFC 3339 timestamps at full precision, without `Date`. Progress entries must be strictly
 * increasing (SMALL.md invariant 2/3 and the reference validator), and two entries one nanosecond
 * apart are common (`...38.000000001Z`, `...38.000000002Z`), so the comparison cannot go through a
 * millisecond `Date`. An instant is kept as whole seconds since the epoch plus the fraction's digits.
 */
export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z (UTC, offset applied). */
  readonly seconds: number
  /** The fractional digits, trailing zeros removed (`'5'` for `.500`); `''` for none. */
  readonly fraction: string
}

export type ParsedTimestamp =
  | { readonly ok: true; readonly instant: Instant; readonly hasFraction: boolean }
  | { readonly ok: false; readonly reason: string }

// RFC 3339 §5.6 date-time; `T`/`Z` case-insensitive as the RFC allows.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

/** Parses an RFC 3339 date-time. Never throws. */
export function parseTimestamp(text: unknown): ParsedTimestamp {
  if (typeof text !== 'string') return { ok: false, reason: 'is not a string' }
  const m = RFC3339.exec(text)
  if (!m) return { ok: false, reason: 'is not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS.fffZ or ±HH:MM offset)' }
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m
  const year = Number(y), month = Number(mo), day = Number(d)
  const hour = Number(h), minute = Number(mi), second = Number(s)
  if (month < 1 || month > 12) return { ok: false, reason: `has month ${mo}` }
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: `has day ${d}, which ${y}-${mo} does not have` }
  if (hour > 23 || minute > 59) return { ok: false, reason: `has time ${h}:${mi}` }
  // A leap second (:60) is valid RFC 3339; it counts as the first instant of the next minute.
  if (second > 60) return { ok: false, reason: `has second ${s}` }
  let offset = 0
  if (sign) {
    if (Number(oh) > 23 || Number(om) > 59) return { ok: false, reason: `has offset ${sign}${oh}:${om}` }
    offset = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60)
  }
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset
  return { ok: true, instant: { seconds, fraction: (frac ?? '').replace(/0+$/, '') }, hasFraction: frac !== undefined }
}

/** -1, 0 or 1, exactly (any number of fractional digits). */
export function compareInstants(a: Instant, b: Instant): -1 | 0 | 1 {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1
  const width = Math.max(a.fraction.length, b.fraction.length)
  const fa = a.fraction.padEnd(width, '0'), fb = b.fraction.padEnd(width, '0')
  return fa === fb ? 0 : fa < fb ? -1 : 1
}

/** Nanoseconds since the epoch, rounding sub-nanosecond digits up (so the result is never earlier). */
export function instantNanos(i: Instant): bigint {
  const ns = BigInt(i.seconds) * 1_000_000_000n + BigInt(i.fraction.slice(0, 9).padEnd(9, '0'))
  return /[1-9]/.test(i.fraction.slice(9)) ? ns + 1n : ns
}

/** `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, the form SMALL tools write (RFC 3339, nine fractional digits, UTC). */
export function formatNanos(ns: bigint): string {
  const seconds = ns / 1_000_000_000n - (ns % 1_000_000_000n < 0n ? 1n : 0n)
  const nanos = ns - seconds * 1_000_000_000n
  const days = Math.floor(Number(seconds) / 86400)
  const rest = Number(seconds) - days * 86400
  const [y, m, d] = civilFromDays(days)
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  const hh = Math.floor(rest / 3600), mm = Math.floor((rest % 3600) / 60), ss = rest % 60
  return `${p(y, 4)}-${p(m)}-${p(d)}T${p(hh)}:${p(mm)}:${p(ss)}.${nanos.toString().padStart(9, '0')}Z`
}

/**
 * The timestamp for a new entry: now (`nowMs`), or one nanosecond after `last` when the clock has
 * not moved past it (same millisecond, or a clock that stepped back), so entries stay strictly increasing.
 */
export function nextTimestamp(nowMs: number, last: Instant | null): string {
  const now = BigInt(Math.floor(nowMs)) * 1_000_000n
  if (last === null) return formatNanos(now)
  const floor = instantNanos(last) + 1n
  return formatNanos(now > floor ? now : floor)
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31
}

// Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian, day 0 = 1970-01-01).
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}
