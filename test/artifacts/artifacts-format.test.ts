import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { editArtifact } from '../../src/artifacts/edit.js'
import { parseArtifactFile, renderArtifact, stringifyArtifact } from '../../src/artifacts/format.js'
import { commitArtifactFile, formatTimestamp, mergeArtifactFiles } from '../../src/artifacts/operations.js'
import { KNOWLEDGE_ARTIFACT_SCHEMA } from '../../src/artifacts/schema.js'
import { parseArtifactSlug } from '../../src/artifacts/slug.js'
import { validateArtifactText, validateFrontmatter } from '../../src/artifacts/validate.js'
import { isPlainSafe } from '../../src/artifacts/yaml-style.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { SmpArtifactStore } from '../../src/artifacts/store.js'
import { fixtures, SMP_DIR } from './artifacts-helpers.js'

describe('the shared fixtures', () => {
  test('the embedded schema is the shared one, verbatim', () => {
    expect(KNOWLEDGE_ARTIFACT_SCHEMA).toEqual(JSON.parse(readFileSync(join(SMP_DIR, 'knowledge-artifact.schema.json'), 'utf8')))
  })

  test('there are seven', () => {
    expect(fixtures().map((f) => f.name)).toHaveLength(7)
  })

  test.each(fixtures().map((f) => [f.name, f] as const))('%s validates and round-trips byte for byte', async (_name, f) => {
    const checked = validateArtifactText(f.text, { slug: f.slug })
    expect(checked.problems).toEqual([])
    expect(checked.valid).toBe(true)
    const file = parseArtifactFile(f.text)
    expect(file.text).toBe(f.text)
    // Re-rendering the parsed YAML document (not just returning the input) gives the same bytes.
    expect(renderArtifact(file.doc, file.layout, file.body).text).toBe(f.text)
    // An edit that sets nothing new changes nothing.
    expect(editArtifact(file, file.body, () => undefined).text).toBe(f.text)
    // Timestamps stay strings; the body is every byte after the closing fence.
    expect(typeof file.frontmatter['created']).toBe('string')
    expect(`${f.text.slice(0, f.text.length - file.body.length)}${file.body}`).toBe(f.text)
    // Through a store and back.
    const store = new SmpArtifactStore(memoryStorage())
    await store.import(f.text, { slug: f.slug })
    expect((await store.read(f.slug)).text).toBe(f.text)
    await store.close()
  })

  test.each(fixtures().filter((f) => f.name.startsWith('repo-artifacts/')).map((f) => [f.name, f] as const))(
    '%s, written by AWP\'s tool, is canonical: memweave writes its frontmatter to the same bytes',
    (_name, f) => {
      const file = parseArtifactFile(f.text)
      expect(stringifyArtifact(file.frontmatter, file.body).text).toBe(f.text)
    },
  )
})

describe('edits keep what the file had', () => {
  const handWritten = [
    '---',
    '# a comment the tool must keep',
    'awp: "0.2.0"',
    'smp: "1.0"',
    'type: "knowledge-artifact"',
    'id: "artifact:quick-note"',
    'title: "Quick Note"',
    'x-review: {owner: alice, due: 2026-03-01} # unknown key, flow style',
    'authors: ["anonymous"]',
    'version: 1',
    'created: 2026-01-30T10:00:00Z',
    'provenance:',
    '- agent: "anonymous"',
    '  action: "created"',
    '  timestamp: "2026-01-30T10:00:00Z"',
    '---',
    '',
    '# Quick Note',
    '',
    'Some knowledge worth preserving.   ',
    '',
  ].join('\n')

  // An edited file is re-rendered from its YAML document: keys, comments, quotes and flow style
  // survive; spacing inside a flow collection or before a comment follows the file's first flow sequence.
  test('a commit changes only what SMP §4.2 says, in the file\'s own style', () => {
    const file = parseArtifactFile(handWritten)
    expect(file.frontmatter['created']).toBe('2026-01-30T10:00:00Z')
    expect(file.frontmatter['x-review']).toEqual({ owner: 'alice', due: '2026-03-01' })
    const next = commitArtifactFile(file, parseArtifactSlug('quick-note'), { message: 'Second look, with care', confidence: 0.8 }, {
      agent: 'did:key:z6MkBob', timestamp: '2026-02-01T00:00:00Z',
    })
    expect(next.text).toBe([
      '---',
      '# a comment the tool must keep',
      'awp: "0.2.0"',
      'smp: "1.0"',
      'type: "knowledge-artifact"',
      'id: "artifact:quick-note"',
      'title: "Quick Note"',
      'x-review: {owner: alice, due: 2026-03-01} # unknown key, flow style',
      'authors: ["anonymous", "did:key:z6MkBob"]',
      'version: 2',
      'confidence: 0.8',
      'created: 2026-01-30T10:00:00Z',
      'lastModified: "2026-02-01T00:00:00Z"',
      'modifiedBy: "did:key:z6MkBob"',
      'provenance:',
      '- agent: "anonymous"',
      '  action: "created"',
      '  timestamp: "2026-01-30T10:00:00Z"',
      '- agent: "did:key:z6MkBob"',
      '  action: updated',
      '  timestamp: "2026-02-01T00:00:00Z"',
      '  message: Second look, with care',
      '  confidence: 0.8',
      '---',
      '',
      '# Quick Note',
      '',
      'Some knowledge worth preserving.   ',
      '',
    ].join('\n').replace('message: Second look, with care', 'message: "Second look, with care"'))
    expect(file.text).toBe(handWritten) // the input is untouched
  })

  test('CRLF files keep CRLF; a number keeps its value, not its old digits', () => {
    const crlf = handWritten.replace('version: 1\n', 'version: 1\nconfidence: 0.80\n').replace(/\n/g, '\r\n')
    const file = parseArtifactFile(crlf)
    expect(file.frontmatter['confidence']).toBe(0.8)
    const next = commitArtifactFile(file, parseArtifactSlug('quick-note'), { message: 'm', confidence: 0.7 }, { agent: 'anonymous', timestamp: '2026-02-01T00:00:00Z' })
    expect(next.text).toContain('confidence: 0.7\r\ncreated')
    expect(next.text.replace(/\r\n/g, '')).not.toContain('\n')
  })

  test('merging into a double-quoted template keeps its quotes for new quoted values', () => {
    const [target, source] = fixtures().filter((f) => f.name.startsWith('templates-clawd/'))
    const merged = mergeArtifactFiles(parseArtifactFile(target!.text), parseArtifactSlug(target!.slug), [{ file: parseArtifactFile(source!.text), appendBody: true }], {}, {
      agent: 'did:key:z6MkClawd', timestamp: '2026-02-02T00:00:00Z',
    })
    expect(merged.text).toContain('lastModified: "2026-02-02T00:00:00Z"')
    expect(merged.text).toContain(`  - agent: "did:key:z6MkClawd"\n    action: merged\n    timestamp: "2026-02-02T00:00:00Z"\n`)
    expect(merged.text.startsWith(target!.text.slice(0, target!.text.indexOf('version:')))).toBe(true)
  })
})

