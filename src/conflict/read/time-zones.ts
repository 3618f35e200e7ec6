/**
 * Time zones named in a text, as UTC offsets in minutes for standard and for summer time. Two
 * clock times are compared in UTC under the same season on both sides ("3pm ET" is "noon PT" in
 * winter and in summer), never across seasons. Cities stand for their zone, since people write
 * "11am for anyone in New York" more often than "11am EDT".
 */
export interface Zone {
  readonly name: string
  /** [standard, summer] offsets from UTC in minutes. */
  readonly offsets: readonly [number, number]
  /**
   * The season the text names, when its abbreviation says it: "CDT", "BST", "CEST" are summer
   * time, "CST", "EST", "PST" standard time. Null for "ET", "Central", a city.
   */
  readonly season?: 0 | 1 | null
}

/** Abbreviations that name one season of their zone. */
const SUMMER = /^(?:EDT|CDT|MDT|PDT|BST|CEST|EEST)$/i
const STANDARD = /^(?:EST|CST|MST|PST|CET|EET|GMT)$/i

/**
 * [abbreviations (capitals, or any case right after a clock time), names and cities (any case), standard, summer].
 * The two offsets are indexed by the northern season: south of the equator summer time is kept
 * while the north keeps standard time, so Auckland is [+13, +12] ("8am Tuesday 10 March" there is
 * 7pm Monday in London; session 12). Southern abbreviations are left out: "NZDT" names the other index.
 */
const ZONES: ReadonlyArray<readonly [string, string, string, number, number]> = [
  ['ET|EST|EDT|NY', String.raw`eastern(?:\s+time)?|new\s+york|nyc|boston|toronto|miami|atlanta`, 'ET', -300, -240],
  ['CT|CST|CDT', String.raw`central(?:\s+time)?|chicago|dallas|austin|houston`, 'CT', -360, -300],
  ['MT|MST|MDT', String.raw`mountain(?:\s+time)?|denver`, 'MT', -420, -360],
  ['PT|PST|PDT|LA|SF', String.raw`pacific(?:\s+time)?|los\s+angeles|san\s+francisco|seattle|vancouver|portland`, 'PT', -480, -420],
  ['UTC|GMT|Z', String.raw`zulu`, 'UTC', 0, 0],
  ['UK|BST', String.raw`uk\s+time|london|dublin|lisbon`, 'UK', 0, 60],
  ['CET|CEST', String.raw`berlin|paris|amsterdam|madrid|rome|vienna|zurich|stockholm|warsaw|prague`, 'CET', 60, 120],
  ['EET|EEST', String.raw`athens|helsinki|kyiv|bucharest`, 'EET', 120, 180],
  ['IST', String.raw`india|bangalore|bengaluru|mumbai|delhi`, 'IST', 330, 330],
  ['JST', String.raw`tokyo|japan`, 'JST', 540, 540],
  ['SGT', String.raw`singapore`, 'SGT', 480, 480],
  ['NZT', String.raw`auckland|wellington|new\s+zealand|nz\s+time`, 'NZT', 780, 720],
  ['AET', String.raw`sydney|melbourne|canberra`, 'AET', 660, 600],
]
const ZONE_RES: ReadonlyArray<readonly [RegExp, RegExp, RegExp, string, number, number]> = ZONES.map(([abbr, names, name, std, dst]) => {
  const fixedAbbr = abbr
  return [
    new RegExp(String.raw`(?:\b|(?<=\d:\d\d))(?:${fixedAbbr})\b`),
    // "3pm et", "18:00 utc", "10am pt": chat writes zones in lower case right after the time.
    new RegExp(String.raw`(?<=(?:\d\s*(?:[ap]\.?m\.?)?|noon|midnight)\s*)\b(?:${fixedAbbr})\b`, 'i'),
    new RegExp(String.raw`\b(?:${names})\b`, 'i'),
    name, std, dst,
  ] as const
})

/**
 * The zone a text's clock times are in: one named before "time" ("7pm London time", "9am UK
 * time"), which says whose clock it is whatever other place the text names ("call with the
 * Auckland grower: 7pm London time"); else the first one it names, or null. "their time" needs no
 * rule: it points at the place named, which is the first (session 12).
 */
export function zoneOf(text: string): Zone | null {
  let best: { at: number; zone: Zone; clock: boolean; place: boolean } | null = null
  for (const [abbr, afterTime, names, name, std, dst] of ZONE_RES) {
    for (const re of [abbr, afterTime, names]) {
      const m = re.exec(text)
      if (!m) continue
      const clock = /^\s+time\b/i.test(text.slice(m.index + m[0].length))
      const place = re === names && !clock
      // Only a place merely named gives way to a clock; "3pm ET, 8pm London time" reads ET first, as before.
      const wins = !best || (clock && best.place) ? true : best.clock && place ? false : m.index < best.at
      if (wins) {
        // "central (CDT)": the abbreviation anywhere in the text says the season of the zone named first.
        const abbrev = (re === names ? abbr.exec(text) ?? afterTime.exec(text) : m)?.[0] ?? ''
        const season = SUMMER.test(abbrev) ? 1 : STANDARD.test(abbrev) && name !== 'UTC' ? 0 : null
        best = { at: m.index, zone: { name, offsets: [std, dst], season }, clock, place }
      }
    }
  }
  return best?.zone ?? null
}

/** Whether two zones can be read in one season (neither names the other season). */
export function seasonFits(season: 0 | 1, ...zones: ReadonlyArray<Zone | null>): boolean {
  return zones.every((z) => z?.season == null || z.season === season)
}

/** Minutes after midnight UTC under each season, or the local minutes when no zone is known. */
export function toUtc(minutes: number, zone: Zone | null, season: 0 | 1): number {
  if (!zone) return minutes
  return (((minutes - zone.offsets[season]) % 1440) + 1440) % 1440
}
