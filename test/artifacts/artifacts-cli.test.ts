import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { runCli } from '../../src/cli/main.js'
import { fixtures, FIXTURES_DIR } from './artifacts-helpers.js'

let root: string
let ws: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'memweave-artifact-cli-'))
  ws = join(root, 'ws')
  await mkdir(ws)
})

afterEach(async () => {
  await chmod(join(root, 'locked'), 0o700).catch(() => undefined)
  await rm(root, { recursive: true, force: true })
})

/** Runs `memweave artifact ...` in process, in the workspace unless `--dir` is given. */
async function artifact(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; json: () => any }> {
  const out = { stdout: '', stderr: '' }
  const withDir = args.includes('--dir') || args[0] === 'validate' ? args : [...args, '--dir', ws]
  const code = await runCli(['artifact', ...withDir], {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    env,
    shutdown: () => new AbortController().signal,
  })
  return { code, ...out, json: () => JSON.parse(out.stdout) }
}

const file = (slug: string): string => join(ws, 'artifacts', `${slug}.md`)

describe('memweave artifact (SMP §5.2)', () => {
  test('create, commit, log, list, search, read, merge: exit 0, human and --json output', async () => {
    const created = await artifact(['create', 'llm-context', '--title', 'LLM Context', '--tags', 'ai, research', '--confidence', '0.6', '-m', 'Initial review'], { MEMWEAVE_AGENT: 'did:key:z6MkCli' })
    expect(created).toMatchObject({ code: 0, stdout: 'Created artifacts/llm-context.md (version 1)\n', stderr: '' })
    const v1 = await readFile(file('llm-context'), 'utf8')
    expect(v1).toContain("authors:\n  - 'did:key:z6MkCli'\n")
    expect(v1.endsWith('---\n\n# LLM Context\n\n')).toBe(true)
    await writeFile(file('llm-context'), `${v1}Context windows keep growing.\n`)
    const committed = await artifact(['commit', 'llm-context', '--message', 'Added a finding', '--confidence', '0.75', '--json'])
    expect(committed.code).toBe(0)
    expect(committed.json()).toMatchObject({ slug: 'llm-context', version: 2, body: '\n# LLM Context\n\nContext windows keep growing.\n' })
    const log = await artifact(['log', 'llm-context'])
    expect(log.code).toBe(0)
    expect(log.stdout.split('\n').slice(0, 4)).toEqual([
      'LLM Context (version 2, confidence 0.75)',
      '',
      expect.stringMatching(/^ {2}#2 {2}\S+ {2}anonymous {2}updated {2}"Added a finding" {2}\(0\.75\)$/),
      expect.stringMatching(/^ {2}#1 {2}\S+ {2}did:key:z6MkCli {2}created {2}"Initial review" {2}\(0\.6\)$/),
    ])
    expect((await artifact(['log', 'llm-context', '--json'])).json().provenance).toHaveLength(2)
    await artifact(['create', 'gardening', '--body', 'Tomatoes like sun.', '--tags', 'home'])
    const list = await artifact(['list'])
    expect(list.stdout).toMatch(/^SLUG +TITLE +V +CONF +TAGS\ngardening +Gardening +1 +- +home\nllm-context +LLM Context +2 +0\.75 +ai, research\n$/)
    expect((await artifact(['list', '--tag', 'HOME', '--json'])).json().artifacts.map((a: { slug: string }) => a.slug)).toEqual(['gardening'])
    const search = await artifact(['search', 'context', '--json'])
    expect(search.json().results.map((r: { slug: string }) => r.slug)).toEqual(['llm-context'])
    expect((await artifact(['search', 'zucchini'])).stdout).toBe('No artifacts matching "zucchini".\n')
    const read = await artifact(['read', 'artifact:gardening'])
    expect(read.stdout).toBe(await readFile(file('gardening'), 'utf8'))
    expect(read.stdout.endsWith('---\n\nTomatoes like sun.\n')).toBe(true)
    const source = await readFile(file('gardening'), 'utf8')
    const merged = await artifact(['merge', 'llm-context', 'gardening', '-m', 'odd but allowed'])
    expect(merged).toMatchObject({ code: 0, stdout: 'Merged artifact:gardening into artifacts/llm-context.md (now version 3)\n' })
    expect(await readFile(file('llm-context'), 'utf8')).toMatch(/\n---\n\*Merged from artifact:gardening \(version 1\) on \S+\*\n\nTomatoes like sun\.\n$/)
    expect(await readFile(file('gardening'), 'utf8')).toBe(source)
  })

  test('failures exit 1 with the field named; --json errors are JSON', async () => {
    await artifact(['create', 'doc'])
    expect(await artifact(['read', 'missing'])).toMatchObject({ code: 1, stderr: 'memweave: artifact:missing does not exist (no artifacts/missing.md)\n' })
    const missing = await artifact(['read', 'missing', '--json'])
    expect(missing.code).toBe(1)
    expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), field: 'slug', slug: 'missing' } })
    expect((await artifact(['create', 'doc', '--json'])).json().error).toMatchObject({ code: 'CONFLICT', field: 'slug' })
    expect((await artifact(['create', 'x', '--confidence', '1.5', '--json'])).json().error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'confidence' })
    expect((await artifact(['commit', 'doc', '-m', 'm', '--expected-version', '7', '--json'])).json().error).toMatchObject({ code: 'CONFLICT', field: 'expectedVersion' })
    expect((await artifact(['read', 'doc', '--version', '2'])).code).toBe(1)
    expect((await artifact(['merge', 'doc', 'nope', '--json'])).json().error).toMatchObject({ code: 'NOT_FOUND', field: 'source' })
  })

  test.each([
    [['create'], /needs <slug>/],
    [['create', 'a', 'b'], /unexpected argument "b"/],
    [['commit', 'doc'], /--message is required/],
    [['create', 'x', '--confidence', 'high'], /--confidence must be a number/],
    [['commit', 'x', '-m', 'm', '--expected-version', 'v2'], /--expected-version must be a whole number/],
    [['create', 'x', '--body', 'a', '--body-file', 'b'], /--body or --body-file/],
    [['list', '--bogus'], /--bogus: unknown option/],
    [['frobnicate'], /unknown command "artifact frobnicate"/],
  ])('usage error %j: exit 2 with the usage', async (args, message) => {
    const r = await artifact(args as string[])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).toMatch(/Usage: memweave artifact/)
  })

  test('--help exits 0', async () => {
    expect(await artifact(['--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/create .*\n[\s\S]*validate/) })
    expect(await artifact(['merge', '--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: memweave artifact merge <target> <source>/) })
  })

  test('paths that escape the workspace are refused: ../, absolute, a symbolic link out', async () => {
    await mkdir(join(root, 'outside'))
    await writeFile(join(root, 'outside', 'x.md'), 'not yours')
    for (const slug of ['../outside/x', '/etc/passwd', 'artifact:../../x']) {
      const r = await artifact(['create', slug, '--json'])
      expect(r.code).toBe(1)
      expect(r.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'slug' })
    }
    await mkdir(join(ws, 'artifacts'))
    await symlink(join(root, 'outside', 'x.md'), file('x'))
    const r = await artifact(['commit', 'x', '-m', 'through a link', '--json'])
    expect(r.json().error).toMatchObject({ code: 'PERMISSION_DENIED', field: 'slug' })
    expect(await readFile(join(root, 'outside', 'x.md'), 'utf8')).toBe('not yours')
  })
})

describe('memweave artifact validate', () => {
  test('issue 13: bytes that are not UTF-8 are refused by commit, read and validate, and the file is left as it was', async () => {
    await artifact(['create', 'notes', '--body', 'Fine.'])
    const good = await readFile(file('notes'))
    // A latin-1 "é" (0xE9) inside the body: readFile(path, 'utf8') turned it into U+FFFD silently.
    const damaged = Buffer.concat([good, Buffer.from('caf'), Buffer.of(0xe9), Buffer.from('\n')])
    await writeFile(file('notes'), damaged)
    const committed = await artifact(['commit', 'notes', '--message', 'edit', '--json'])
    expect(committed.code).toBe(1)
    expect(committed.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'artifacts/notes.md', message: expect.stringMatching(new RegExp(`is not valid UTF-8 \\(the first bad byte is at offset ${good.length + 3}\\)`)) })
    expect(await readFile(file('notes'))).toEqual(damaged)
    expect((await artifact(['read', 'notes'])).code).toBe(1)
    const validated = await artifact(['validate', join(ws, 'artifacts'), '--json'])
    expect(validated.code).toBe(1)
    expect(validated.json().files[0]).toMatchObject({ valid: false, problems: [{ field: 'text', message: expect.stringMatching(/^is not valid UTF-8/) }] })
    // --body-file is held to the same rule.
    await writeFile(join(root, 'body.md'), Buffer.of(0x61, 0xff, 0x62))
    await writeFile(file('notes'), good)
    const fromFile = await artifact(['commit', 'notes', '--message', 'edit', '--body-file', join(root, 'body.md')])
    expect(fromFile.code).toBe(1)
    expect(fromFile.stderr).toMatch(/--body-file: is not valid UTF-8/)
    expect(await readFile(file('notes'))).toEqual(good)
  })

  test('the seven shared fixtures: exit 0', async () => {
    const r = await artifact(['validate', join(FIXTURES_DIR, 'repo-artifacts'), join(FIXTURES_DIR, 'templates-clawd')])
    expect(r).toMatchObject({ code: 0, stdout: '7 file(s) checked, 0 invalid\n', stderr: '' })
    const all = await artifact(['validate', FIXTURES_DIR, '--json'])
    expect(all.code).toBe(0)
    expect(all.json()).toMatchObject({ valid: true, errors: [] })
    expect(all.json().files).toHaveLength(7)
  })

  test('an invalid file: exit 1, each problem as "file: field: message"', async () => {
    await mkdir(join(ws, 'artifacts'))
    const good = fixtures()[0]!
    await writeFile(file(good.slug), good.text)
    await writeFile(file('bad'), good.text.replace('version: 2', 'version: 0').replace('action: created', 'action: updated'))
    await writeFile(file('Bad_Name'), good.text)
    const r = await artifact(['validate', ws])
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')).toEqual([
      `${file('Bad_Name')}: id: the file name "Bad_Name.md" is not <slug>.md with a valid slug (SMP §3.2)`,
      `${file('bad')}: version: must be >= 1`,
      `${file('bad')}: provenance[0].action: the first provenance entry must be "created" (SMP §6), got "updated"`,
      `${file('bad')}: id: must be "artifact:bad" to match its file name (SMP §3.2), got "artifact:mcp-coverage-findings"`,
      '3 file(s) checked, 2 invalid',
      '',
    ])
    const json = (await artifact(['validate', '--dir', ws, '--json'])).json()
    expect(json.valid).toBe(false)
    expect(json.files.find((f: { file: string }) => f.file === file('bad')).problems.map((p: { field: string }) => p.field)).toEqual(['version', 'provenance[0].action', 'id'])
  })

  test('a path that cannot be read: exit 2 (a system error)', async () => {
    const r = await artifact(['validate', join(root, 'does-not-exist')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/cannot read .*does-not-exist: ENOENT/)
    await mkdir(join(root, 'locked'))
    await writeFile(join(root, 'locked', 'a.md'), 'x')
    await chmod(join(root, 'locked'), 0o000)
    if (process.getuid?.() !== 0) expect((await artifact(['validate', join(root, 'locked')])).code).toBe(2)
  })
})

describe('memweave artifact import / export', () => {
  test('into the default store (.memweave) and back, byte for byte; exit 1 when a file conflicts', async () => {
    await mkdir(join(ws, 'artifacts'))
    for (const f of fixtures()) await writeFile(file(f.slug), f.text)
    const imported = await artifact(['import', '--json'])
    expect(imported.code).toBe(0)
    expect(imported.json().imported).toHaveLength(7)
    await rm(join(ws, 'artifacts'), { recursive: true })
    const exported = await artifact(['export'])
    expect(exported.code).toBe(0)
    expect(exported.stdout).toMatch(/7 exported, 0 failed\n$/)
    for (const f of fixtures()) expect(await readFile(file(f.slug), 'utf8')).toBe(f.text)
    // An older copy of a file conflicts with the store: reported, exit 1.
    const f0 = fixtures()[0]!
    await writeFile(file(f0.slug), f0.text.replace('version: 2', 'version: 1'))
    const again = await artifact(['import'])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(new RegExp(`artifacts/${f0.slug}\\.md: version: must be greater than`))
  })

  test('an explicit --store, and an invalid workspace imports nothing', async () => {
    await mkdir(join(ws, 'artifacts'))
    await writeFile(file('broken'), '---\ntitle: x\n---\n')
    const r = await artifact(['import', '--store', join(root, 'store'), '--json'])
    expect(r.code).toBe(1)
    expect(r.json()).toMatchObject({ imported: [], failed: [{ path: 'artifacts/broken.md' }] })
  })
})
