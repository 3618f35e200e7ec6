import fc from 'fast-check'
import { expect, test } from 'vitest'
import { terms } from '../../src/facts/text.js'
import { versionFromRecord } from '../../src/facts/version.js'

// Issue 31: a version's terms are the content's terms followed by each searchable metadata value's
// (kept per value), not terms() of the joined text. The two must agree for any text: words, case
// (a final sigma), marks, hyphens, apostrophes and line breaks at the edges of the parts.
const pieces = fc.constantFrom('Σ', 'ΟΔΟΣ', 'ς', 'e\u0301', '\u0301', "'", '’', '-', 'de-stress', ' ', '\n', 'Running', 'the', 'İ', 'ß', 'ﬁ', '7th', 'seven', 'x-', '-y', 'Oslo', 'café', '\t')
const text = fc.oneof(fc.array(pieces, { maxLength: 8 }).map((p) => p.join('')), fc.string({ unit: 'grapheme', maxLength: 40 }))

test('a version indexes the same terms, in the same order, as terms() of its content and searchable values joined by line breaks', () => {
  fc.assert(fc.property(text, fc.dictionary(fc.constantFrom('subject', 'predicate', 'object', 'memoryType', 'context', 'pool', 'memoryId', 'importance', 'note'), fc.oneof(text, fc.double(), fc.boolean())), (content, metadata) => {
    const v = versionFromRecord({
      id: 'r', kind: 'fact', tenant: null, author: null, hlc: '001',
      body: { content, factId: 'f', structuredId: null, metadata, validFrom: 0, writtenAt: 0, supersedes: null, source: { writtenBy: null, signature: null, publicKey: null } },
    }, new Set())
    const searched = Object.entries(metadata).filter(([k, val]) => typeof val === 'string' && !['importance', 'pool', 'memoryId'].includes(k)).map(([, val]) => val as string)
    const want = terms([content, ...searched].join('\n'))
    expect(v.terms).toEqual(want)
    // Asked again (the values' terms now kept): the same.
    expect(v.terms).toEqual(want)
  }), { numRuns: 3000 })
})
