/**
 * Makes the fixed dev/holdout split of ../shared/data/conflicts/pairs-realistic.json, once.
 *
 *   npx tsx scripts/make-conflict-split.ts > test/fixtures/conflict-split.json
 *
 * Within each (type, label) stratum, ids are ordered by SHA-256 of `i16-split:<id>` and the first
 * 40% (rounded) go to holdout, the rest to dev. Only ids, types and labels are read: the split was
 * made before any pair's text was looked at, and the output is committed so it never changes.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

interface Pair { readonly id: string; readonly type: string; readonly label: string }

const path = process.argv[2] ?? '../shared/data/conflicts/pairs-realistic.json'
const pairs = (JSON.parse(readFileSync(path, 'utf8')) as { pairs: Pair[] }).pairs
const strata = new Map<string, Pair[]>()
for (const p of pairs) {
  const k = `${p.type}/${p.label}`
  strata.set(k, [...(strata.get(k) ?? []), p])
}
const rank = (id: string): string => createHash('sha256').update(`i16-split:${id}`).digest('hex')
const dev: string[] = []
const holdout: string[] = []
for (const [, ps] of [...strata].sort(([a], [b]) => a.localeCompare(b))) {
  const sorted = [...ps].sort((a, b) => rank(a.id).localeCompare(rank(b.id)))
  const n = Math.round(sorted.length * 0.4)
  holdout.push(...sorted.slice(0, n).map((p) => p.id))
  dev.push(...sorted.slice(n).map((p) => p.id))
}
const out = {
  description:
    'Fixed dev/holdout split of ../shared/data/conflicts/pairs-realistic.json (issue 16). Made once by scripts/make-conflict-split.ts: ' +
    'within each (type, label) stratum, ids ordered by sha256("i16-split:" + id), first 40% (rounded) to holdout. ' +
    'The detector is built on dev only; holdout errors are never inspected.',
  dev: dev.sort(),
  holdout: holdout.sort(),
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n')
