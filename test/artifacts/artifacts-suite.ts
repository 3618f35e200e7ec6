import { parseDocument } from 'yaml'
import { describe, expect, test } from 'vitest'
import { SmpArtifactStore, type ArtifactStoreOptions } from '../../src/artifacts/store.js'
import { RecordLog } from '../../src/records/log.js'
import type { StoragePort } from '../../src/storage/port.js'
import { agent, fixture, FIXTURE_DID, findingsV1, scriptedClock, specWorkedExample } from './artifacts-helpers.js'

/**
 * The artifact store's behaviour, run on every storage adapter. `storage()` returns a handle on
 * the one database of the test (a new handle per call, like another tab), so two stores made
 * from it see each other only through storage.
 */
export interface ArtifactSuiteEnv {
  storage(): StoragePort
}

export function artifactStoreSuite(name: string, fresh: () => ArtifactSuiteEnv): void {
  describe(`artifact store on ${name}`, () => {
    const open = (env: ArtifactSuiteEnv, options: ArtifactStoreOptions = {}): SmpArtifactStore => new SmpArtifactStore(env.storage(), options)

    test('create, commit, read, log: anonymous without an identity; each mutation bumps the version by one; earlier versions stay readable', async () => {
      const env = fresh()
      const clock = scriptedClock('2026-03-01T10:00:00Z')
      const store = open(env, { now: clock.now })
      const v1 = await store.create('quick-note', { title: 'Quick Note', body: '\n# Quick Note\n\nSome knowledge worth preserving.\n' })
      expect(v1.version).toBe(1)
      expect(v1.frontmatter).toEqual({
        awp: '0.4.0', smp: '1.0', type: 'knowledge-artifact', id: 'artifact:quick-note', title: 'Quick Note', authors: ['anonymous'],
        version: 1, created: '2026-03-01T10:00:00Z', lastModified: '2026-03-01T10:00:00Z', modifiedBy: 'anonymous',
        provenance: [{ agent: 'anonymous', action: 'created', timestamp: '2026-03-01T10:00:00Z' }],
      })
      expect(v1.text).toBe(
        "---\nawp: 0.4.0\nsmp: '1.0'\ntype: knowledge-artifact\nid: 'artifact:quick-note'\ntitle: Quick Note\nauthors:\n  - anonymous\nversion: 1\n" +
          "created: '2026-03-01T10:00:00Z'\nlastModified: '2026-03-01T10:00:00Z'\nmodifiedBy: anonymous\nprovenance:\n" +
          "  - agent: anonymous\n    action: created\n    timestamp: '2026-03-01T10:00:00Z'\n---\n\n# Quick Note\n\nSome knowledge worth preserving.\n",
      )
      clock.set('2026-03-02T11:30:00.250Z')
      const v2 = await store.commit('quick-note', { body: 'edited', message: 'Rewrote it', confidence: 0.5 })
      expect(v2.version).toBe(2)
      expect(v2.parents).toEqual([v1.versionId])
      expect(v2.body).toBe('edited')
      expect(v2.frontmatter.confidence).toBe(0.5)
      expect(v2.frontmatter.lastModified).toBe('2026-03-02T11:30:00.250Z')
      const v3 = await store.commit('artifact:quick-note', { title: 'Quick Note, Revised', tags: ['notes'], message: 'Retitled' })
      expect(v3.version).toBe(3)
      expect(v3.body).toBe('edited') // the parent's body when none is given
      expect(await store.log('quick-note')).toEqual([
        { agent: 'anonymous', action: 'created', timestamp: '2026-03-01T10:00:00Z' },
        { agent: 'anonymous', action: 'updated', timestamp: '2026-03-02T11:30:00.250Z', message: 'Rewrote it', confidence: 0.5 },
        { agent: 'anonymous', action: 'updated', timestamp: '2026-03-02T11:30:00.250Z', message: 'Retitled' },
      ])
      expect((await store.read('quick-note', { version: 1 })).text).toBe(v1.text)
      expect((await store.read('quick-note', { version: v2.versionId })).body).toBe('edited')
      expect((await store.read('quick-note')).versionId).toBe(v3.versionId)
      expect((await store.history('quick-note')).map((h) => [h.version, h.head])).toEqual([[1, false], [2, false], [3, true]])
      await expect(store.read('quick-note', { version: 9 })).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'version' } })
      await expect(store.read('nope')).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'slug' } })
      await expect(store.create('quick-note')).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } })
      await store.close()
    })

    test('the agent is the identity DID; a committer joins the authors', async () => {
      const env = fresh()
      const a = open(env, { identity: agent('did:key:z6MkAlice') })
      const b = open(env, { identity: agent('did:key:z6MkBob') })
      await a.create('shared', { body: 'x' })
      const v2 = await b.commit('shared', { message: 'Bob was here' })
      expect(v2.frontmatter.authors).toEqual(['did:key:z6MkAlice', 'did:key:z6MkBob'])
      expect(v2.frontmatter.modifiedBy).toBe('did:key:z6MkBob')
      expect((await a.history('shared')).map((h) => h.author)).toEqual(['did:key:z6MkAlice', 'did:key:z6MkBob'])
      await a.close()
      await b.close()
    })

    test('SMP Appendix B worked example, four provenance entries, reproduced through the API by two agents', async () => {
      const env = fresh()
      const clock = scriptedClock()
      const A1 = open(env, { identity: agent('did:key:z6MkAgent1'), now: clock.now, awpVersion: '0.2.0' })
      const A2 = open(env, { identity: agent('did:key:z6MkAgent2'), now: clock.now, awpVersion: '0.2.0' })
      clock.set('2026-02-01T09:00:00Z')
      await A1.create('llm-context-research', {
        title: 'LLM Context Window Research', tags: ['ai-research', 'context-windows'], confidence: 0.6, message: 'Initial literature review',
        body: '\n# LLM Context Window Research\n\n## Summary\n\nAnalysis of context window capabilities across major LLM providers...\n',
      })
      clock.set('2026-02-02T11:00:00Z')
      await A1.commit('llm-context-research', { message: 'Added benchmark comparison table', confidence: 0.75 })
      clock.set('2026-02-03T08:00:00Z')
      await A2.create('transformer-analysis', { title: 'Transformer Analysis', tags: ['benchmarks'], confidence: 0.85, body: '\nAttention scaling notes.\n' })
      clock.set('2026-02-04T16:00:00Z')
      // min(0.75, 0.85) would be 0.75: the example's 0.80 is the merging agent's own assessment.
      await A2.merge('llm-context-research', 'transformer-analysis', { message: 'Incorporated findings from artifact:transformer-analysis', confidence: 0.8 })
      clock.set('2026-02-05T14:30:00Z')
      const final = await A2.commit('llm-context-research', { message: 'Corrected citation and updated confidence', confidence: 0.82 })
      expect(final.frontmatter).toEqual(parseDocument(specWorkedExample()).toJS())
      expect(final.frontmatter.provenance).toHaveLength(4)
      expect((await A1.read('llm-context-research')).text).toBe(final.text)
      await A1.close()
      await A2.close()
    })

    test('additive merge to the letter: separator, unions without duplicates, minimum confidence, merged entry, source untouched', async () => {
      const env = fresh()
      const clock = scriptedClock('2026-04-01T00:00:00Z')
      const store = open(env, { identity: agent('did:key:z6MkMerger'), now: clock.now })
      await store.create('target', { tags: ['a', 'b'], confidence: 0.9, body: '\nTarget body.\n\n' })
      const source = await store.create('source', { tags: ['b', 'c'], confidence: 0.4, body: '\n\n  Source body.  \n\n' })
      clock.set('2026-04-02T12:00:00.500Z')
      const merged = await store.merge('target', 'source', { message: 'fold' })
      expect(merged.body).toBe('\nTarget body.\n\n\n---\n*Merged from artifact:source (version 1) on 2026-04-02T12:00:00.500Z*\n\nSource body.\n')
      expect(merged.version).toBe(2)
      expect(merged.frontmatter.tags).toEqual(['a', 'b', 'c'])
      expect(merged.frontmatter.authors).toEqual(['did:key:z6MkMerger'])
      expect(merged.frontmatter.confidence).toBe(0.4)
      expect(merged.frontmatter.provenance.at(-1)).toEqual({
        agent: 'did:key:z6MkMerger', action: 'merged', timestamp: '2026-04-02T12:00:00.500Z', message: 'fold', confidence: 0.4,
      })
      const after = await store.read('source')
      expect(after.text).toBe(source.text)
      expect(after.versionId).toBe(source.versionId)
      const again = await store.merge('target', 'source')
      expect(again.frontmatter.provenance.at(-1)!.message).toBe('Merged from artifact:source (version 1)')
      await expect(store.merge('target', 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'source' } })
      await expect(store.merge('missing', 'source')).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'target' } })
      await expect(store.merge('target', 'target')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'source' } })
      await store.close()
    })

    test('the real additive merge fixture (mcp-coverage-findings.md) is reproduced byte for byte', async () => {
      const env = fresh()
      const store = open(env, { identity: agent(FIXTURE_DID), now: () => Date.parse('2026-05-12T16:55:12.180Z') })
      await store.import(findingsV1())
      await store.import(fixture('repo-artifacts/workspace-init-gaps.md'))
      const merged = await store.merge('mcp-coverage-findings', 'workspace-init-gaps', { message: 'Fold init gaps into the consolidated findings artifact' })
      expect(merged.text).toBe(fixture('repo-artifacts/mcp-coverage-findings.md'))
      await store.close()
    })

    test('two commits on one parent (two tabs) fork: both kept, read says conflicted, a merge resolves it', async () => {
      const env = fresh()
      const clock = scriptedClock('2026-05-01T00:00:00Z')
      const tabA = open(env, { identity: agent('did:key:z6MkTabA'), now: clock.now })
      const tabB = open(env, { identity: agent('did:key:z6MkTabB'), now: clock.now })
      const v1 = await tabA.create('plan', { body: 'base\n', confidence: 0.9, tags: ['x'] })
      const seenByB = await tabB.read('plan')
      clock.set('2026-05-01T00:01:00Z')
      const a2 = await tabA.commit('plan', { body: 'base\nfrom A\n', message: 'A edits', basedOn: v1.versionId })
      clock.set('2026-05-01T00:02:00Z')
      const b2 = await tabB.commit('plan', { body: 'base\nfrom B\n', message: 'B edits', tags: ['y'], confidence: 0.6, basedOn: seenByB.versionId })
      expect(b2.conflicted).toBe(true)
      const read = await tabA.read('plan')
      expect(read.conflicted).toBe(true)
      expect([...read.heads].sort()).toEqual([a2.versionId, b2.versionId].sort())
      expect([a2.version, b2.version]).toEqual([2, 2])
      expect((await tabA.list())[0]!.conflicted).toBe(true)
      // Every version stays readable; a plain commit refuses to pick a side.
      expect((await tabA.read('plan', { version: a2.versionId })).body).toBe('base\nfrom A\n')
      expect((await tabA.read('plan', { version: b2.versionId })).body).toBe('base\nfrom B\n')
      await expect(tabA.commit('plan', { message: 'which one?' })).rejects.toMatchObject({ code: 'CONFLICT' })
      clock.set('2026-05-01T00:03:00Z')
      const resolved = await tabA.merge('plan', 'plan', { message: 'Resolve the fork' })
      expect(resolved.conflicted).toBe(false)
      expect(resolved.version).toBe(3)
      expect([...resolved.parents].sort()).toEqual([a2.versionId, b2.versionId].sort())
      const [winner, loser] = read.heads[0] === a2.versionId ? [a2, b2] : [b2, a2]
      expect(resolved.body).toBe(`${winner.body}\n---\n*Merged from artifact:plan (version 2) on 2026-05-01T00:03:00Z*\n\n${loser.body.trim()}\n`)
      expect(resolved.frontmatter.provenance.slice(0, -1)).toEqual(winner.frontmatter.provenance)
      expect(resolved.frontmatter.provenance.at(-1)).toMatchObject({ action: 'merged', agent: 'did:key:z6MkTabA', message: 'Resolve the fork', confidence: 0.6 })
      expect(resolved.frontmatter.tags).toEqual(winner === a2 ? ['x', 'y'] : ['y', 'x'])
      expect((await tabB.read('plan')).versionId).toBe(resolved.versionId)
      await tabA.close()
      await tabB.close()
    })

    test('a version that leaves storage (sync evicts a pooled one) leaves every handle: its parent is the head again, its fork is gone', async () => {
      const env = fresh()
      const a = open(env)
      const b = open(env)
      const v1 = await a.create('notes', { body: 'one\n' })
      const v2 = await a.commit('notes', { body: 'two\n', message: 'two' })
      await b.refresh()
      const fork = await b.commit('notes', { body: 'fork\n', message: 'fork', basedOn: v1.versionId })
      expect((await a.read('notes')).heads).toHaveLength(2)
      // What the sync layer does with a record the pool no longer admits: a hard delete through the log.
      const sync = new RecordLog(env.storage(), { ownsStorage: false })
      await sync.append([], [v2.versionId])
      for (const s of [a, b]) {
        const read = await s.read('notes')
        expect(read).toMatchObject({ versionId: fork.versionId, conflicted: false, heads: [fork.versionId] })
        expect((await s.history('notes')).map((h) => [h.versionId, h.head])).toEqual([[v1.versionId, false], [fork.versionId, true]])
      }
      await sync.append([], [fork.versionId])
      for (const s of [a, b]) {
        expect(await s.read('notes')).toMatchObject({ versionId: v1.versionId, conflicted: false, body: 'one\n' })
        expect((await s.list()).map((x) => [x.slug, x.version])).toEqual([['notes', 1]])
      }
      // A head again, it continues as one: the next commit is version 2 on it.
      const again = await b.commit('notes', { body: 'again\n', message: 'again' })
      expect(again.parents).toEqual([v1.versionId])
      await sync.append([], [v1.versionId, again.versionId])
      await expect(a.read('notes')).rejects.toMatchObject({ code: 'NOT_FOUND' })
      expect(await b.list()).toEqual([])
      await sync.close()
      await a.close()
      await b.close()
    })

    test('concurrent commits without basedOn, in two handles or one, fork instead of overwriting each other', async () => {
      const env = fresh()
      const a = open(env)
      const b = open(env)
      await a.create('race', { body: '0' })
      await b.refresh()
      const [x, y] = await Promise.all([a.commit('race', { body: 'a', message: 'a' }), b.commit('race', { body: 'b', message: 'b' })])
      expect(x.parents).toEqual(y.parents)
      expect((await a.read('race')).conflicted).toBe(true)
      await a.merge('race', 'race')
      const [p, q] = await Promise.all([a.commit('race', { body: 'p', message: 'p' }), a.commit('race', { body: 'q', message: 'q' })])
      expect(p.parents).toEqual(q.parents)
      expect((await b.read('race')).heads).toHaveLength(2)
      await a.close()
      await b.close()
    })

    test('a commit with a stale expectedVersion fails with CONFLICT and stores nothing', async () => {
      const env = fresh()
      const a = open(env)
      const b = open(env)
      await a.create('doc', { body: '1' })
      const seen = await b.read('doc')
      await a.commit('doc', { body: '2', message: 'a moves on', expectedVersion: 1 })
      await expect(b.commit('doc', { body: 'stale', message: 'b', expectedVersion: seen.version })).rejects.toMatchObject({
        code: 'CONFLICT', details: { field: 'expectedVersion', expected: 1, actual: [2] },
      })
      await expect(b.merge('doc', 'doc', { expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'expectedVersion' } })
      expect((await b.history('doc')).length).toBe(2)
      // Two writers racing with the same expectedVersion: exactly one wins.
      const results = await Promise.allSettled([
        a.commit('doc', { body: 'a', message: 'a', expectedVersion: 2 }),
        b.commit('doc', { body: 'b', message: 'b', expectedVersion: 2 }),
      ])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' })
      expect((await a.history('doc')).length).toBe(3)
      expect((await b.read('doc')).conflicted).toBe(false)
      await a.close()
      await b.close()
    })

    test('bad input is refused with its field named, and nothing stored changes', async () => {
      const env = fresh()
      const store = open(env)
      await store.create('ok', { body: 'x' })
      const before = await store.history('ok')
      const cases: Array<[() => Promise<unknown>, string]> = [
        [() => store.create('../escape'), 'slug'],
        [() => store.create('/etc/passwd'), 'slug'],
        [() => store.create('Upper'), 'slug'],
        [() => store.create('-dash'), 'slug'],
        [() => store.create('a'.repeat(201)), 'slug'],
        [() => store.create('x', { title: '' }), 'title'],
        [() => store.create('x', { confidence: 1.5 }), 'confidence'],
        [() => store.create('x', { confidence: Number.NaN }), 'confidence'],
        [() => store.create('x', { tags: ['ok', 7 as unknown as string] }), 'tags[1]'],
        [() => store.create('x', { body: 42 as unknown as string }), 'body'],
        [() => store.create('x', { content: 'typo' } as never), 'content'],
        [() => store.commit('ok', {} as never), 'message'],
        [() => store.commit('ok', { message: '  ' }), 'message'],
        [() => store.commit('ok', { message: 'm', expectedVersion: 0 }), 'expectedVersion'],
        [() => store.commit('ok', { message: 'm', basedOn: 'not-a-version' }), 'basedOn'],
        [() => store.merge('ok', 'ok', { confidence: -0.1 }), 'confidence'],
        [() => store.search(''), 'query'],
        [() => store.list({ tag: '' }), 'tag'],
        [() => store.read('ok', { version: 1.5 }), 'version'],
      ]
      for (const [call, field] of cases) await expect(call(), field).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } })
      expect((await store.list()).map((s) => s.slug)).toEqual(['ok'])
      expect(await store.history('ok')).toEqual(before)
      await store.close()
    })

    test('import: created, unchanged, updated, forked; older or rewritten history is a CONFLICT naming the field', async () => {
      const env = fresh()
      const store = open(env)
      const v1 = findingsV1()
      const v2 = fixture('repo-artifacts/mcp-coverage-findings.md')
      expect(await store.import(v1, { slug: 'mcp-coverage-findings' })).toMatchObject({ status: 'created', version: 1 })
      expect(await store.import(v1)).toMatchObject({ status: 'unchanged', version: 1 })
      const updated = await store.import(v2)
      expect(updated).toMatchObject({ status: 'updated', version: 2 })
      expect((await store.read('mcp-coverage-findings')).text).toBe(v2)
      await expect(store.import(v1.replace('version: 1', 'version: 1\n# an older copy'))).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'version' } })
      const rewritten = v2.replace('message: First-pass findings from MCP exercise', 'message: Rewritten history').replace('version: 2', 'version: 3')
      await expect(store.import(rewritten)).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'provenance' } })
      // A file that continues version 1 while the store is at version 2: kept beside it as a fork.
      const sibling = v1.replace('version: 1', 'version: 2').replace(/(provenance:\n[\s\S]*?message: First-pass findings from MCP exercise\n)/, `$1  - agent: anonymous\n    action: updated\n    timestamp: '2026-05-13T00:00:00Z'\n`)
      expect(await store.import(sibling)).toMatchObject({ status: 'forked', version: 2 })
      expect((await store.read('mcp-coverage-findings')).conflicted).toBe(true)
      await expect(store.import(v2, { slug: 'other-name' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'id' } })
      await expect(store.import(v2.replace('action: created', 'action: updated'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'provenance[0].action' } })
      await expect(store.import('no frontmatter')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'frontmatter' } })
      expect((await store.history('mcp-coverage-findings')).length).toBe(3)
      await store.close()
    })

    test('list and search: tag filter, case-insensitive ranked matches over title, tags and body', async () => {
      const env = fresh()
      const store = open(env)
      await store.create('body-only', { title: 'Notes', body: 'We studied context windows at length. Context matters.', confidence: 0.9 })
      await store.create('in-title', { title: 'Context Windows', tags: ['LLM'], body: 'short', confidence: 0.5 })
      await store.create('tagged', { title: 'Other', tags: ['context'], body: 'nothing' })
      await store.create('unrelated', { title: 'Gardening', body: 'tomatoes' })
      expect((await store.list()).map((s) => s.slug)).toEqual(['body-only', 'in-title', 'tagged', 'unrelated'])
      expect((await store.list({ tag: 'llm' })).map((s) => s.slug)).toEqual(['in-title'])
      const hits = await store.search('CONTEXT windows')
      expect(hits.map((h) => h.slug)).toEqual(['in-title', 'body-only'])
      expect(hits[0]!.matchedIn).toEqual(['title'])
      expect(hits[1]!.snippet).toContain('context windows')
      expect((await store.search('context')).map((h) => h.slug)).toEqual(['in-title', 'tagged', 'body-only'])
      expect(await store.search('context', { limit: 1 })).toHaveLength(1)
      expect(await store.search('zucchini')).toEqual([])
      await store.close()
    })

    test('a closed store refuses calls with CLOSED', async () => {
      const store = open(fresh())
      await store.create('x')
      await store.close()
      await store.close()
      await expect(store.create('y')).rejects.toMatchObject({ code: 'CLOSED' })
    })
  })
}
