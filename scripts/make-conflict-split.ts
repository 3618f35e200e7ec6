/**
 * Makes the fixed dev/holdout split of ../shared/data/conflicts/pairs-realistic.json, once.
 *
 *   npx tsx scripts/make-conflict-split.ts > test/fixtures/conflict-split.json
 *   npx tsx scripts/make-conflict-split.ts test/fixtures/conflict-pairs-unseen.json --unseen \
 *     > test/fixtures/conflict-unseen-split.json     # issue 27's hand-written set: salt u27-split, half
 *   npx tsx scripts/make-conflict-split.ts test/fixtures/conflict-pairs-unseen2.json --unseen2 \
 *     > test/fixtures/conflict-unseen2-split.json    # its second set (ninth round): salt u28-split, half
 *   npx tsx scripts/make-conflict-split.ts test/fixtures/conflict-pairs-styles.json --styles \
 *     > test/fixtures/conflict-styles-split.json     # the external round's styles set: salt x27-split, half
 *
 * Within each (type, label) stratum, ids are ordered by SHA-256 of `i16-split:<id>` and the first
 * 40% (rounded) go to holdout, the rest to dev. Only ids, types and labels are read: the split was
 * made before any pair's text was looked at, and the output is committed so it never changes.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

interface Pair { readonly id: string; readonly type: string; readonly label: string }

const args = process.argv.slice(2)
const path = args.find((a) => !a.startsWith('--')) ?? '../shared/data/conflicts/pairs-realistic.json'
// The unseen set (issue 27) splits half/half under its own salt; the realistic split stays as it was made.
const styles = args.includes('--styles')
const unseen2 = args.includes('--unseen2')
const unseen = styles || unseen2 || args.includes('--unseen')
const salt = styles ? 'x27-split:' : unseen2 ? 'u28-split:' : unseen ? 'u27-split:' : 'i16-split:'
const holdoutShare = unseen ? 0.5 : 0.4
const pairs = (JSON.parse(readFileSync(path, 'utf8')) as { pairs: Pair[] }).pairs
const strata = new Map<string, Pair[]>()
for (const p of pairs) {
  const k = `${p.type}/${p.label}`
  strata.set(k, [...(strata.get(k) ?? []), p])
}
const rank = (id: string): string => createHash('sha256').update(salt + id).digest('hex')
const dev: string[] = []
const holdout: string[] = []
for (const [, ps] of [...strata].sort(([a], [b]) => a.localeCompare(b))) {
  const sorted = [...ps].sort((a, b) => rank(a.id).localeCompare(rank(b.id)))
  const n = Math.round(sorted.length * holdoutShare)
  holdout.push(...sorted.slice(0, n).map((p) => p.id))
  dev.push(...sorted.slice(n).map((p) => p.id))
}
const out = unseen ? {
  description:
    `Fixed dev/holdout split of ${path} (issue 27, ${styles ? 'external-data' : unseen2 ? 'ninth' : 'eighth'} round). Made once by scripts/make-conflict-split.ts ${styles ? '--styles' : unseen2 ? '--unseen2' : '--unseen'}: ` +
    `within each (type, label) stratum, ids ordered by sha256("${salt}" + id), first half (rounded) to holdout. ` +
    'Rules are fitted on dev only; holdout examples are never inspected, only its aggregates read.',
  dev: dev.sort(),
  holdout: holdout.sort(),
} : {
  description:
    'Fixed dev/holdout split of ../shared/data/conflicts/pairs-realistic.json (issue 16). Made once by scripts/make-conflict-split.ts: ' +
    'within each (type, label) stratum, ids ordered by sha256("i16-split:" + id), first 40% (rounded) to holdout. ' +
    'The detector is built on dev only; holdout errors are never inspected.',
  dev: dev.sort(),
  holdout: holdout.sort(),
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n')
