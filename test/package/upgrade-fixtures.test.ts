import { describe, expect, it } from 'vitest'
import { createIdentity, createMemory } from '../../src/index.js'
import { fileStorage } from '../../src/node/index.js'
import { FORMAT_VERSIONS } from '../../src/core/format-version.js'
import { FORMAT_ROW, type FormatRow } from '../../src/records/format-marker.js'
import { readBack } from '../../scripts/upgrade-fixture-data.js'
import { FIXTURE_COMMITS, copyStore, expectedOf, filesOf, openStore } from './upgrade-fixtures-helpers.js'

/**
 * Issue 28: stores written by earlier commits of main (test/fixtures/upgrade/<sha>/, made by
 * scripts/make-upgrade-fixtures.ts through each commit's own public API) open with today's build
 * with every fact, pool, artifact, SMALL document and working-memory item as that build read it
 * back, field by field. Today's build may add fields; it may not change or drop one.
 */

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = []
  for await (const line of source) out.push(line)
  return out
}

describe.each(FIXTURE_COMMITS)('a store written by %s', (sha) => {
  it('opens with every fact (superseded, as of, hard-deleted absent), pool, artifact, SMALL document and working-memory item as that build read them', async () => {
    const { written: w, answers, owner } = await expectedOf(sha)
    const dir = await copyStore(sha)
    const mem = await openStore(dir, w)
    expect(mem.identity?.did).toBe(owner)
    const now = await readBack(mem, w)
    expect(Object.keys(now).sort()).toEqual(Object.keys(answers).sort())
    for (const key of Object.keys(answers)) expect(now[key], key).toMatchObject(answers[key] as object)

    // What the fixture is meant to hold, so a fixture written wrong cannot pass by agreeing with itself.
    expect(now['deleted']).toBeNull()
    expect(JSON.stringify(now)).not.toContain(w.deletedContent)
    expect(JSON.stringify(now)).not.toContain(w.forgottenMemory)
    const audit = now['audit'] as { ref: string; content: string; supersededBy?: string | null }[]
    expect(audit.map((m) => m.content)).toEqual(expect.arrayContaining(['Aria lives in Rome', 'Aria lives in Milan', 'Aria lives in Paris', 'Bo likes tea']))
    expect((now['asOf'] as { content: string }[]).map((m) => m.content)).toContain('Aria lives in Rome')
    expect((now['asOf'] as { content: string }[]).map((m) => m.content)).not.toContain('Aria lives in Milan')
    expect((now['current'] as { ref: string }[]).map((m) => m.ref)).not.toContain(w.supersededRef)
    expect((now['superseded'] as { content: string }).content).toBe('Aria lives in Rome')
    const pool = now[`pool ${w.poolId} info`] as { members: { did: string }[] }
    expect(pool.members.map((m) => m.did)).toEqual(expect.arrayContaining([owner, w.member]))
    expect(now[`pool ${w.poolId} memories`]).toHaveLength(3)
    expect(now['notesLog']).toHaveLength(2)
    expect(now['observations']).toHaveLength(3)
    expect(now['wmConflicts']).toHaveLength(1)
    await mem.close()
    // Nothing hard-deleted is in any byte of the directory after today's build opened it.
    for (const [name, bytes] of await filesOf(dir)) {
      expect(bytes.includes(w.deletedContent), name).toBe(false)
      expect(bytes.includes(w.forgottenMemory), name).toBe(false)
    }
  })

  it("every record's signature and id verify with today's build: its export imports into a fresh Memory with nothing refused", async () => {
    const { written: w } = await expectedOf(sha)
    const mem = await openStore(await copyStore(sha), w)
    const lines = await collect(mem.export())
    const fresh = await createMemory({ storage: 'memory', identity: await createIdentity({ seed: new Uint8Array(32).fill(3) }) })
    const report = await fresh.import(lines)
    expect(report.problems).toEqual([])
    expect(report).toMatchObject({ refused: 0, complete: true })
    expect(report.imported).toBe(lines.length - 2)
    expect(report.imported).toBeGreaterThan(20)
    await fresh.close()
    await mem.close()
  })

  it("the first write marks the store with today's format; the next opens answer the same and change no byte", async () => {
    const { written: w, answers } = await expectedOf(sha)
    const dir = await copyStore(sha)
    const first = await openStore(dir, w)
    await first.facts.write('Written after the upgrade')
    const once = await readBack(first, w)
    await first.close()

    const raw = fileStorage({ dir })
    const marker = await raw.read(['meta'], (tx) => tx.get<FormatRow>('meta', FORMAT_ROW))
    await raw.close()
    expect(marker).toMatchObject({ key: FORMAT_ROW, version: FORMAT_VERSIONS.store })

    const second = await openStore(dir, w)
    const twice = await readBack(second, w)
    await second.close()
    expect(twice).toEqual(once)
    for (const key of Object.keys(answers)) {
      if (key === 'audit' || key === 'current') continue // hold the new fact too
      expect(twice[key], key).toMatchObject(answers[key] as object)
    }
    expect((twice['audit'] as { content: string }[]).map((m) => m.content)).toContain('Written after the upgrade')

    // Once an open has folded the pool reads' access records into the snapshot, an open that only
    // reads facts and artifacts leaves the directory byte for byte as it was.
    await (await openStore(dir, w)).close()
    const before = await filesOf(dir)
    const fourth = await openStore(dir, w)
    await fourth.facts.audit()
    await fourth.artifacts.read('notes')
    await fourth.small.get('plan')
    await fourth.close()
    expect(await filesOf(dir)).toEqual(before)
  })
})
