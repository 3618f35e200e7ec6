import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { readStatement } from '../../src/conflict/read/statement.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, session 12 (from roles32): a chat turn's speaker is read in any script. With ASCII
 * letters only, "Zoë:" was no speaker, so "Zoë" and a one-word reply ("Fine.") were read as names
 * in the same place of two turns and flagged. The sentences are written for this test.
 */
const detector = new TextConflictDetector()

describe('a chat speaker whose name has an accent is a speaker, not a name in the text', () => {
  test.each([
    ['Zoë: Fine. How is Biscuit?', 'Zoë: Poor Biscuit.'],
    ['Zoë: Sorted. Is Biscuit eating?', 'Zoë: Good Biscuit.'],
  ])('%s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test('the speaker is set apart from the claim, as an ASCII one is', () => {
    expect(readStatement('Caroline: I start nights on Monday.').speaker).toBe('Caroline')
    expect(readStatement('Joaquín: I start nights on Monday.').speaker).toBe('Joaquín')
    expect(readStatement('Łukasz Nowak: the van is booked.').speaker).toBe('Łukasz Nowak')
  })
})
