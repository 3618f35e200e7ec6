import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { formatStore, type HandWrittenResult, type StoreSection } from '../../scripts/eval-conflict-store.js'
import { conversationsPath, HAND_WRITTEN_SETS, measuredNow, pairsPath, splitPath, type HandWrittenRole, type HandWrittenSet } from '../../scripts/hand-written-sets.js'

/**
 * Issue 27 house-keeping (session 14): the hand-written sets are one table, so a set's role is one
 * word in its row. These pin what that word must decide: a fresh holdout is not computed with
 * --dev-only and its texts are never printed, even with --errors. Only made-up texts here: no
 * holdout file is opened, only checked to exist.
 */
describe('scripts/hand-written-sets.ts', () => {
  test('one row per set: distinct names and seeds, and the three files each name leads to', () => {
    const names = HAND_WRITTEN_SETS.map((s) => s.name)
    expect(new Set(names).size).toBe(names.length)
    // Two sets on one seed would plant their pairs at the same draw of positions.
    expect(new Set(HAND_WRITTEN_SETS.map((s) => s.seed)).size).toBe(names.length)
    for (const set of HAND_WRITTEN_SETS) {
      for (const path of [conversationsPath(set), pairsPath(set), splitPath(set)]) expect(existsSync(path), path).toBe(true)
    }
    // dev2 and dev3 have been dev data since before sets had a role.
    expect(HAND_WRITTEN_SETS.filter((s) => s.name === 'dev2' || s.name === 'dev3').map((s) => s.role)).toEqual(['dev', 'dev'])
  })

  test('a holdout is computed only when the run is not --dev-only; dev data always', () => {
    const row = (role: HandWrittenRole): HandWrittenSet => ({ name: 'devx', written: 'session 0', role, seed: 0 })
    expect([measuredNow(row('holdout'), true), measuredNow(row('holdout'), false)]).toEqual([false, true])
    expect([measuredNow(row('dev'), true), measuredNow(row('dev'), false)]).toEqual([true, true])
  })
})

describe('formatStore: a set is listed by --errors as its row says', () => {
  const flag = { a: 'Made-up A: the ferry leaves at nine.', b: 'Made-up B: the ferry leaves at ten.', reason: 'different time', confidence: 0.9 }
  const missedPair = { id: 'devx-7', category: 'FACT', label: 'conflict' as const, split: 'dev' as const, a: 'Made-up missed A.', b: 'Made-up missed B.' }
  const planted = { listed: 1, tp: 0, fp: 1, background: 0, conflicts: 1, precision: 0, recall: 0, byType: { FACT: { conflicts: 1, found: 0, fp: 1 } }, falseFlags: [flag], missed: [missedPair] }
  const section = (role: HandWrittenRole): StoreSection => {
    const set: HandWrittenSet = { name: 'devx', written: 'session 0', role, seed: 99 }
    const result: HandWrittenResult = {
      set,
      rows: [{ name: 'devx-1 turns', run: { facts: 10, flags: [flag] }, labelled: { onLabelled: 0, found: 0, labelled: 1, contradictionsFound: 0, contradictions: 0 } }],
      planted: [{ into: 'devx-1 turns', result: planted }],
    }
    return { noise: [], enumerations: { facts: 0, flags: [] }, planted: [], devSeeds: null, plantedUnseen: [], plantedUnseen2: [], blind: [], plantedBlind: [], sets: [result] }
  }
  const texts = [flag.a, flag.b, missedPair.a, missedPair.b]

  test('a holdout row prints its counts and titles, never a text', () => {
    const out = formatStore(section('holdout'), true)
    expect(out).toContain('Devx conversations (test/fixtures/conversations-devx.json, session 0; a fresh holdout: flags counted, never listed)')
    expect(out).toContain("Devx pairs (test/fixtures/conflict-pairs-devx.json) planted in each devx conversation's turns (seed 99)")
    expect(out).toContain('| devx-1 turns')
    expect(texts.filter((t) => out.includes(t))).toEqual([])
  })

  test('the same row flipped to dev lists its flags, false flags and misses', () => {
    const out = formatStore(section('dev'), true)
    expect(out).toContain('session 0; dev data, flags listed with --errors)')
    expect(out).toContain('Flags in devx-1 turns:')
    expect(out).toContain('Devx planted (all devx conversations): false flags 1')
    expect(out).toContain('Devx planted: missed 1')
    expect(texts.filter((t) => out.includes(t))).toEqual(texts)
  })
})
