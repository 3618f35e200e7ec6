import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import { beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../../src/cli/main.js'
import { HARNESS_BEGIN, HARNESS_END } from '../../src/small/agents-md.js'
import { writeDocument } from '../../src/node/small-workspace-dir.js'
import { OLDER_EXAMPLES, V01_WORKSPACE, VALID_EXAMPLE, copyExample, scratchDir } from './small-helpers.js'
import { ensureBuilt, runCliProcess, captureCli } from '../helpers/processes.js'



async function small(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const c = captureCli()
  const code = await runCli(['small', ...args], c.io)
  return { code, ...c.out }
}

describe('memweave small validate / verify: exit 0 valid, 1 invalid, 2 system error', () => {
  test('the valid example: 0, with and without --strict; verify says its replayId reproduces', async () => {
    for (const cmd of ['validate', 'verify']) {
      for (const strict of [[], ['--strict']]) {
        const r = await small(cmd, '--dir', VALID_EXAMPLE, ...strict)
        expect(r.code, r.stdout + r.stderr).toBe(0)
        expect(r.stdout).toMatch(/^valid: .*spec-v1\.0\.0 \(SMALL v1\.0\.0(, strict)?\): 0 errors, 0 warnings$/m)
      }
    }
    expect((await small('verify', '--dir', VALID_EXAMPLE)).stdout).toContain('replayId 46311ca6450b7e168171e919f8a39de8f980ca0c98870f0e35f2bcc608fe32a0 (auto) reproduces')
  })

  test.each(OLDER_EXAMPLES)('%s: 1, one error naming file, pointer and rule', async (dir) => {
    const r = await small('validate', '--dir', dir)
    expect(r.code).toBe(1)
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('error '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^error \.small\/handoff\.small\.yml:5:\d+ \/resume\/current_task_id \[schema\] must be a non-empty string or null, got an empty string/)
  })

  test('the v0.1 workspace: 1, every document named', async () => {
    const r = await small('validate', '--dir', V01_WORKSPACE, '--json')
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout) as { valid: boolean; errors: Array<{ file: string }> }
    expect(report.valid).toBe(false)
    expect(new Set(report.errors.map((e) => e.file))).toEqual(new Set(['intent', 'constraints', 'plan', 'progress', 'handoff'].map((n) => `.small/${n}.small.yml`)))
  })

  test('malformed YAML is invalid (1), not a crash; no .small/ is invalid (1)', async () => {
    const dir = await copyExample(VALID_EXAMPLE)
    await writeFile(join(dir, '.small', 'plan.small.yml'), 'small_version: "1.0.0"\ntasks: [\n')
    const r = await small('validate', '--dir', dir)
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^error \.small\/plan\.small\.yml:\d+:\d+ \(document\) \[yaml\] is not valid YAML/m)
    const empty = await scratchDir()
    const none = await small('verify', '--dir', empty)
    expect(none.code).toBe(1)
    expect(none.stdout).toContain('memweave small init')
  })

  test('a directory that does not exist or is a file: 2', async () => {
    const missing = await small('validate', '--dir', join(await scratchDir(), 'nope'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/cannot read the workspace directory .*nope \(ENOENT\)/)
    const file = join(await scratchDir(), 'a-file')
    await writeFile(file, 'x')
    expect((await small('verify', '--dir', file)).code).toBe(2)
  })

  test('usage errors: 2', async () => {
    expect((await small('validate', '--bogus')).code).toBe(2)
    expect((await small()).code).toBe(2)
    expect((await small('frobnicate')).code).toBe(2)
  })

  test('--strict adds the layout boundary: a stray file fails, .small/ext/ does not', async () => {
    const dir = await copyExample(VALID_EXAMPLE)
    await mkdir(join(dir, '.small', 'ext'))
    await writeFile(join(dir, '.small', 'ext', 'tool.json'), '{}')
    expect((await small('validate', '--dir', dir, '--strict')).code).toBe(0)
    await writeFile(join(dir, '.small', 'notes.md'), 'scratch')
    const r = await small('validate', '--dir', dir, '--strict')
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^error \.small\/notes\.md \(document\) \[strict-layout\] unexpected file under \.small\//m)
    expect((await small('validate', '--dir', dir)).code).toBe(0)
  })
})

