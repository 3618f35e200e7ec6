import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/conflict/judge/text-detector.js'
import { sentences } from '../../src/conflict/read/statement.js'

// Issue 27, session 12 (tidy30): one sentence splitter. The judge's whole-vs-parts split and the
// confidence's sentence spans kept copies of read/statement.ts's SENTENCE_BREAK that had drifted:
// they cut after "e.g." / "i.e.", which the statement reader keeps inside its sentence. A flag found
// in one sentence quoted the sentence cut short. Hand-written texts.

const detector = new TextConflictDetector()

describe('a flag found in one sentence quotes the sentence the reader read', () => {
  test.each([
    ['Lena drinks tea in the morning, i.e. green tea. Her brother drinks coffee.', 'Lena drinks coffee in the morning.', 'Lena drinks tea in the morning, i.e. green tea.'],
    ['Pablo plays the violin, e.g. in an orchestra. His son plays the drums.', 'Pablo plays the drums.', 'Pablo plays the violin, e.g. in an orchestra.'],
  ])('%s / %s', (a, b, clause) => {
    expect(sentences(a)[0]).toBe(clause)
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(true)
    expect(v.reason).toMatch(new RegExp(`, in "${clause.replace(/[.]/g, '\\.')}"$`))
  })
})
