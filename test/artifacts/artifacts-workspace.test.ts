import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { SmpArtifactStore } from '../../src/artifacts/store.js'
import { ArtifactWorkspace } from '../../src/node/artifact-workspace.js'
import { exportWorkspace, importWorkspace } from '../../src/node/artifact-workspace-sync.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { fixtures, scriptedClock } from './artifacts-helpers.js'

let root: string
let ws: string
let outside: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'memweave-artifacts-'))
  ws = join(root, 'workspace')
  outside = join(root, 'outside')
  await mkdir(ws)
  await mkdir(outside)
  await writeFile(join(outside, 'secret.md'), fixtures()[0]!.text.replace('artifact:mcp-coverage-findings', 'artifact:secret'))
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('a workspace on disk (SMP §3)', () => {
  test('create, commit after a hand edit, merge, log: files at artifacts/<slug>.md, created on demand', async () => {
    const clock = scriptedClock('2026-06-01T08:00:00Z')
    const w = new ArtifactWorkspace({ dir: ws, agent: 'did:key:z6MkWriter', now: clock.now })
    const a = await w.create('field-notes', { title: 'Field Notes', body: '\n# Field Notes\n\n', tags: ['notes'] })
    expect(a.path).toBe('artifacts/field-notes.md')
    const path = join(ws, 'artifacts', 'field-notes.md')
    expect(await readFile(path, 'utf8')).toBe(a.text)
    // SMP §4.2: the content is edited in place, then committed.
    await writeFile(path, a.text.replace('# Field Notes\n', '# Field Notes\n\nThe river rose two metres.\n'))
    clock.set('2026-06-02T08:00:00Z')
    const b = await w.commit('field-notes', { message: 'Observed the river', confidence: 0.7 })
    expect(b.version).toBe(2)
    expect(b.body).toBe('\n# Field Notes\n\nThe river rose two metres.\n\n')
    await w.create('gauges', { body: '\nGauge 4 is broken.\n', tags: ['hardware'] })
    const gauges = await readFile(join(ws, 'artifacts', 'gauges.md'), 'utf8')
    const m = await w.merge('field-notes', 'gauges')
    expect(m.body).toContain('*Merged from artifact:gauges (version 1) on 2026-06-02T08:00:00Z*\n\nGauge 4 is broken.\n')
    expect(m.frontmatter.tags).toEqual(['notes', 'hardware'])
    expect(await readFile(join(ws, 'artifacts', 'gauges.md'), 'utf8')).toBe(gauges)
    expect((await w.log('field-notes')).map((e) => e.action)).toEqual(['created', 'updated', 'merged'])
    await expect(w.create('gauges')).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(w.commit('field-notes', { message: 'x', expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'expectedVersion' } })
    expect((await readdir(join(ws, 'artifacts'))).sort()).toEqual(['field-notes.md', 'gauges.md'])
  })

  test('the agent comes from .awp/workspace.json, else anonymous', async () => {
    expect(await new ArtifactWorkspace({ dir: ws }).agent()).toBe('anonymous')
    await mkdir(join(ws, '.awp'))
    await writeFile(join(ws, '.awp', 'workspace.json'), JSON.stringify({ agent: { did: 'did:key:z6MkFromManifest' } }))
    const a = await new ArtifactWorkspace({ dir: ws }).create('who')
    expect(a.frontmatter.authors).toEqual(['did:key:z6MkFromManifest'])
  })

  test('a hand-broken file is refused by commit with its field named, and left as it is', async () => {
    const w = new ArtifactWorkspace({ dir: ws })
    const a = await w.create('fragile')
    const broken = a.text.replace('version: 1', 'version: 0')
    await writeFile(join(ws, 'artifacts', 'fragile.md'), broken)
    await expect(w.commit('fragile', { message: 'm' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'version' } })
    expect(await readFile(join(ws, 'artifacts', 'fragile.md'), 'utf8')).toBe(broken)
    const { artifacts, skipped } = await w.list()
    expect(artifacts).toEqual([])
    expect(skipped).toEqual([{ path: 'artifacts/fragile.md', problems: [{ field: 'version', message: 'must be >= 1' }] }])
  })
})

