import { parseDocument } from 'yaml'
import { describe, expect, test } from 'vitest'
import { SmpArtifactStore } from '../../src/artifacts/store.js'
import { validateArtifactText, validateSuccessor } from '../../src/artifacts/validate.js'
import type { ArtifactFrontmatter } from '../../src/artifacts/types.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/** A valid file to break one rule at a time (SMP Appendix B's minimal artifact, plus the optional fields). */
const VALID = `---
awp: "0.2.0"
smp: "1.0"
type: "knowledge-artifact"
id: "artifact:quick-note"
title: "Quick Note"
authors: ["anonymous"]
version: 2
confidence: 0.5
tags: [notes]
created: "2026-01-30T10:00:00Z"
lastModified: "2026-01-31T10:00:00Z"
modifiedBy: "anonymous"
provenance:
  - agent: "anonymous"
    action: "created"
    timestamp: "2026-01-30T10:00:00Z"
  - agent: "anonymous"
    action: "updated"
    timestamp: "2026-01-31T10:00:00Z"
    message: "second look"
    confidence: 0.5
---

# Quick Note
`

/** `VALID` with one frontmatter line replaced (or removed, for `null`). */
function breaking(line: string, replacement: string | null): string {
  if (!VALID.includes(`${line}\n`)) throw new Error(`no line ${line}`)
  return VALID.replace(`${line}\n`, replacement === null ? '' : `${replacement}\n`)
}

// [rule, file, the field the problem names]
const CASES: Array<[string, string, string]> = [
  // §6.1 / §2.2 required fields
  ...(['awp', 'smp', 'type', 'id', 'title', 'version', 'created'] as const).map((key): [string, string, string] => [
    `required: ${key}`, VALID.replace(new RegExp(`^${key}: .*\\n`, 'm'), ''), key,
  ]),
  ['required: authors', breaking('authors: ["anonymous"]', null), 'authors'],
  ['required: provenance', VALID.replace(/^provenance:\n[\s\S]*?(?=---)/m, ''), 'provenance'],
  // schema types and patterns
  ['awp is x.y.z', breaking('awp: "0.2.0"', 'awp: "0.2"'), 'awp'],
  ['awp is a string', breaking('awp: "0.2.0"', 'awp: 2'), 'awp'],
  ['smp is x.y', breaking('smp: "1.0"', 'smp: 1.0'), 'smp'],
  ['§6.2 type is knowledge-artifact', breaking('type: "knowledge-artifact"', 'type: "memory"'), 'type'],
  ['§6.3 id is artifact:<slug>', breaking('id: "artifact:quick-note"', 'id: "artifact:Quick_Note"'), 'id'],
  ['§6.3 id has the artifact: prefix', breaking('id: "artifact:quick-note"', 'id: "quick-note"'), 'id'],
  ['title is not empty', breaking('title: "Quick Note"', 'title: ""'), 'title'],
  ['§6.5 at least one author', breaking('authors: ["anonymous"]', 'authors: []'), 'authors'],
  ['authors are strings', breaking('authors: ["anonymous"]', 'authors: [7]'), 'authors[0]'],
  ['§6.4 version >= 1', breaking('version: 2', 'version: 0'), 'version'],
  ['version is an integer', breaking('version: 2', 'version: 1.5'), 'version'],
  ['version is a number', breaking('version: 2', 'version: "2"'), 'version'],
  ['§6.7 confidence <= 1', breaking('confidence: 0.5', 'confidence: 1.2'), 'confidence'],
  ['§6.7 confidence >= 0', breaking('confidence: 0.5', 'confidence: -0.1'), 'confidence'],
  ['confidence is a number', breaking('confidence: 0.5', 'confidence: high'), 'confidence'],
  ['tags are an array', breaking('tags: [notes]', 'tags: notes'), 'tags'],
  ['tags are strings', breaking('tags: [notes]', 'tags: [true]'), 'tags[0]'],
  ['created is a date-time', breaking('created: "2026-01-30T10:00:00Z"', 'created: "last tuesday"'), 'created'],
  ['created has a time zone', breaking('created: "2026-01-30T10:00:00Z"', 'created: "2026-01-30T10:00:00"'), 'created'],
  ['lastModified is a date-time', breaking('lastModified: "2026-01-31T10:00:00Z"', 'lastModified: "2026-01-31"'), 'lastModified'],
  ['modifiedBy is a string', breaking('modifiedBy: "anonymous"', 'modifiedBy: 42'), 'modifiedBy'],
  ['§6.6 at least one provenance entry', VALID.replace(/^provenance:\n[\s\S]*?(?=---)/m, 'provenance: []\n'), 'provenance'],
  ['provenance entries are objects', VALID.replace(/^provenance:\n[\s\S]*?(?=---)/m, 'provenance: [created]\n'), 'provenance[0]'],
  ['a provenance entry has an agent', VALID.replace('  - agent: "anonymous"\n    action: "created"', '  - action: "created"'), 'provenance[0].agent'],
  ['a provenance entry has a timestamp', VALID.replace('    action: "created"\n    timestamp: "2026-01-30T10:00:00Z"\n', '    action: "created"\n'), 'provenance[0].timestamp'],
  ['a provenance timestamp is a date-time', VALID.replace('    timestamp: "2026-01-31T10:00:00Z"', '    timestamp: "soon"'), 'provenance[1].timestamp'],
  ['§2.6 actions', VALID.replace('action: "updated"', 'action: "deleted"'), 'provenance[1].action'],
  ['a provenance message is a string', VALID.replace('message: "second look"', 'message: [a]'), 'provenance[1].message'],
  ['a provenance confidence is 0..1', VALID.replace('    confidence: 0.5\n---', '    confidence: 2\n---'), 'provenance[1].confidence'],
  // rules the schema misses
  ['§6.8 the first provenance entry is created', VALID.replace('action: "created"', 'action: "merged"'), 'provenance[0].action'],
  ['§2.6 only the first entry is created', VALID.replace('action: "updated"', 'action: "created"'), 'provenance[1].action'],
  ['§2.4 slug fits a file name', VALID.replace('artifact:quick-note', `artifact:${'a'.repeat(201)}`), 'id'],
  // the file itself
  ['a frontmatter block opens the file', VALID.slice(4), 'frontmatter'],
  ['the frontmatter block is closed', VALID.replace('---\n\n# Quick', '\n# Quick'), 'frontmatter'],
  ['the frontmatter is YAML', breaking('title: "Quick Note"', 'title: "Quick Note'), 'frontmatter'],
  ['the frontmatter is a mapping', '---\n- a\n- b\n---\nbody\n', 'frontmatter'],
  ['the frontmatter has no duplicate keys', breaking('title: "Quick Note"', 'title: "Quick Note"\ntitle: "Again"'), 'frontmatter'],
]

