import type { Slot } from '../read/slot.js'

/**
 * Whether the weekdays two clock times are qualified by can name one day. Each is a weekday on its
 * own clock: "8am Tuesday, their time" in Auckland is "7pm Monday London time", so when the two
 * times carry two zones the days meet a day either side (no two zones are further apart); one
 * clock, or a time without a zone, keeps the days as written (session 12, anchor32).
 */
export function daysMeet(a: ReadonlySet<number>, b: ReadonlySet<number>, slots: readonly [Slot, Slot]): boolean {
  const zone = (s: Slot): string | null => (s.kind === 'time' || s.kind === 'span' ? s.zone?.name ?? null : null)
  const [za, zb] = [zone(slots[0]), zone(slots[1])]
  const reach = za && zb && za !== zb ? 1 : 0
  return [...a].some((d) => [...b].some((e) => Math.min((d - e + 7) % 7, (e - d + 7) % 7) <= reach))
}
