/**
 * Issue 27's hand-written sets (test/fixtures/README.md), one row each: conversations written
 * without reading the detector, with labelled changes, and pairs planted in their turns. Adding a
 * set is one row here; every section of `npm run eval:conflicts` (pairs, store, --errors, --json)
 * loops over this table.
 *
 * A set's role is how far it may be looked at:
 * - 'holdout': a fresh set is measured once, at the merge that brings it, never while iterating:
 *   its tables print counts only, --dev-only does not even compute it, --errors never lists its
 *   flags or pairs (a text read is a text tuned on).
 * - 'dev': after that merge has measured it, flip its row's role to 'dev' (one word: pairs and
 *   conversations both follow it); from then on --dev-only computes it and --errors lists it.
 *
 * blind, synthetic, unseen, unseen2 and realistic are other kinds of set and are not rows here.
 */
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = resolve(fileURLToPath(import.meta.url), '..')

/** How the eval treats a hand-written set: a fresh holdout prints counts only and is not computed with --dev-only; dev data is both, and --errors lists it. */
export type HandWrittenRole = 'holdout' | 'dev'

export interface HandWrittenSet {
  /** `dev4`: its conversations are named `dev4-N` and its files carry the name. */
  readonly name: string
  /** When it was written, as its titles say: `session 12 round 2`. */
  readonly written: string
  readonly role: HandWrittenRole
  /** Seed of its pairs' positions in each of its conversations' turns. */
  readonly seed: number
  /**
   * dev2 and dev3 were dev data before sets had a role, and their pairs' titles never named one;
   * false keeps those titles (and so the eval's output) as they were.
   */
  readonly pairsTitleNamesRole?: false
}

export const HAND_WRITTEN_SETS: readonly HandWrittenSet[] = [
  { name: 'dev2', written: 'session 10', role: 'dev', seed: 10, pairsTitleNamesRole: false },
  // Measured once as a holdout at the merge of 89c5679.
  { name: 'dev3', written: 'session 11', role: 'dev', seed: 11, pairsTitleNamesRole: false },
  { name: 'dev4', written: 'session 12', role: 'dev', seed: 12 },
  { name: 'dev5', written: 'session 12 round 2', role: 'dev', seed: 13 },
  { name: 'dev6', written: 'session 12 round 3', role: 'dev', seed: 14 },
  { name: 'dev7', written: 'session 13', role: 'dev', seed: 15 },
  { name: 'dev8', written: 'session 13', role: 'dev', seed: 16 },
  { name: 'dev9', written: 'session 13', role: 'dev', seed: 17 },
  { name: 'dev10', written: 'session 14', role: 'holdout', seed: 18 },
  { name: 'dev11', written: 'session 14', role: 'holdout', seed: 19 },
]

/** The row of a set by its name (`dev4`). */
export function handWrittenSet(name: string): HandWrittenSet {
  const set = HAND_WRITTEN_SETS.find((s) => s.name === name)
  if (!set) throw new Error(`no hand-written set ${name} in scripts/hand-written-sets.ts`)
  return set
}

/** test/fixtures/conversations-<name>.json: its conversations in LoCoMo's shape. */
export function conversationsPath(set: HandWrittenSet): string {
  return resolve(here, `../test/fixtures/conversations-${set.name}.json`)
}

/** test/fixtures/conflict-pairs-<name>.json: its labelled pairs. */
export function pairsPath(set: HandWrittenSet): string {
  return resolve(here, `../test/fixtures/conflict-pairs-${set.name}.json`)
}

/** test/fixtures/conflict-<name>-split.json: its fixed split (every pair on dev). */
export function splitPath(set: HandWrittenSet): string {
  return resolve(here, `../test/fixtures/conflict-${set.name}-split.json`)
}

/** The set's name as a title starts with it: `Dev4`. */
export function setTitle(set: HandWrittenSet): string {
  return set.name.charAt(0).toUpperCase() + set.name.slice(1)
}

/** Whether this run computes the set: a fresh holdout is looked at once, at a merge, never while iterating (--dev-only). */
export function measuredNow(set: HandWrittenSet, devOnly: boolean): boolean {
  return !(devOnly && set.role === 'holdout')
}

/** What a set's store table title says of it, by its role. */
export function roleSays(role: HandWrittenRole): string {
  return role === 'holdout' ? 'a fresh holdout: flags counted, never listed' : 'dev data, flags listed with --errors'
}