describe('a negative case per rule, each naming its field', () => {
  test('the base file is valid', () => {
    expect(validateArtifactText(VALID).problems).toEqual([])
  })

  test.each(CASES)('%s', async (_rule, text, field) => {
    const result = validateArtifactText(text)
    expect(result.valid).toBe(false)
    expect(result.problems.map((p) => p.field)).toContain(field)
    // The same file is refused by the store, which stores nothing.
    const store = new SmpArtifactStore(memoryStorage())
    await expect(store.import(text)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    expect(await store.list()).toEqual([])
    await store.close()
  })

  test('§2.4/§3.2 the id matches the file name', () => {
    expect(validateArtifactText(VALID, { slug: 'other' }).problems).toEqual([
      { field: 'id', message: 'must be "artifact:other" to match its file name (SMP §3.2), got "artifact:quick-note"' },
    ])
  })

  test('every problem is reported, not just the first', () => {
    const fields = validateArtifactText(breaking('confidence: 0.5', 'confidence: 3').replace('action: "created"', 'action: "updated"')).problems.map((p) => p.field)
    expect(fields).toEqual(['confidence', 'provenance[0].action'])
  })
})

describe('§2.5/§2.6 across versions: monotonic version, append-only provenance, fixed identity', () => {
  const base = parseDocument(VALID.slice(4, VALID.indexOf('---\n\n'))).toJS() as ArtifactFrontmatter
  const next = (change: (fm: Record<string, unknown>) => void): ArtifactFrontmatter => {
    const fm = structuredClone(base) as unknown as Record<string, unknown>
    fm['version'] = 3
    fm['provenance'] = [...base.provenance, { agent: 'b', action: 'updated', timestamp: '2026-02-01T00:00:00Z' }]
    change(fm)
    return fm as unknown as ArtifactFrontmatter
  }

  type Change = (fm: Record<string, unknown>) => void
  const cases: Array<[string, Change, string[]]> = [
    ['a later version continues it', () => undefined, []],
    ['the version does not go up', (fm) => void (fm['version'] = 2), ['version']],
    ['the version goes down', (fm) => void (fm['version'] = 1), ['version']],
    ['an entry was rewritten', (fm) => void ((fm['provenance'] as unknown[])[1] = { agent: 'x', action: 'updated', timestamp: '2026-01-31T10:00:00Z' }), ['provenance']],
    ['an entry was dropped', (fm) => void (fm['provenance'] = (fm['provenance'] as unknown[]).slice(1)), ['provenance']],
    ['created changed', (fm) => void (fm['created'] = '2025-01-01T00:00:00Z'), ['created']],
    ['the id changed', (fm) => void (fm['id'] = 'artifact:other'), ['id']],
  ]
  test.each(cases)('%s', (_name, change, fields) => {
    expect(validateSuccessor(base, next(change)).map((p) => p.field)).toEqual(fields)
  })
})

describe('issue 13: frontmatter size', () => {
  test('80k keys validate in linear time (yaml uniqueKeys compared every pair: 30 s before), duplicates still found', () => {
    const extra = Array.from({ length: 80_000 }, (_, i) => `k${i}: ${i}\n`).join('')
    const big = VALID.replace('title: "Quick Note"\n', `title: "Quick Note"\n${extra}`)
    const r = validateArtifactText(big, { slug: 'quick-note' })
    expect(r.file).not.toBeNull()
    expect(Object.keys(r.file!.frontmatter).length).toBeGreaterThan(80_000)
    // The last key repeats the first of the 80k: found without comparing every pair.
    const dup = validateArtifactText(big.replace('title: "Quick Note"\n', 'title: "Quick Note"\nk79999: again\n'))
    expect(dup).toMatchObject({ valid: false, problems: [{ field: 'frontmatter', message: expect.stringMatching(/Map keys must be unique/) }] })
  }, 20_000)

  test('duplicate keys in nested block and flow mappings are still refused; equal keys in different maps are not duplicates', () => {
    const nested = VALID.replace('    message: "second look"\n', '    message: "second look"\n    message: "again"\n')
    expect(validateArtifactText(nested).problems[0]).toMatchObject({ field: 'frontmatter', message: expect.stringMatching(/Map keys must be unique/) })
    const flow = VALID.replace('tags: [notes]', 'tags: [notes]\nx-meta: {a: 1, b: 2, a: 3}')
    expect(validateArtifactText(flow).problems[0]).toMatchObject({ field: 'frontmatter', message: expect.stringMatching(/Map keys must be unique/) })
    expect(validateArtifactText(VALID)).toMatchObject({ valid: true })
  })
})
