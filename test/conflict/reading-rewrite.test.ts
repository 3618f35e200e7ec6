import { describe, expect, it } from 'vitest'
import { rewriter, type RewriteRule } from '../../src/conflict/read/rewrite.js'
import { SHORTHAND } from '../../src/conflict/read/text-tokens.js'
import { PHRASAL_VERBS } from '../../src/conflict/words/phrases.js'
import { RETRACT_PHRASES } from '../../src/conflict/words/retractions.js'
import { readingCorpus } from '../helpers/reading-corpus.js'

/** The rules one after the other, as the reader applied them before the joined test (issue 31). */
function eachRule(rules: readonly RewriteRule[], text: string): string {
  for (const [re, to] of rules) text = typeof to === 'string' ? text.replace(re, to) : text.replace(re, to)
  return text
}

describe('rewriter: rules applied in order, texts that match none skipped by one test', () => {
  it('gives what the rules one by one give, for every text of the detector data and the bench', { timeout: 120_000 }, () => {
    const lists = [SHORTHAND, [...PHRASAL_VERBS, ...RETRACT_PHRASES]]
    let changed = 0
    for (const rules of lists) {
      const rewrite = rewriter(rules)
      for (const text of readingCorpus()) {
        const want = eachRule(rules, text)
        if (want !== text) changed++
        expect(rewrite(text), text).toBe(want)
      }
    }
    // Both ways are exercised: texts a rule rewrites and texts none does.
    expect(changed).toBeGreaterThan(100)
  })

  it('keeps the order: a rule rewrites what an earlier one wrote', () => {
    const rewrite = rewriter([[/\bw\/o\b/gi, 'without'], [/\bwithout\s+(\w+)/gi, 'no $1']])
    expect(rewrite('shipped w/o tests')).toBe('shipped no tests')
    expect(rewrite('shipped with tests')).toBe('shipped with tests')
  })

  it('tests a pattern with a backreference or a named group on its own, and keeps each flag set apart', () => {
    const rewrite = rewriter([
      [/\b(\w+) \1\b/g, '$1'],
      [/\b(?<unit>km|mi)\b/g, '<$<unit>>'],
      [/\bON\b/g, 'enabled'],
      [/\bcolour\b/gi, 'color'],
    ])
    expect(rewrite('the the plan')).toBe('the plan')
    expect(rewrite('5 km away')).toBe('5 <km> away')
    // Case-sensitive "ON" stays case-sensitive beside a case-blind rule.
    expect(rewrite('turn it on')).toBe('turn it on')
    expect(rewrite('turn it ON, Colour red')).toBe('turn it enabled, color red')
  })
})
