import { describe, expect, test } from 'vitest'
import { isMemweaveError, openMemory, type OpenMemoryOptions, type RemoteMemory } from '../../src/index.js'
import { createIdentity } from '../../src/core/identity.js'

// SMP knowledge artifacts on real IndexedDB, through the browser runtime: every call crosses to
// the worker that owns the database (src/runtime/host.ts) and back.
const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
const open = (o: OpenMemoryOptions): Promise<RemoteMemory> => openMemory({ worker, ...o })

describe.each(['shared', 'dedicated'] as const)('mem.artifacts through openMemory (%s worker)', (mode) => {
  test('create, commit, read, log, list, search; earlier versions stay readable; errors keep code and field', async () => {
    const identity = await createIdentity()
    const mem = await open({ name: `artifacts-${mode}-${crypto.randomUUID()}`, mode, identity })
    const v1 = await mem.artifacts.create('llm-context', { title: 'LLM Context', body: '\n# LLM Context\n', tags: ['ai'], confidence: 0.6, message: 'Initial' })
    expect(v1).toMatchObject({ slug: 'llm-context', version: 1, conflicted: false })
    expect(v1.frontmatter.authors).toEqual([identity.did])
    const v2 = await mem.artifacts.commit('llm-context', { body: '\n# LLM Context\n\nWindows grow.\n', message: 'A finding', confidence: 0.7, expectedVersion: 1 })
    expect(v2.version).toBe(2)
    expect((await mem.artifacts.read('llm-context')).body).toBe('\n# LLM Context\n\nWindows grow.\n')
    expect((await mem.artifacts.read('llm-context', { version: 1 })).text).toBe(v1.text)
    expect((await mem.artifacts.log('llm-context')).map((e) => [e.action, e.agent])).toEqual([['created', identity.did], ['updated', identity.did]])
    expect((await mem.artifacts.list({ tag: 'AI' })).map((a) => a.slug)).toEqual(['llm-context'])
    expect((await mem.artifacts.search('windows'))[0]).toMatchObject({ slug: 'llm-context', matchedIn: ['body'] })
    let caught: unknown
    try {
      await mem.artifacts.commit('llm-context', { message: 'stale', expectedVersion: 1 })
    } catch (err) {
      caught = err
    }
    expect(isMemweaveError(caught)).toBe(true)
    expect(caught).toMatchObject({ code: 'CONFLICT', details: { field: 'expectedVersion' } })
    await expect(mem.artifacts.create('../escape')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'slug' } })
    await expect(mem.artifacts.read('missing')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await mem.artifacts.history('llm-context')).toHaveLength(2)
    await mem.close()
  })

  test('additive merge: separator, unions, minimum confidence, source untouched; it survives a reopen', async () => {
    const name = `artifacts-merge-${mode}-${crypto.randomUUID()}`
    const mem = await open({ name, mode })
    await mem.artifacts.create('target', { body: '\nTarget.\n', tags: ['a'], confidence: 0.9 })
    const source = await mem.artifacts.create('source', { body: '\nSource.\n', tags: ['a', 'b'], confidence: 0.5 })
    const merged = await mem.artifacts.merge('target', 'source', { message: 'fold' })
    expect(merged.version).toBe(2)
    expect(merged.body).toMatch(/^\nTarget\.\n\n---\n\*Merged from artifact:source \(version 1\) on \S+\*\n\nSource\.\n$/)
    expect(merged.frontmatter).toMatchObject({ tags: ['a', 'b'], confidence: 0.5, authors: ['anonymous'] })
    expect(merged.frontmatter.provenance.at(-1)).toMatchObject({ action: 'merged', message: 'fold', confidence: 0.5 })
    expect((await mem.artifacts.read('source')).text).toBe(source.text)
    await mem.close()
    const again = await open({ name, mode })
    expect((await again.artifacts.read('target')).text).toBe(merged.text)
    await again.close()
  })

  test('two tabs commit on one version: a fork, flagged in both; a merge resolves it', async () => {
    const name = `artifacts-fork-${mode}-${crypto.randomUUID()}`
    const tabA = await open({ name, mode })
    const tabB = await open({ name, mode })
    await tabA.artifacts.create('plan', { body: 'base\n' })
    // Both tabs read version 1 and edit it.
    const seenA = await tabA.artifacts.read('plan')
    const seenB = await tabB.artifacts.read('plan')
    expect(seenB.versionId).toBe(seenA.versionId)
    const a2 = await tabA.artifacts.commit('plan', { body: 'base\nfrom A\n', message: 'A', basedOn: seenA.versionId })
    const b2 = await tabB.artifacts.commit('plan', { body: 'base\nfrom B\n', message: 'B', basedOn: seenB.versionId })
    for (const tab of [tabA, tabB]) {
      const now = await tab.artifacts.read('plan')
      expect(now.conflicted).toBe(true)
      expect([...now.heads].sort()).toEqual([a2.versionId, b2.versionId].sort())
    }
    await expect(tabB.artifacts.commit('plan', { message: 'pick one?' })).rejects.toMatchObject({ code: 'CONFLICT' })
    const resolved = await tabB.artifacts.merge('plan', 'plan', { message: 'Resolve' })
    expect(resolved).toMatchObject({ version: 3, conflicted: false })
    expect([...resolved.parents].sort()).toEqual([a2.versionId, b2.versionId].sort())
    expect(resolved.body).toContain('from A')
    expect(resolved.body).toContain('from B')
    const fromA = await tabA.artifacts.read('plan')
    expect(fromA).toMatchObject({ versionId: resolved.versionId, conflicted: false })
    expect((await tabA.artifacts.history('plan')).map((h) => h.version)).toEqual([1, 2, 2, 3])
    await tabA.close()
    await tabB.close()
  })
})