describe('the canonical style is AWP\'s (js-yaml 3 rules)', () => {
  test.each([
    ['knowledge-artifact', true], ['MCP Coverage Sweep — Findings', true], ['Gaps in `awp init` Bootstrap', true], ['0.4.0', true],
    ['1.0', false], ['artifact:x', false], ['2026-05-12T16:54:56.947Z', false], ['2026-05-12', false], ['yes', false], ['Null', false],
    ['a, b', false], ['#tag', false], ['-x', false], [' lead', false], ['trail ', false], ['', false], ['0x1F', false], ['1_000', false],
    ['.5', false], ['01.5', false], ['e5', true], ['tab\there', false], ['emoji 🎉', true],
  ])('%j plain: %s', (value, plain) => {
    expect(isPlainSafe(value)).toBe(plain)
  })

  test('timestamps: milliseconds only when there are some', () => {
    expect(formatTimestamp(Date.parse('2026-02-01T09:00:00Z'))).toBe('2026-02-01T09:00:00Z')
    expect(formatTimestamp(Date.parse('2026-05-12T16:54:56.947Z'))).toBe('2026-05-12T16:54:56.947Z')
  })
})

// ---- property: parse and serialize are inverse --------------------------------------------------

const text = fc.string({ unit: 'binary', maxLength: 40 })
const nonEmpty = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 })
const timestamp = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => formatTimestamp(d.getTime()))
const confidence = fc.double({ min: 0, max: 1, noNaN: true })
const entry = (action: fc.Arbitrary<string>) =>
  fc.record(
    { agent: text, action, timestamp, message: text, confidence, syncSource: text },
    { requiredKeys: ['agent', 'action', 'timestamp'] },
  )
const known = new Set(['awp', 'smp', 'type', 'id', 'title', 'authors', 'version', 'confidence', 'tags', 'created', 'lastModified', 'modifiedBy', 'provenance', '__proto__'])
const frontmatter = fc
  .record({
    awp: fc.tuple(fc.nat(99), fc.nat(99), fc.nat(99)).map((v) => v.join('.')),
    smp: fc.tuple(fc.nat(9), fc.nat(9)).map((v) => v.join('.')),
    type: fc.constant('knowledge-artifact'),
    id: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,30}$/).map((s) => `artifact:${s}`),
    title: nonEmpty,
    authors: fc.array(text, { minLength: 1, maxLength: 4 }),
    version: fc.integer({ min: 1, max: 1_000_000 }),
    confidence,
    tags: fc.array(text, { maxLength: 5 }),
    created: timestamp,
    lastModified: timestamp,
    modifiedBy: text,
    provenance: fc.tuple(entry(fc.constant('created')), fc.array(entry(fc.constantFrom('updated', 'merged', 'synced')), { maxLength: 4 })).map(([first, rest]) => [first, ...rest]),
    extra: fc.dictionary(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((k) => !known.has(k)), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  }, { requiredKeys: ['awp', 'smp', 'type', 'id', 'title', 'authors', 'version', 'created', 'provenance', 'extra'] })
  .map(({ extra, ...fm }) => ({ ...fm, ...extra }))

describe('property: artifact files round-trip', () => {
  test('stringify then parse gives the same frontmatter and body; parse then stringify gives the same bytes', () => {
    fc.assert(
      fc.property(frontmatter, text, (fm, body) => {
        expect(validateFrontmatter(fm)).toEqual([])
        const file = stringifyArtifact(fm, body)
        const parsed = parseArtifactFile(file.text)
        expect(parsed.frontmatter).toEqual(fm)
        expect(Object.keys(parsed.frontmatter)).toEqual(Object.keys(fm))
        expect(parsed.body).toBe(body)
        expect(renderArtifact(parsed.doc, parsed.layout, parsed.body).text).toBe(file.text)
        expect(stringifyArtifact(parsed.frontmatter, parsed.body).text).toBe(file.text)
      }),
      { numRuns: 300 },
    )
  })
})