describe('issue 13: lone surrogates', () => {
  test('create and commit refuse a title, body, message or tag with a lone UTF-16 surrogate (UTF-8 would write U+FFFD silently)', async () => {
    const w = new ArtifactWorkspace({ dir: ws })
    await expect(w.create('a', { title: 'T\uD800' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'title' } })
    await expect(w.create('a', { body: 'x\uDC00' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'body' } })
    await expect(w.create('a', { tags: ['\uDBFF'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'tags[0]' } })
    expect(await readdir(ws)).toEqual([])
    await w.create('a', { title: 'T \uD83D\uDE00', body: '\uFFFD is fine' })
    const before = await readFile(join(ws, 'artifacts', 'a.md'))
    await expect(w.commit('a', { message: 'm\uD800' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'message' } })
    expect(await readFile(join(ws, 'artifacts', 'a.md'))).toEqual(before)
  })
})

describe('paths are confined to the workspace', () => {
  test.each(['../outside/secret', '../../etc/passwd', '/etc/passwd', 'artifact:../x', 'a/b', '.hidden', 'x.md', ''])('slug %j is refused', async (slug) => {
    const w = new ArtifactWorkspace({ dir: ws })
    await expect(w.create(slug)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'slug' } })
    await expect(w.read(slug)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'slug' } })
    expect(await readdir(ws)).toEqual([])
    expect(await readdir(outside)).toEqual(['secret.md'])
  })

  test('a file that is a symbolic link out of the workspace is refused, for reading and writing', async () => {
    const w = new ArtifactWorkspace({ dir: ws })
    await mkdir(join(ws, 'artifacts'))
    await symlink(join(outside, 'secret.md'), join(ws, 'artifacts', 'secret.md'))
    const before = await readFile(join(outside, 'secret.md'), 'utf8')
    await expect(w.read('secret')).rejects.toMatchObject({ code: 'PERMISSION_DENIED', details: { field: 'slug' } })
    await expect(w.commit('secret', { message: 'through the link' })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    await expect(w.create('secret')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    expect(await readFile(join(outside, 'secret.md'), 'utf8')).toBe(before)
    expect((await w.list()).skipped.map((s) => s.path)).toEqual(['artifacts/secret.md'])
  })

  test('an artifacts/ directory that is a symbolic link out of the workspace is refused', async () => {
    await symlink(outside, join(ws, 'artifacts'))
    const w = new ArtifactWorkspace({ dir: ws })
    await expect(w.create('planted')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    await expect(w.read('secret')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    await expect(w.list()).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    expect(await readdir(outside)).toEqual(['secret.md'])
  })

  test('a dangling link is refused; a link that stays inside artifacts/ is followed', async () => {
    const w = new ArtifactWorkspace({ dir: ws })
    const a = await w.create('real')
    await symlink(join(ws, 'nowhere.md'), join(ws, 'artifacts', 'dangling.md'))
    await expect(w.create('dangling')).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    await symlink(join(ws, 'artifacts', 'real.md'), join(ws, 'artifacts', 'alias.md'))
    await expect(w.read('alias')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'id' } }) // followed: its id says "real"
    expect((await w.read('real')).text).toBe(a.text)
  })
})

describe('import and export between a workspace and a store', () => {
  async function seed(): Promise<Map<string, string>> {
    await mkdir(join(ws, 'artifacts'))
    const texts = new Map<string, string>()
    for (const f of fixtures()) {
      await writeFile(join(ws, 'artifacts', `${f.slug}.md`), f.text)
      texts.set(f.slug, f.text)
    }
    return texts
  }

  test('files go into a durable store and come back byte for byte', async () => {
    const texts = await seed()
    const w = new ArtifactWorkspace({ dir: ws })
    const dir = join(root, 'store')
    let store = new SmpArtifactStore(fileStorage({ dir }))
    const imported = await importWorkspace(w, store)
    expect(imported.failed).toEqual([])
    expect(imported.imported.map((r) => r.status)).toEqual(Array(7).fill('created'))
    expect((await importWorkspace(w, store)).imported.map((r) => r.status)).toEqual(Array(7).fill('unchanged'))
    await store.close()
    await rm(join(ws, 'artifacts'), { recursive: true })
    store = new SmpArtifactStore(fileStorage({ dir }))
    const exported = await exportWorkspace(store, w)
    expect(exported.failed).toEqual([])
    expect(exported.exported.map((r) => r.status)).toEqual(Array(7).fill('created'))
    for (const [slug, text] of texts) expect(await readFile(join(ws, 'artifacts', `${slug}.md`), 'utf8')).toBe(text)
    expect((await exportWorkspace(store, w)).exported.map((r) => r.status)).toEqual(Array(7).fill('unchanged'))
    await store.close()
  })

  test('export replaces only files the store knows; a commit in the store reaches the file; local edits are kept unless forced', async () => {
    await seed()
    const w = new ArtifactWorkspace({ dir: ws })
    const store = new SmpArtifactStore(memoryStorage())
    await importWorkspace(w, store)
    const v2 = await store.commit('coding-standards', { message: 'from the store', confidence: 0.95 })
    const edited = `${await w.readText('project-retrospective')}\nA local edit.\n`
    await writeFile(join(ws, 'artifacts', 'project-retrospective.md'), edited)
    const report = await exportWorkspace(store, w)
    expect(report.exported.find((r) => r.slug === 'coding-standards')).toMatchObject({ status: 'updated', version: 3 })
    expect(await w.readText('coding-standards')).toBe(v2.text)
    expect(report.failed.map((f) => f.path)).toEqual(['artifacts/project-retrospective.md'])
    expect(await w.readText('project-retrospective')).toBe(edited)
    expect((await exportWorkspace(store, w, { force: true })).failed).toEqual([])
    expect(await w.readText('project-retrospective')).toBe(fixtures().find((f) => f.slug === 'project-retrospective')!.text)
    await store.close()
  })

  test('one invalid file: nothing is imported', async () => {
    await seed()
    await writeFile(join(ws, 'artifacts', 'broken.md'), '---\ntitle: no\n---\n')
    const store = new SmpArtifactStore(memoryStorage())
    const report = await importWorkspace(new ArtifactWorkspace({ dir: ws }), store)
    expect(report.imported).toEqual([])
    expect(report.failed.map((f) => f.path)).toEqual(['artifacts/broken.md'])
    expect(await store.list()).toEqual([])
    await store.close()
  })
})
