import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { SmallRule, formatFinding } from '../../src/small/findings.js'
import { CANONICAL_DOCS, filePathOf } from '../../src/small/layout.js'
import { computeReplayId } from '../../src/small/replay-id.js'
import { SCHEMAS } from '../../src/small/schemas.js'
import { validateWorkspace } from '../../src/small/validate.js'
import { validateDir } from '../../src/node/small-workspace-dir.js'
import { MANDATORY_REPLAYID_FILES, SPEC_V1_FILES } from '../helpers/small-fixtures.js'
import { OLDER_EXAMPLES, SMALL_SPEC, V01_WORKSPACE, VALID_EXAMPLE, readExample } from './small-helpers.js'

describe('the shared SMALL examples (specs/small/)', () => {
  test('the bundled schemas are the spec files, byte for byte in meaning', () => {
    for (const name of CANONICAL_DOCS) {
      const spec = JSON.parse(readFileSync(join(SMALL_SPEC, 'schemas', `${name}.schema.json`), 'utf8'))
      expect(SCHEMAS[name]).toEqual(spec)
    }
  })

  test('the copies the browser tests use are identical to the shared examples', () => {
    const asFiles = (dir: string) => Object.fromEntries(Object.entries(readExample(dir)).filter(([n]) => n !== 'workspace').map(([n, t]) => [`${n}.small.yml`, t]))
    expect(SPEC_V1_FILES).toEqual(asFiles(VALID_EXAMPLE))
    expect(MANDATORY_REPLAYID_FILES).toEqual(asFiles(OLDER_EXAMPLES[0]!))
  })

  test('spec-v1.0.0 is valid, in default and strict mode, with no warnings', async () => {
    for (const strict of [false, true]) {
      const { report } = await validateDir(VALID_EXAMPLE, { strict, verify: true })
      expect(report.errors.map(formatFinding)).toEqual([])
      expect(report.warnings.map(formatFinding)).toEqual([])
      expect(report.valid).toBe(true)
    }
  })

  test('spec-v1.0.0: its stored replayId reproduces as sha256(intent + "\\n" + plan + "\\n" + constraints)', async () => {
    const docs = readExample(VALID_EXAMPLE)
    const stored = '46311ca6450b7e168171e919f8a39de8f980ca0c98870f0e35f2bcc608fe32a0'
    expect(docs.handoff).toContain(stored)
    expect(computeReplayId({ intent: docs.intent!, plan: docs.plan!, constraints: docs.constraints! })).toBe(stored)
    const { replay } = await validateDir(VALID_EXAMPLE, { verify: true })
    expect(replay).toEqual({ stored, source: 'auto', expected: stored, reproduces: true })
    // The same documents with CRLF line endings give the same id (normalised before hashing).
    const crlf = (s: string) => s.replace(/\n/g, '\r\n')
    expect(computeReplayId({ intent: crlf(docs.intent!), plan: crlf(docs.plan!), constraints: crlf(docs.constraints!) })).toBe(stored)
  })

  test.each(OLDER_EXAMPLES)('%s fails at exactly resume.current_task_id (validate and verify, default mode)', async (dir) => {
    for (const verify of [false, true]) {
      const { report } = await validateDir(dir, { verify })
      expect(report.valid).toBe(false)
      expect(report.errors).toHaveLength(1)
      const [e] = report.errors
      expect(e).toMatchObject({ file: '.small/handoff.small.yml', pointer: '/resume/current_task_id', rule: SmallRule.SCHEMA, line: 5 })
      expect(e!.message).toBe('must be a non-empty string or null, got an empty string; write null (or leave the key out) when no task is current')
      expect(formatFinding(e!)).toMatch(/^error \.small\/handoff\.small\.yml:5:\d+ \/resume\/current_task_id \[schema\] must be a non-empty string or null/)
    }
  })

  test('the older examples pass once current_task_id is null: nothing else is wrong with them', () => {
    for (const dir of OLDER_EXAMPLES) {
      const docs = readExample(dir)
      const fixed = { ...docs, handoff: docs.handoff!.replace(/current_task_id: ""/, 'current_task_id: null') }
      expect(validateWorkspace(fixed).report.errors).toEqual([])
    }
  })

  test('the v0.1 workspace fails whole: every canonical document is invalid, each for its small_version', async () => {
    const { report } = await validateDir(V01_WORKSPACE)
    expect(report.valid).toBe(false)
    for (const name of CANONICAL_DOCS) {
      const mine = report.errors.filter((e) => e.file === filePathOf(name))
      expect(mine.length, name).toBeGreaterThan(0)
      const version = mine.find((e) => e.rule === SmallRule.VERSION)
      expect(version, name).toMatchObject({ pointer: '/small_version', line: 1 })
      expect(version!.message).toContain('must be exactly "1.0.0", found "0.1"')
      expect(version!.message).toContain('not supported')
    }
    // Its shape is v0.1's too: the v1.0.0 required fields are named as missing.
    expect(report.errors.map((e) => `${e.file}${e.pointer}`)).toEqual(
      expect.arrayContaining(['.small/intent.small.yml/intent', '.small/handoff.small.yml/replayId', '.small/constraints.small.yml/technical_constraints']),
    )
  })
})
