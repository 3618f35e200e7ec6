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
}

const ZONES: ReadonlyArray<readonly [RegExp, string, number, number]> = [
  [/\b(?:ET|EST|EDT|eastern(?:\s+time)?|New\s+York|NYC|NY|Boston|Toronto|Miami|Atlanta)\b/, 'ET', -300, -240],
  [/\b(?:CT|CST|CDT|central(?:\s+time)?|Chicago|Dallas|Austin|Houston)\b/, 'CT', -360, -300],
  [/\b(?:MT|MST|MDT|mountain(?:\s+time)?|Denver)\b/, 'MT', -420, -360],
  [/\b(?:PT|PST|PDT|pacific(?:\s+time)?|LA|Los\s+Angeles|San\s+Francisco|SF|Seattle|Vancouver|Portland)\b/, 'PT', -480, -420],
  [/\b(?:UTC|GMT|Zulu)\b/, 'UTC', 0, 0],
  [/\b(?:UK(?:\s+time)?|BST|London|Dublin|Lisbon)\b/, 'UK', 0, 60],
  [/\b(?:CET|CEST|Berlin|Paris|Amsterdam|Madrid|Rome|Vienna|Zurich|Stockholm|Warsaw|Prague)\b/, 'CET', 60, 120],
  [/\b(?:EET|EEST|Athens|Helsinki|Kyiv|Bucharest)\b/, 'EET', 120, 180],
  [/\b(?:IST|India|Bangalore|Bengaluru|Mumbai|Delhi)\b/, 'IST', 330, 330],
  [/\b(?:JST|Tokyo|Japan)\b/, 'JST', 540, 540],
  [/\b(?:SGT|Singapore)\b/, 'SGT', 480, 480],
]

/** The zone a text's clock times are in: the first one it names, or null. */
export function zoneOf(text: string): Zone | null {
  let best: { at: number; zone: Zone } | null = null
  for (const [re, name, std, dst] of ZONES) {
    const m = re.exec(text)
    if (m && (!best || m.index < best.at)) best = { at: m.index, zone: { name, offsets: [std, dst] } }
  }
  return best?.zone ?? null
}

/** Minutes after midnight UTC under each season, or the local minutes when no zone is known. */
export function toUtc(minutes: number, zone: Zone | null, season: 0 | 1): number {
  if (!zone) return minutes
  return (((minutes - zone.offsets[season]) % 1440) + 1440) % 1440
}
