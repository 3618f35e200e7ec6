import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { EVIDENCE_FIELDS } from '../../src/small/evidence.js'
import { SmallRule, formatFinding, type Finding } from '../../src/small/findings.js'
import { prepareEntry } from '../../src/small/progress.js'
import { computeReplayId, normalizeLineEndings } from '../../src/small/replay-id.js'
import { findSecrets } from '../../src/small/secrets.js'
import { compareInstants, formatNanos, instantNanos, nextTimestamp, parseTimestamp } from '../../src/small/timestamp.js'
import { validateWorkspace, type ValidateOptions, type WorkspaceFiles } from '../../src/small/validate.js'
import { BASE } from './small-helpers.js'

const check = (files: WorkspaceFiles, options: ValidateOptions = {}) => validateWorkspace(files, options).report
const where = (fs: readonly Finding[]) => fs.map((f) => `${f.file}${f.pointer} [${f.rule}]`)
const progressWith = (...entries: string[]) => `small_version: "1.0.0"\nowner: agent\nentries:\n${entries.join('')}`
const entry = (fields: Record<string, string>) => {
  const [first, ...rest] = Object.entries(fields)
  return `  - ${first![0]}: ${JSON.stringify(first![1])}\n${rest.map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`).join('')}`
}

describe('the base workspace these tests bend', () => {
  test('is valid in strict mode, with no warnings', () => {
    const r = check(BASE, { strict: true, layout: [] })
    expect(r.errors.map(formatFinding)).toEqual([])
    expect(r.warnings).toEqual([])
  })
})

describe('invariant 5: small_version is exactly the string "1.0.0"', () => {
  test.each([
    ['small_version: 1.0', 'found the number 1; quote it'],
    ['small_version: "1.0"', 'found "1.0"'],
    ['small_version: "0.1"', 'not supported'],
    ['small_version: "1.0.0 "', 'found "1.0.0 "'],
    ['small_version: "v1.0.0"', 'found "v1.0.0"'],
  ])('%s is caught', (line, words) => {
    const r = check({ ...BASE, plan: BASE.plan.replace('small_version: "1.0.0"', line) })
    expect(where(r.errors)).toEqual(['.small/plan.small.yml/small_version [small-version]'])
    expect(r.errors[0]!.message).toContain(words)
  })

  test('a missing small_version is caught; an unquoted 1.0.0 (a YAML 1.2 string) holds', () => {
    expect(where(check({ ...BASE, intent: BASE.intent.replace('small_version: "1.0.0"\n', '') }).errors)).toEqual(['.small/intent.small.yml/small_version [small-version]'])
    expect(check({ ...BASE, intent: BASE.intent.replace('"1.0.0"', '1.0.0') }).valid).toBe(true)
  })
})

describe('invariant 2: every progress entry carries evidence', () => {
  test.each(EVIDENCE_FIELDS)('%s alone is evidence', (field) => {
    const value = field === 'link' ? 'https://ci.example.com/run/1' : field === 'commit' ? 'abc1234' : 'npm test passed'
    const r = check({ ...BASE, progress: progressWith(entry({ task_id: 't1', timestamp: '2025-01-01T00:00:00.1Z', [field]: value })) })
    expect(r.errors).toEqual([])
  })

  test('an object is evidence too', () => {
    const r = check({ ...BASE, progress: `${progressWith(entry({ task_id: 't1', timestamp: '2025-01-01T00:00:00.1Z' }))}    test: { suite: unit, passed: 12 }\n` })
    expect(r.errors).toEqual([])
  })

  test.each([
    ['notes alone', { notes: 'I did it' }, 'notes alone are not evidence'],
    ['nothing', {}, 'add at least one of evidence, verification, command, test, link, commit'],
    ['a blank evidence', { evidence: '   ' }, 'no evidence'],
  ])('%s is caught', (_, extra, words) => {
    const r = check({ ...BASE, progress: progressWith(entry({ task_id: 't1', timestamp: '2025-01-01T00:00:00.1Z', ...extra })) })
    const f = r.errors.find((e) => e.rule === SmallRule.EVIDENCE)
    expect(f).toMatchObject({ file: '.small/progress.small.yml', pointer: '/entries/0', line: 4 })
    expect(f!.message).toContain(words)
  })

  test('an empty evidence object is caught', () => {
    const r = check({ ...BASE, progress: `${progressWith(entry({ task_id: 't1', timestamp: '2025-01-01T00:00:00.1Z' }))}    evidence: {}\n` })
    expect(where(r.errors)).toEqual(['.small/progress.small.yml/entries/0 [progress-evidence]'])
  })
})

describe('progress timestamps: RFC 3339 with fractional seconds, strictly increasing at full precision', () => {
  const two = (a: string, b: string) =>
    progressWith(entry({ task_id: 't1', timestamp: a, evidence: 'x' }), entry({ task_id: 't1', timestamp: b, evidence: 'y' }))

  test('one nanosecond apart holds; equal, or one nanosecond back, is caught', () => {
    expect(check({ ...BASE, progress: two('2026-01-07T03:23:38.000000001Z', '2026-01-07T03:23:38.000000002Z') }).valid).toBe(true)
    for (const b of ['2026-01-07T03:23:38.000000001Z', '2026-01-07T03:23:38.000000000Z', '2026-01-07T03:23:38.0000000010Z']) {
      const r = check({ ...BASE, progress: two('2026-01-07T03:23:38.000000001Z', b) })
      expect(where(r.errors)).toEqual(['.small/progress.small.yml/entries/1/timestamp [progress-timestamp]'])
      expect(r.errors[0]!.message).toContain('strictly increasing')
    }
  })

  test('beyond nanoseconds and across offsets, the instant decides (not the text, not a millisecond Date)', () => {
    expect(check({ ...BASE, progress: two('2026-01-07T03:23:38.0000000001Z', '2026-01-07T03:23:38.0000000002Z') }).valid).toBe(true)
    // 05:00:00+02:00 is 03:00:00Z: before 04:00Z although its text sorts after.
    expect(check({ ...BASE, progress: two('2026-01-07T04:00:00.5Z', '2026-01-07T05:00:00.5+02:00') }).valid).toBe(false)
    expect(check({ ...BASE, progress: two('2026-01-07T04:00:00.5Z', '2026-01-07T06:00:00.6+02:00') }).valid).toBe(true)
  })

  test.each([
    ['2025-01-01T00:00:00Z', 'no fractional seconds'],
    ['2025-02-30T00:00:00.5Z', 'does not have'],
    ['2025-01-01 00:00:00.5Z', 'RFC 3339'],
    ['2025-01-01T00:00:00.5', 'RFC 3339'],
  ])('%s is caught', (ts, words) => {
    const r = check({ ...BASE, progress: progressWith(entry({ task_id: 't1', timestamp: ts, evidence: 'x' })) })
    expect(r.errors.map((e) => e.pointer)).toContain('/entries/0/timestamp')
    expect(r.errors.map((e) => e.message).join(' ')).toMatch(new RegExp(words))
  })

  test('a missing timestamp is caught', () => {
    const r = check({ ...BASE, progress: progressWith(entry({ task_id: 't1', evidence: 'x' })) })
    expect(where(r.errors)).toEqual(['.small/progress.small.yml/entries/0/timestamp [progress-timestamp]'])
  })

  // Random instants from 1970 to 9998 with 9-12 fractional digits and any offset (the local time stays a 4-digit year).
  const instantArb = fc.record({
    ns: fc.bigInt({ min: 2n * 86400n * 1_000_000_000n, max: 253370764799n * 1_000_000_000n }),
    extra: fc.stringMatching(/^[0-9]{0,3}$/),
    offset: fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
  })
  const render = ({ ns, extra, offset }: { ns: bigint; extra: string; offset: number }) => {
    const utc = formatNanos(ns + BigInt(offset) * 60_000_000_000n) // local wall time = utc + offset
    const sign = offset < 0 ? '-' : '+'
    const o = Math.abs(offset)
    return `${utc.slice(0, -1)}${extra}${sign}${String(Math.floor(o / 60)).padStart(2, '0')}:${String(o % 60).padStart(2, '0')}`
  }

  test('property: comparing parsed timestamps agrees with exact arithmetic', () => {
    fc.assert(
      fc.property(instantArb, instantArb, (a, b) => {
        const pa = parseTimestamp(render(a)), pb = parseTimestamp(render(b))
        if (!pa.ok || !pb.ok) return false
        const ka = a.ns * 1000n + BigInt(a.extra.padEnd(3, '0')), kb = b.ns * 1000n + BigInt(b.extra.padEnd(3, '0'))
        return compareInstants(pa.instant, pb.instant) === (ka < kb ? -1 : ka > kb ? 1 : 0)
      }),
      { numRuns: 500 },
    )
  })

  test('property: formatNanos and parseTimestamp round-trip; nextTimestamp is always strictly later', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 253402300798n * 1_000_000_000n }), fc.integer({ min: 0, max: 4102444800000 }), (ns, now) => {
        const p = parseTimestamp(formatNanos(ns))
        if (!p.ok || instantNanos(p.instant) !== ns) return false
        const next = parseTimestamp(nextTimestamp(now, p.instant))
        return next.ok && next.hasFraction && compareInstants(next.instant, p.instant) === 1
      }),
      { numRuns: 500 },
    )
  })
})

describe('invariant 1: secrets are never stored (a warning by default, an error in strict mode)', () => {
  const secrets = [
    ['GitHub token', `ghp_${'a1B2'.repeat(9)}`],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['OpenAI or Anthropic API key', `sk-ant-api03-${'Xy9'.repeat(10)}`],
    ['private key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['credentials in a URL', 'postgres://admin:hunter22@db.internal:5432/app'],
    ['assigned secret', 'set password=S3cr3tValue before running'],
    ['Slack token', 'xoxb-1234567890-abcdefghij'],
    ['JSON Web Token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ] as const

  test.each(secrets)('a %s in a note is found', (kind, value) => {
    const progress = progressWith(entry({ task_id: 't1', timestamp: '2025-01-01T00:00:00.1Z', evidence: 'x', notes: value }))
    const soft = check({ ...BASE, progress })
    expect(soft.valid).toBe(true)
    expect(soft.warnings).toHaveLength(1)
    expect(soft.warnings[0]).toMatchObject({ rule: SmallRule.SECRETS, pointer: '/entries/0/notes', file: '.small/progress.small.yml' })
    expect(soft.warnings[0]!.message).toContain(kind)
    expect(soft.warnings[0]!.message).not.toContain(value) // the report does not repeat the secret
    const strict = check({ ...BASE, progress }, { strict: true })
    expect(where(strict.errors)).toEqual(['.small/progress.small.yml/entries/0/notes [no-secrets]'])
  })

  test('a random value under a secret-named key is found; hashes in their own fields and prose are not', () => {
    expect(findSecrets({ tasks: [{ id: 't', title: 'x', api_key: 'Zx81kQ2pLm0Vb7Ty' }] }).map((h) => h.pointer)).toEqual(['/tasks/0/api_key'])
    const clean = {
      replayId: { value: 'a'.repeat(64), source: 'auto' },
      entries: [{ command_sha256: 'b'.repeat(64), commit: 'abc1234', replayId: 'c'.repeat(64), notes: 'No secrets in .small artifacts; rotate the API token monthly' }],
      tasks: [{ token: 'see the vault', password: '$DB_PASSWORD' }],
    }
    expect(findSecrets(clean)).toEqual([])
  })
})

describe('ids are unique', () => {
  test('a repeated task id is caught at the second one', () => {
    const plan = `${BASE.plan}  - id: t1\n    title: Again\n`
    expect(where(check({ ...BASE, plan }).errors)).toEqual(['.small/plan.small.yml/tasks/2/id [unique-id]'])
  })
})

describe('replayId = sha256(intent + "\\n" + plan [+ "\\n" + constraints]), line endings normalised', () => {
  test('constraints take part only when present; CRLF, CR and LF give one id', () => {
    const a = computeReplayId({ intent: 'i\n', plan: 'p\n' })
    // The exact bytes hashed: "i\n" + "\n" + "p\n".
    expect(a).toBe(createHash('sha256').update('i\n\np\n').digest('hex'))
    expect(computeReplayId({ intent: 'i\r\n', plan: 'p\r' })).toBe(a)
    expect(computeReplayId({ intent: 'i\n', plan: 'p\n', constraints: null })).toBe(a)
    expect(computeReplayId({ intent: 'i\n', plan: 'p\n', constraints: 'c\n' })).not.toBe(a)
  })

  test('the files\' own bytes are hashed: a UTF-8 byte order mark counts, as it does for the reference CLI', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(BASE.intent)])
    const handoff = BASE.handoff.replace('source: manual', 'source: auto')
    const { replay } = validateWorkspace({ ...BASE, intent: bom, handoff }, { checkReplayId: true })
    expect(replay?.expected).toBe(computeReplayId({ intent: bom, plan: BASE.plan, constraints: BASE.constraints }))
    expect(replay?.expected).not.toBe(computeReplayId({ intent: BASE.intent, plan: BASE.plan, constraints: BASE.constraints }))
  })

  test('property: normalising is idempotent, leaves no CR, and keeps everything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const once = normalizeLineEndings(bytes)
        const twice = normalizeLineEndings(once)
        const withoutCr = [...bytes].filter((b) => b !== 0x0d && b !== 0x0a)
        return !once.includes(0x0d) && twice.length === once.length && twice.every((b, i) => b === once[i]) &&
          [...once].filter((b) => b !== 0x0a).join() === withoutCr.join()
      }),
    )
  })

  test('verify warns when an automatic replayId no longer reproduces, and names the one that would', () => {
    const handoff = BASE.handoff.replace('source: manual', 'source: auto')
    const { report, replay } = validateWorkspace({ ...BASE, handoff }, { checkReplayId: true })
    const expected = computeReplayId({ intent: BASE.intent, plan: BASE.plan, constraints: BASE.constraints })
    expect(replay).toMatchObject({ reproduces: false, expected })
    expect(report.valid).toBe(true)
    expect(report.warnings[0]).toMatchObject({ rule: SmallRule.REPLAY_ID, pointer: '/replayId/value' })
    expect(report.warnings[0]!.message).toContain(expected)
    const good = validateWorkspace({ ...BASE, handoff: handoff.replace('a'.repeat(64), expected) }, { checkReplayId: true })
    expect(good.replay?.reproduces).toBe(true)
    expect(good.report.warnings).toEqual([])
  })

  test("a workspace's run.replay_id is the run's identity: the handoff must carry it", () => {
    const run = 'd'.repeat(64)
    const workspace = `small_version: "1.0.0"\nrun:\n  replay_id: ${run}\n`
    const handoff = BASE.handoff.replace('source: manual', 'source: auto')
    expect(validateWorkspace({ ...BASE, workspace, handoff }, { checkReplayId: true }).replay).toMatchObject({ expected: run, reproduces: false })
    expect(validateWorkspace({ ...BASE, workspace, handoff: handoff.replace('a'.repeat(64), run) }, { checkReplayId: true }).replay?.reproduces).toBe(true)
  })
})

describe('strict mode', () => {
  test('S4 layout: only canonical files under .small/, extensions under .small/ext/', () => {
    const ok = [{ name: 'intent.small.yml', directory: false }, { name: 'workspace.small.yml', directory: false }, { name: 'ext', directory: true }]
    expect(check(BASE, { strict: true, layout: ok }).valid).toBe(true)
    const bad = [...ok, { name: 'notes.md', directory: false }, { name: 'cache', directory: true }, { name: 'plan.small.yml', directory: true }]
    const r = check(BASE, { strict: true, layout: bad })
    expect(where(r.errors)).toEqual(['.small/cache/ [strict-layout]', '.small/notes.md [strict-layout]', '.small/plan.small.yml/ [strict-layout]'])
    expect(r.errors[1]!.message).toContain('.small/ext/')
    expect(check(BASE, { layout: bad }).valid).toBe(true) // not without --strict
  })

  test('S1: a completed or blocked plan task needs a progress entry with evidence', () => {
    const plan = BASE.plan.replace('title: Second\n', 'title: Second\n    status: blocked\n')
    const r = check({ ...BASE, plan }, { strict: true })
    expect(where(r.errors)).toEqual(['.small/plan.small.yml/tasks/1/status [strict-task-evidence]'])
    expect(r.errors[0]!.message).toContain('task "t2" is blocked')
    expect(check({ ...BASE, plan }).valid).toBe(true)
  })

  test('S2: progress of the current run names plan tasks; meta/ entries and other runs are exempt', () => {
    const progress = `${BASE.progress}${entry({ task_id: 'ghost', timestamp: '2025-01-02T00:00:00.1Z', evidence: 'x' })}${entry({ task_id: 'meta/init', timestamp: '2025-01-02T00:00:00.2Z', evidence: 'x' })}${entry({ task_id: 'old-plan-task', timestamp: '2025-01-02T00:00:00.3Z', evidence: 'x', replayId: 'b'.repeat(64) })}`
    const r = check({ ...BASE, progress }, { strict: true })
    expect(where(r.errors)).toEqual(['.small/progress.small.yml/entries/1/task_id [strict-progress-task]'])
    expect(check({ ...BASE, progress }).valid).toBe(true)
  })

  test("S3: the handoff's current task is in the plan", () => {
    const handoff = BASE.handoff.replace('current_task_id: t2', 'current_task_id: t3')
    const r = check({ ...BASE, handoff }, { strict: true })
    expect(where(r.errors)).toEqual(['.small/handoff.small.yml/resume/current_task_id [strict-handoff-task]'])
    expect(check({ ...BASE, handoff }).valid).toBe(true)
  })
})

describe('malformed and missing documents are findings, not crashes', () => {
  test('bad YAML names the file, the line and the rule', () => {
    const r = check({ ...BASE, plan: 'small_version: "1.0.0"\nowner: agent\ntasks:\n  - id: [unclosed\n' })
    expect(r.valid).toBe(false)
    expect(r.errors[0]).toMatchObject({ file: '.small/plan.small.yml', rule: SmallRule.YAML })
    expect(r.errors[0]!.line).toBeGreaterThan(0)
  })

  test('a duplicate key, bytes that are not UTF-8, a missing document', () => {
    expect(check({ ...BASE, intent: `${BASE.intent}intent: again\n` }).errors[0]).toMatchObject({ rule: SmallRule.YAML, file: '.small/intent.small.yml' })
    expect(check({ ...BASE, intent: Uint8Array.of(0xff, 0xfe, 0x00) }).errors[0]).toMatchObject({ rule: SmallRule.YAML, message: 'is not valid UTF-8 text' })
    const { handoff: _, ...rest } = BASE
    expect(where(check(rest).errors)).toEqual(['.small/handoff.small.yml [missing-document]'])
  })

  test('every finding names file, JSON pointer and rule, and says what to do', () => {
    const r = check({ ...BASE, handoff: BASE.handoff.replace('  source: manual\n', '  source: guessed\n').replace('links: []\n', '') })
    for (const f of r.errors) {
      expect(f.file).toBe('.small/handoff.small.yml')
      expect(f.pointer).toMatch(/^\//)
      expect(Object.values(SmallRule)).toContain(f.rule)
    }
    expect(r.errors.map((e) => `${e.pointer}: ${e.message}`)).toEqual(['/links: "links" is required but missing', '/replayId/source: must be one of "auto", "manual", got "guessed"'])
  })
})

describe('issue 13: large documents', () => {
  test('a progress file with 70k bad entries (140k findings from one check) gets them all, not "Maximum call stack size exceeded"', () => {
    const progress = `small_version: "1.0.0"\nowner: agent\nentries:\n${'  - {task_id: t1, status: completed}\n'.repeat(70_000)}`
    const r = check({ ...BASE, progress })
    const mine = r.errors.filter((f) => f.file === '.small/progress.small.yml')
    expect(mine.filter((f) => f.rule === SmallRule.EVIDENCE)).toHaveLength(70_000)
  }, 20_000)

  test('progress add after 70k entries without evidence judges the new entry (the old spread of 70k findings overflowed the stack)', () => {
    const entries = Array.from({ length: 70_000 }, () => ({ task_id: 't1', status: 'completed' }))
    const { entry } = prepareEntry({ task_id: 'meta/next', status: 'completed', evidence: 'ran it' }, { entries, now: Date.UTC(2026, 0, 1) })
    expect(entry).toMatchObject({ task_id: 'meta/next', evidence: 'ran it' })
  }, 20_000)

  test('80k keys in a document: checked in linear time, a duplicate among them found', () => {
    const keys = Array.from({ length: 80_000 }, (_, i) => `k${i}: ${i}\n`).join('')
    const r = check({ ...BASE, intent: `${BASE.intent}${keys}k0: again\n` })
    expect(r.errors[0]).toMatchObject({ rule: SmallRule.YAML, file: '.small/intent.small.yml', message: expect.stringMatching(/Map keys must be unique/), line: 80_008 })
  }, 20_000)
})
