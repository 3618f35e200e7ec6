import { describe, expect, it } from 'vitest'
import { createMemory, type Memory } from '../../src/memory.js'
import { createIdentity } from '../../src/core/identity.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { answers, collect, populate, recordLines } from './backup-helpers.js'

/**
 * Issue 28: mem.export() / mem.import(). A backup restored into a fresh Memory answers as the
 * original did, with the same records (ids and signatures); a tampered line is refused and named;
 * a second import changes nothing; an older backup never takes a newer state back; hard-deleted
 * memories are in no line.
 */

/** One wall clock for both sides: a pool read records its time (lastAccessed), which must not differ by when the test ran. */
const now = (): number => Date.UTC(2026, 5, 1)

async function source(): Promise<{ mem: Memory; lines: string[]; member: string; seed: Uint8Array }> {
  const identity = await createIdentity()
  const member = (await createIdentity()).did
  const mem = await createMemory({ storage: 'memory', identity, now })
  await populate(mem, member)
  const lines = await collect(mem.export())
  return { mem, lines, member, seed: identity.exportSeed() }
}

describe('backup and restore', () => {
  it('round trip: a fresh Memory with the same identity answers the same, with the same records and signatures', async () => {
    const { mem, lines, seed } = await source()
    const before = await answers(mem)
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'header', format: 'memweave.backup', version: 1, writtenBy: '0.3.0' })
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: 'end', records: lines.length - 2 })

    const restored = await createMemory({ storage: 'memory', identity: await createIdentity({ seed }), now })
    const report = await restored.import(lines)
    expect(report).toMatchObject({ records: lines.length - 2, imported: lines.length - 2, present: 0, forgotten: 0, refused: 0, complete: true, identity: null })
    expect(recordLines(await collect(restored.export()))).toEqual(recordLines(lines))
    expect(await answers(restored)).toEqual(before)
    await mem.close()
    await restored.close()
  })

  it('hard-deleted memories (a deleted fact, a forgotten pool memory) are in no line of the backup', async () => {
    const identity = await createIdentity()
    const mem = await createMemory({ storage: 'memory', identity })
    const { deletedFact, forgottenMemory } = await populate(mem, (await createIdentity()).did)
    const text = (await collect(mem.export())).join('')
    expect(text).not.toContain(deletedFact)
    expect(text).not.toContain(forgottenMemory)
    expect(text).toContain('Bo likes tea')
    await mem.close()
  })

  it('a tampered line is refused and named (line, id, reason); the others are imported', async () => {
    const { mem, lines } = await source()
    const at = lines.findIndex((l) => l.includes('Bo likes tea'))
    const poolAt = lines.findIndex((l) => l.includes('bullet_points'))
    const tampered = [...lines]
    tampered[at] = lines[at]!.replace('Bo likes tea', 'Bo likes rum')
    tampered[poolAt] = lines[poolAt]!.replace('bullet_points', 'walls_of_text')
    const restored = await createMemory({ storage: 'memory', identity: await createIdentity() })
    const report = await restored.import(tampered)
    expect(report.refused).toBe(2)
    expect(report.problems).toEqual([
      { line: Math.min(at, poolAt) + 1, id: JSON.parse(lines[Math.min(at, poolAt)]!).record.id, reason: expect.stringMatching(/altered|signature/) },
      { line: Math.max(at, poolAt) + 1, id: JSON.parse(lines[Math.max(at, poolAt)]!).record.id, reason: expect.stringMatching(/altered|signature/) },
    ])
    expect(report.imported).toBe(lines.length - 4)
    const contents = (await restored.facts.audit()).map((m) => m.content)
    expect(contents).not.toContain('Bo likes rum')
    expect(contents).not.toContain('Bo likes tea')
    await mem.close()
    await restored.close()
  })

  it('a second import of the same backup imports nothing and changes no answer', async () => {
    const { mem, lines, seed } = await source()
    const restored = await createMemory({ storage: 'memory', identity: await createIdentity({ seed }) })
    await restored.import(lines)
    const once = await collect(restored.export())
    const again = await restored.import(lines)
    expect(again).toMatchObject({ imported: 0, present: lines.length - 2, refused: 0, complete: true })
    expect(recordLines(await collect(restored.export()))).toEqual(recordLines(once))
    await mem.close()
    await restored.close()
  })

  it('an older backup never takes a newer state back: a superseded fact stays superseded, a deleted one stays deleted', async () => {
    const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
    const ref = await mem.facts.write('The office is on floor 3')
    const doomed = await mem.facts.write('The alarm code is 1234')
    const old = await collect(mem.export())
    await mem.facts.supersede(ref, 'The office is on floor 5')
    await mem.facts.delete(doomed)
    const now = await mem.facts.audit()
    const report = await mem.import(old)
    expect(report).toMatchObject({ imported: 0, refused: 0 })
    expect(report.present + report.forgotten).toBe(old.length - 2)
    expect(report.forgotten).toBe(1)
    expect(await mem.facts.audit()).toEqual(now)
    expect((await mem.facts.retrieve('office floor', { budgetTokens: 100 })).map((m) => m.content)).toEqual(['The office is on floor 5'])
    expect(JSON.stringify((await collect(mem.export())))).not.toContain('1234')
    await mem.close()
  })

  it('a backup made after a delete deletes the version in a store that still holds it', async () => {
    const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
    const doomed = await mem.facts.write('The alarm code is 1234')
    const copy = await createMemory({ storage: 'memory', identity: await createIdentity() })
    await copy.import(await collect(mem.export()))
    await mem.facts.delete(doomed)
    await copy.import(await collect(mem.export()))
    expect(await copy.facts.audit()).toEqual([])
    expect(JSON.stringify(await collect(copy.export()))).not.toContain('1234')
    await mem.close()
    await copy.close()
  })

  it('a backup of a newer format is refused with FORMAT_TOO_NEW before anything is written; a non-backup with INVALID_ARGUMENT', async () => {
    const { mem, lines } = await source()
    const target = await createMemory({ storage: 'memory', identity: await createIdentity() })
    const newer = [JSON.stringify({ ...JSON.parse(lines[0]!), version: 2, writtenBy: '9.0.0' }) + '\n', ...lines.slice(1)]
    const err = await target.import(newer).catch((e: unknown) => e)
    expect(isMemweaveError(err) && err.code).toBe('FORMAT_TOO_NEW')
    expect(isMemweaveError(err) && err.details).toMatchObject({ what: 'export', found: 2, reads: 1, writtenBy: '9.0.0' })
    expect(await target.facts.audit()).toEqual([])
    const junk = await target.import(['hello\n']).catch((e: unknown) => e)
    expect(isMemweaveError(junk) && junk.code).toBe('INVALID_ARGUMENT')
    await mem.close()
    await target.close()
  })

  it('a backup cut short is imported as far as it goes and reported incomplete; chunks may split lines anywhere', async () => {
    const { mem, lines } = await source()
    const text = lines.join('')
    const chunks: Uint8Array[] = []
    const bytes = new TextEncoder().encode(text.slice(0, text.lastIndexOf('{"type":"end"')))
    for (let i = 0; i < bytes.length; i += 37) chunks.push(bytes.subarray(i, i + 37))
    const target = await createMemory({ storage: 'memory', identity: await createIdentity() })
    const report = await target.import(chunks, { batch: 3 })
    expect(report).toMatchObject({ records: lines.length - 2, imported: lines.length - 2, complete: false })
    await mem.close()
    await target.close()
  })

  it('never a private key unless asked for explicitly', async () => {
    const identity = await createIdentity()
    const mem = await createMemory({ storage: 'memory', identity })
    await mem.facts.write('x')
    const seedHex = Buffer.from(identity.exportSeed()).toString('hex')
    expect((await collect(mem.export())).join('')).not.toContain(seedHex)
    const withKey = await collect(mem.export({ includeIdentitySeed: true }))
    expect(JSON.parse(withKey[1]!)).toEqual({ type: 'identity', did: identity.did, seed: seedHex })
    const target = await createMemory({ storage: 'memory' })
    expect((await target.import(withKey)).identity).toEqual({ did: identity.did, seed: seedHex })
    await mem.close()
    await target.close()
  })
})

it("the backup's kinds are every module's record kinds (a kind added to a module must be added to src/backup/kinds.ts)", async () => {
  const { BACKUP_KINDS } = await import('../../src/backup/kinds.js')
  const { POOL_KINDS } = await import('../../src/pools/records.js')
  const { WORKING_KINDS } = await import('../../src/working/records.js')
  const { SMALL_DOC_KIND, SMALL_PROGRESS_KIND } = await import('../../src/small/state.js')
  const { ARTIFACT_VERSION_KIND } = await import('../../src/artifacts/state.js')
  const { CHECKPOINT_KIND } = await import('../../src/sync/checkpoint.js')
  const modules = ['fact', 'tombstone', ...POOL_KINDS, ...WORKING_KINDS, SMALL_DOC_KIND, SMALL_PROGRESS_KIND, ARTIFACT_VERSION_KIND, CHECKPOINT_KIND]
  expect([...BACKUP_KINDS].sort()).toEqual([...new Set(modules)].sort())
})