describe('memweave small: writing a workspace', () => {
  test('init creates a workspace that passes verify --strict, and leaves existing files alone', async () => {
    const dir = join(await scratchDir(), 'project')
    const r = await small('init', '--dir', dir, '--intent', 'Ship the SMALL module')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(6)
    const v = await small('verify', '--dir', dir, '--strict')
    expect(v.code, v.stdout).toBe(0)
    expect(v.stdout).toContain('reproduces')
    const intent = await readFile(join(dir, '.small', 'intent.small.yml'), 'utf8')
    expect(parse(intent).intent).toBe('Ship the SMALL module')
    expect((await small('init', '--dir', dir)).stdout).toContain('nothing to do')
    const ws = parse(await readFile(join(dir, '.small', 'workspace.small.yml'), 'utf8'))
    const handoff = parse(await readFile(join(dir, '.small', 'handoff.small.yml'), 'utf8'))
    expect(handoff.replayId).toEqual({ value: ws.run.replay_id, source: 'auto' })
  })

  test('progress add appends with evidence and a later timestamp; notes alone are refused (1)', async () => {
    const dir = await copyExample(VALID_EXAMPLE)
    const before = await readFile(join(dir, '.small', 'progress.small.yml'), 'utf8')
    const refused = await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--notes', 'I think it works')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/error \.small\/progress\.small\.yml \/entries\/1 \[progress-evidence\] .*notes alone are not evidence/)
    expect(await readFile(join(dir, '.small', 'progress.small.yml'), 'utf8')).toBe(before)
    const ok = await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--status', 'in_progress', '--command', 'npm test')
    expect(ok.code, ok.stderr).toBe(0)
    const after = await readFile(join(dir, '.small', 'progress.small.yml'), 'utf8')
    expect(after.startsWith(before)).toBe(true) // the earlier entry is untouched, byte for byte
    const entries = parse(after).entries
    expect(entries[1]).toMatchObject({ task_id: 'task-2', status: 'in_progress', command: 'npm test', replayId: '46311ca6450b7e168171e919f8a39de8f980ca0c98870f0e35f2bcc608fe32a0' })
    expect(entries[1].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/)
    expect((await small('progress', 'list', '--dir', dir)).stdout).toContain('task-2  in_progress  npm test')
    expect((await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--evidence', 'x', '--timestamp', '2020-01-01T00:00:00.1Z')).code).toBe(1)
  })

  test('verify catches an earlier progress entry edited behind its back (against the ledger), and progress add refuses to build on it', async () => {
    const dir = await copyExample(VALID_EXAMPLE)
    expect((await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--evidence', 'started')).code).toBe(0)
    expect((await small('verify', '--dir', dir)).code).toBe(0)
    const path = join(dir, '.small', 'progress.small.yml')
    await writeFile(path, (await readFile(path, 'utf8')).replace('Created .small directory with all canonical files', 'Did everything, trust me'))
    expect((await small('validate', '--dir', dir)).code).toBe(0) // each document is still valid on its own
    const v = await small('verify', '--dir', dir)
    expect(v.code).toBe(1)
    expect(v.stdout).toMatch(/^error \.small\/progress\.small\.yml:4:\d+ \/entries\/0 \[progress-append-only\] entry 0 differs/m)
    const add = await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--evidence', 'more')
    expect(add.code).toBe(1)
    expect(add.stderr).toContain('[progress-append-only]')
    // A removed entry too.
    await writeFile(path, 'small_version: "1.0.0"\nowner: agent\nentries: []\n')
    expect((await small('verify', '--dir', dir)).stdout).toMatch(/\[progress-append-only\] 2 recorded progress entries were removed/)
  })

  test('issue 13: symbolic links out of the workspace are refused, their content never shown, nothing written through a linked .small', async () => {
    const outside = await scratchDir()
    const secret = 'SECRET-LINE: root:x:0:0\n'
    await writeFile(join(outside, 'secret.txt'), secret)
    // A document linked to a file elsewhere: validate, verify and progress add refuse it without reading it.
    const dir = await copyExample(VALID_EXAMPLE)
    await rm(join(dir, '.small', 'intent.small.yml'))
    await symlink(join(outside, 'secret.txt'), join(dir, '.small', 'intent.small.yml'))
    for (const args of [['validate'], ['verify'], ['handoff']]) {
      const r = await small(...args, '--dir', dir)
      expect(r.code, args.join(' ')).toBe(1)
      expect(r.stderr).toMatch(/\.small\/intent\.small\.yml is, or goes through, a symbolic link that leads outside the workspace; refused/)
      expect(r.stdout + r.stderr).not.toMatch(/SECRET|root:x/)
    }
    await rm(join(dir, '.small', 'progress.small.yml'))
    await symlink(join(outside, 'secret.txt'), join(dir, '.small', 'progress.small.yml'))
    const added = await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--evidence', 'x')
    expect(added.code).toBe(1)
    expect(added.stderr).toMatch(/\.small\/progress\.small\.yml is, or goes through, a symbolic link that leads outside/)
    expect(added.stdout + added.stderr).not.toMatch(/SECRET|root:x/)
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(secret)
    // A linked .small/ (to a copy outside): refused, and the files it points to are not written.
    const linked = await copyExample(VALID_EXAMPLE)
    const elsewhere = join(outside, 'small-copy')
    await rename(join(linked, '.small'), elsewhere)
    await symlink(elsewhere, join(linked, '.small'))
    const progressBefore = await readFile(join(elsewhere, 'progress.small.yml'), 'utf8')
    const add = await small('progress', 'add', '--dir', linked, '--task', 'task-2', '--evidence', 'x')
    expect(add.code).toBe(1)
    expect(add.stderr).toMatch(/\.small\/progress\.small\.yml is, or goes through, a symbolic link that leads outside the workspace; refused/)
    expect(await readFile(join(elsewhere, 'progress.small.yml'), 'utf8')).toBe(progressBefore)
    // A linked .small/ inside the workspace may be read, but is not written through either.
    const inside = await copyExample(VALID_EXAMPLE)
    await rename(join(inside, '.small'), join(inside, 'state'))
    await symlink(join(inside, 'state'), join(inside, '.small'))
    expect((await small('validate', '--dir', inside)).code).toBe(0)
    const write = await small('progress', 'add', '--dir', inside, '--task', 'task-2', '--evidence', 'x')
    expect(write.code).toBe(1)
    expect(write.stderr).toMatch(/\.small is a symbolic link; memweave writes only into a real directory/)
    await rm(outside, { recursive: true, force: true })
  })

  test('handoff regenerates from plan and progress; plan add/set/show', async () => {
    const dir = await copyExample(VALID_EXAMPLE)
    const h = await small('handoff', '--dir', dir)
    expect(h.code, h.stderr).toBe(0)
    expect(h.stdout).toContain('current task task-2, replayId 46311ca6450b7e168171e919f8a39de8f980ca0c98870f0e35f2bcc608fe32a0 (auto)')
    expect((await small('plan', 'add', '--dir', dir, '--id', 'task-3', '--title', 'Write docs')).code).toBe(0)
    expect((await small('plan', 'set', '--dir', dir, '--id', 'task-2', '--status', 'completed')).code).toBe(0)
    expect((await small('validate', '--dir', dir, '--strict')).code).toBe(1) // task-2 completed without evidence (S1)
    expect((await small('progress', 'add', '--dir', dir, '--task', 'task-2', '--status', 'completed', '--test', 'unit suite')).code).toBe(0)
    expect((await small('plan', '--dir', dir)).stdout).toBe('task-1  completed  Set up project structure\ntask-2  completed  Implement core functionality\ntask-3  pending  Write docs\n')
    const again = await small('handoff', '--dir', dir, '--summary', 'Docs next')
    expect(again.stdout).toContain('current task task-3')
    const handoff = parse(await readFile(join(dir, '.small', 'handoff.small.yml'), 'utf8'))
    expect(handoff.summary).toBe('Docs next')
    const v = await small('verify', '--dir', dir, '--strict')
    expect(v.code, v.stdout).toBe(0)
    expect((await small('handoff', '--dir', dir, '--replay-id', 'xyz')).code).toBe(1)
  })

  test('agents-md: append, then replace in place; two blocks are refused (1)', async () => {
    const dir = await scratchDir()
    const file = join(dir, 'AGENTS.md')
    await writeFile(file, '# My rules\n\nBe kind.\n')
    expect((await small('agents-md', '--dir', dir, '--check')).code).toBe(1)
    expect((await small('agents-md', '--dir', dir)).code).toBe(0)
    const once = await readFile(file, 'utf8')
    expect(once.startsWith('# My rules\n\nBe kind.\n\n' + HARNESS_BEGIN)).toBe(true)
    expect((await small('agents-md', '--dir', dir, '--mode', 'prepend')).stdout).toContain('unchanged')
    expect((await small('agents-md', '--dir', dir, '--check')).code).toBe(0)
    await writeFile(file, `${once}\n${HARNESS_BEGIN}\nagain\n${HARNESS_END}\n`)
    const two = await small('agents-md', '--dir', dir)
    expect(two.code).toBe(1)
    expect(two.stderr).toContain('2 SMALL harness blocks')
    expect((await small('agents-md', '--dir', dir, '--mode', 'sideways')).code).toBe(2)
  })

  test('help for every subcommand', async () => {
    for (const sub of ['init', 'validate', 'verify', 'handoff', 'progress', 'plan', 'agents-md']) {
      const r = await small(sub, '--help')
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(new RegExp(`^Usage: memweave small ${sub}`))
    }
    expect((await small('--help')).stdout).toContain('agents-md')
    const top = captureCli()
    await runCli(['--help'], top.io)
    expect(top.out.stdout).toMatch(/\n {2}small +SMALL project state/)
  })
})

describe('memweave/node writeDocument: ownership and formatting on disk', () => {
  test('an agent writing intent or constraints gets PERMISSION_DENIED; a human may; unchanged data leaves the bytes alone', async () => {
    const dir = await copyExample(VALID_EXAMPLE)
    const path = join(dir, '.small', 'intent.small.yml')
    const before = await readFile(path, 'utf8')
    const data = parse(before)
    for (const name of ['intent', 'constraints'] as const) {
      const err = await writeDocument(dir, name, data).catch((e: unknown) => e)
      expect(err).toMatchObject({ code: 'PERMISSION_DENIED', details: { file: `.small/${name}.small.yml`, rule: 'ownership' } })
    }
    expect(await writeDocument(dir, 'intent', data, { role: 'human' })).toMatchObject({ changed: false })
    expect(await readFile(path, 'utf8')).toBe(before)
    await writeFile(path, `# Owned by the team lead\n${before}`)
    await writeDocument(dir, 'intent', { ...data, success_criteria: [...data.success_criteria, 'Docs are written'] }, { role: 'human' })
    const after = await readFile(path, 'utf8')
    expect(after.startsWith(`# Owned by the team lead\n${before.trimEnd()}`)).toBe(true)
    expect(after.endsWith('  - "Docs are written"\n')).toBe(true)
  })
})

describe('bin/memweave.js small (the built command, a real process)', () => {
  beforeAll(() => ensureBuilt(['dist/src/cli/small.js']), 120_000)

  const run = (...args: string[]) => runCliProcess(['small', ...args])

  test('exit codes 0, 1 and 2 reach the shell', async () => {
    expect((await run('validate', '--dir', VALID_EXAMPLE)).code).toBe(0)
    expect((await run('verify', '--dir', OLDER_EXAMPLES[1]!)).code).toBe(1)
    const gone = join(await scratchDir(), 'gone')
    expect((await run('validate', '--dir', gone)).code).toBe(2)
    await rm(gone, { force: true })
  })
})
