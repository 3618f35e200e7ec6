import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { parse } from 'yaml'
import { describe, expect, test } from 'vitest'
import { parseYaml, patchYaml, stringifyYaml } from '../../src/small/yaml-text.js'
import { SMALL_SPEC } from './small-helpers.js'

const exampleFiles = execFileSync('find', [SMALL_SPEC, '-name', '*.small.yml']).toString().trim().split('\n')

describe('YAML written back keeps its formatting where the document did not change', () => {
  test('an unchanged document comes back byte for byte (every shared example file)', () => {
    for (const f of exampleFiles) {
      const text = readFileSync(f, 'utf8')
      expect(patchYaml(text, parse(text))).toBe(text)
    }
  })

  test('a change keeps comments, quoting, key order and indentation of everything else', () => {
    const text = [
      '# Plan for the week',
      'small_version: "1.0.0"',
      'owner: agent   # never human',
      'tasks:',
      '    - id: "a"',
      "      title: 'First, quoted single'",
      '      status: pending',
      '',
      '    # the second task',
      '    - id: b',
      '      title: Second',
      '',
    ].join('\n')
    const data = parse(text)
    data.tasks[0].status = 'completed'
    data.tasks.push({ id: 'c', title: 'Third' })
    const out = patchYaml(text, data)
    expect(parse(out)).toEqual(data)
    expect(out).toContain('# Plan for the week\n')
    expect(out).toContain('owner: agent # never human')
    expect(out).toContain("      title: 'First, quoted single'\n      status: completed\n")
    expect(out).toContain('\n    # the second task\n    - id: b\n      title: Second\n')
    expect(out).toMatch(/ {4}- id: c\n {6}title: Third\n$/)
  })

  test('appending a progress entry leaves the earlier entries as they were written', () => {
    const f = exampleFiles.find((p) => p.includes('replayid-v1') && p.endsWith('progress.small.yml'))!
    const text = readFileSync(f, 'utf8')
    const data = parse(text)
    data.entries.push({ task_id: 'x', timestamp: '2026-02-01T00:00:00.000000001Z', evidence: 'ok' })
    const out = patchYaml(text, data)
    expect(out.startsWith(text)).toBe(true)
    // The file double-quotes most values, so the new entry does too.
    expect(out.slice(text.length)).toBe('    - task_id: "x"\n      timestamp: "2026-02-01T00:00:00.000000001Z"\n      evidence: "ok"\n')
  })

  test('fresh documents quote small_version and timestamps (a YAML 1.1 reader would retype them)', () => {
    const out = stringifyYaml({ small_version: '1.0.0', owner: 'agent', entries: [{ task_id: 't', timestamp: '2025-01-01T00:00:00.1Z' }] })
    expect(out).toContain('small_version: "1.0.0"')
    expect(out).toContain('timestamp: "2025-01-01T00:00:00.1Z"')
  })

  test('positions: a JSON pointer maps to the line and column of its key', () => {
    const p = parseYaml('a: 1\nb:\n  c:\n    - x\n    - y\n')
    expect(p.position('/b/c')).toEqual({ line: 3, column: 3 })
    expect(p.position('/b/c/1')).toEqual({ line: 5, column: 7 })
    expect(p.position('/b/missing')).toEqual({ line: 3, column: 3 })
  })

  test('property: patching any JSON data over any other gives YAML that means exactly the new data', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
    fc.assert(
      fc.property(json, json, (a, b) => {
        const first = stringifyYaml(a)
        const second = patchYaml(first, b)
        return JSON.stringify(parse(first)) === JSON.stringify(JSON.parse(JSON.stringify(a))) && isDeepStrictEqual(parse(second), b)
      }),
      { numRuns: 200 },
    )
  })
})
