import fc from 'fast-check'
import { expect, test } from 'vitest'
import { termOf, terms } from '../../src/facts/text.js'

// Issue 31 (fifth round): terms() reads ASCII text by a scan of its own (no normalization, no
// Unicode regex). It must give what the one rule for every text gives: fold (NFKD, marks dropped,
// lower case, apostrophes dropped), the words of WORD_RE, a hyphenated word's parts then the parts
// joined. The rule, as terms() was written before the scan:
const WORD_RE = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu
const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’]/g, '')
function reference(text: string): string[] {
  const out: string[] = []
  const add = (w: string): void => {
    const t = termOf(w)
    if (t !== null) out.push(t)
  }
  for (const w of fold(text).match(WORD_RE) ?? []) {
    if (!w.includes('-')) {
      add(w)
      continue
    }
    const parts = w.split('-')
    for (const p of parts) add(p)
    if (parts.join('').length <= 24) add(parts.join(''))
  }
  return out
}

const ascii = fc.constantFrom('a', 'Z', 'q', '0', '7', '-', '--', "'", ' ', '\n', '\t', '.', ',', '_', '"', 'Running', 'THE', "don't", 'de-stress', "rock-'n-roll", '18th', '1990s', 'seven', 'x-', '-y', 'a-b-c-d-e-f-g-h-i-j-k-l-m-n', '\u0000', '~')
const unicode = fc.constantFrom('é', 'e\u0301', '’', 'Σ', 'ß', 'ﬁ', 'İ', '\u00a0', '—', '٣')

test('terms() of ASCII text, by its scan, equals the rule for every text', () => {
  const text = fc.oneof(fc.array(ascii, { maxLength: 12 }).map((p) => p.join('')), fc.string({ unit: 'binary-ascii', maxLength: 60 }))
  fc.assert(fc.property(text, (t) => {
    expect(terms(t)).toEqual(reference(t))
  }), { numRuns: 5000 })
})

test('terms() of text with any character past ASCII still follows the rule', () => {
  const text = fc.array(fc.oneof(ascii, unicode), { maxLength: 12 }).map((p) => p.join(''))
  fc.assert(fc.property(text, (t) => {
    expect(terms(t)).toEqual(reference(t))
  }), { numRuns: 2000 })
})
