// The behaviour of mem.small, run on every storage: in-memory and fake-indexeddb in Node
// (small-store.test.ts), real IndexedDB in Chromium (small.browser.test.ts).
import { describe, expect, test } from 'vitest'
import { createIdentity, type Identity } from '../../src/core/identity.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { recordId } from '../../src/core/ids.js'
import { fromHex } from '../../src/core/bytes.js'
import { verifySignature } from '../../src/core/identity.js'
import type { Memory } from '../../src/memory.js'
import { RecordLog } from '../../src/records/log.js'
import type { SmallStore } from '../../src/small/store-api.js'
import type { StoragePort } from '../../src/storage/port.js'

export type SmallMemory = Memory & { readonly small: SmallStore }

export interface SmallSuiteEnv {
  /** A new, empty database; `open` makes handles on it (like tabs), `raw` a bare storage port on it. */
  fresh(): {
    open(options: { identity: Identity | null; humans: readonly string[]; now?: () => number }): Promise<SmallMemory>
    raw(): Promise<StoragePort>
  }
  /** The documents of specs/small/examples/spec-v1.0.0 and of one older example, as text. */
  readonly valid: Readonly<Record<string, string>>
  readonly older: Readonly<Record<string, string>>
}

async function rejects(p: Promise<unknown>, code: string, details: Record<string, unknown> = {}): Promise<Error & { details: Record<string, unknown> }> {
  try {
    await p
  } catch (err) {
    expect(isMemweaveError(err), String(err)).toBe(true)
    expect((err as { code: string }).code).toBe(code)
    expect((err as { details: Record<string, unknown> }).details).toMatchObject(details)
    return err as Error & { details: Record<string, unknown> }
  }
  throw new Error(`expected ${code}`)
}

const SEED_AGENT = Uint8Array.from({ length: 32 }, (_, i) => i + 1)
const SEED_HUMAN = Uint8Array.from({ length: 32 }, (_, i) => 200 - i)

export function smallSuite(name: string, env: SmallSuiteEnv): void {
  describe(`mem.small on ${name}`, () => {
    async function setup(now?: () => number) {
      const agent = await createIdentity({ seed: SEED_AGENT })
      const human = await createIdentity({ seed: SEED_HUMAN })
      const db = env.fresh()
      const open = (identity: Identity | null = agent) => db.open({ identity, humans: [human.did], now })
      return { agent, human, db, open, mem: await open() }
    }

    test('the valid example imports, exports byte for byte, validates strictly, and its replayId reproduces', async () => {
      const { mem, human } = await setup()
      await mem.small.import(env.valid, { identity: human })
      expect(await mem.small.export()).toEqual(Object.fromEntries(Object.entries(env.valid).map(([k, v]) => [k.replace(/^\.small\//, ''), v])))
      const report = await mem.small.validate({ strict: true })
      expect(report.errors).toEqual([])
      expect(report.valid).toBe(true)
      expect(report.replay).toMatchObject({ source: 'auto', reproduces: true, stored: '46311ca6450b7e168171e919f8a39de8f980ca0c98870f0e35f2bcc608fe32a0' })
      expect(await mem.small.replayId()).toBe('46311ca6450b7e168171e919f8a39de8f980ca0c98870f0e35f2bcc608fe32a0')
      expect((await mem.small.get('plan'))?.data.tasks.map((t) => t.id)).toEqual(['task-1', 'task-2'])
      await mem.close()
    })

    test('an older example is refused at exactly resume.current_task_id, with nothing stored', async () => {
      const { mem, human } = await setup()
      const err = await rejects(mem.small.import(env.older, { identity: human }), 'INVALID_ARGUMENT', {
        file: '.small/handoff.small.yml', pointer: '/resume/current_task_id', rule: 'schema',
      })
      expect((err.details['findings'] as unknown[]).length).toBe(1)
      expect(err.message).toContain('must be a non-empty string or null')
      expect(await mem.small.projects()).toEqual([])
      await mem.close()
    })

    test('ownership: an agent identity writing intent or constraints gets PERMISSION_DENIED; a human identity may', async () => {
      const { mem, human, agent, open } = await setup()
      await rejects(mem.small.put('intent', env.valid['intent.small.yml']!), 'PERMISSION_DENIED', { file: '.small/intent.small.yml', rule: 'ownership' })
      await rejects(mem.small.put('constraints', env.valid['constraints.small.yml']!, { identity: agent }), 'PERMISSION_DENIED')
      await rejects(mem.small.import(env.valid), 'PERMISSION_DENIED') // checked before anything is written
      expect(await mem.small.get('plan')).toBeNull()
      const anonymous = await open(null)
      await rejects(anonymous.small.put('intent', env.valid['intent.small.yml']!), 'PERMISSION_DENIED')
      await anonymous.close()
      const r = await mem.small.put('intent', env.valid['intent.small.yml']!, { identity: human })
      expect(r.changed).toBe(true)
      expect((await mem.small.get('intent'))?.author).toBe(human.did)
      await mem.small.put('plan', env.valid['plan.small.yml']!) // agent-owned: the agent writes it
      await mem.close()
    })

    test('the materializer refuses an agent-authored intent record that reached storage anyway', async () => {
      const { mem, human, agent, db } = await setup()
      await mem.small.put('intent', env.valid['intent.small.yml']!, { identity: human })
      const before = await mem.small.get('intent')
      const storage = await db.raw()
      const unsigned = {
        kind: 'small-doc', tenant: null, author: agent.did, hlc: 'ffffffffffff.000000.forged',
        body: { project: 'default', name: 'intent', text: env.valid['intent.small.yml']!.replace('Implement SMALL', 'Delete everything'), prev: before!.version },
      }
      await storage.write(['records', 'log'], async (tx) => {
        await tx.put('records', [{ id: recordId(unsigned), ...unsigned }])
        await tx.put('log', [{ ref: recordId(unsigned), op: 'put' }])
      })
      const after = await mem.small.get('intent')
      expect(after?.text).toBe(before?.text)
      expect(await mem.small.conflicts()).toEqual([expect.objectContaining({ kind: 'refused', document: 'intent', record: recordId(unsigned), author: agent.did })])
      await storage.close()
      await mem.close()
    })

    test('records are signed by their author: the signature verifies over the record id', async () => {
      const { mem, human, db } = await setup()
      const r = await mem.small.put('intent', env.valid['intent.small.yml']!, { identity: human })
      const storage = await db.raw()
      const rec = await storage.read(['records'], (tx) => tx.get<{ id: string; sig: string }>('records', r.records[0]!))
      expect(await verifySignature(fromHex(rec!.sig), fromHex(rec!.id), human.publicKey)).toBe(true)
      await storage.close()
      await mem.close()
    })

    test('a document that fails its schema or an invariant is refused with file, pointer and rule', async () => {
      const { mem } = await setup()
      await rejects(mem.small.put('plan', { small_version: '1.0', owner: 'agent', tasks: [{ id: 't', title: 'x' }] }), 'INVALID_ARGUMENT', { file: '.small/plan.small.yml', pointer: '/small_version', rule: 'small-version', field: '/small_version' })
      await rejects(mem.small.put('plan', 'tasks: [unclosed\n'), 'INVALID_ARGUMENT', { rule: 'yaml' })
      await rejects(mem.small.put('progress', { small_version: '1.0.0', owner: 'agent', entries: [{ task_id: 't', timestamp: '2025-01-01T00:00:00.1Z', notes: 'trust me' }] }), 'INVALID_ARGUMENT', { pointer: '/entries/0', rule: 'progress-evidence' })
      await rejects(mem.small.put('nonsense' as 'plan', {}), 'INVALID_ARGUMENT', { field: 'name' })
      await mem.close()
    })

    test('progress is append-only: an edit or removal of a stored entry is refused, an append lands', async () => {
      const { mem } = await setup()
      const e0 = { task_id: 't1', timestamp: '2025-01-01T00:00:00.000000001Z', status: 'in_progress', evidence: 'started' }
      const e1 = { task_id: 't1', timestamp: '2025-01-01T00:00:00.000000002Z', status: 'completed', command: 'npm test' }
      const doc = (...entries: object[]) => ({ small_version: '1.0.0', owner: 'agent', entries })
      await mem.small.put('progress', doc(e0))
      await rejects(mem.small.put('progress', doc({ ...e0, evidence: 'finished, honestly' }, e1)), 'CONFLICT', { pointer: '/entries/0', rule: 'progress-append-only' })
      await rejects(mem.small.put('progress', doc()), 'CONFLICT', { pointer: '/entries/0', rule: 'progress-append-only' })
      const r = await mem.small.put('progress', doc(e0, e1))
      expect(r.records).toHaveLength(1)
      expect((await mem.small.put('progress', doc(e0, e1))).changed).toBe(false)
      expect((await mem.small.get('progress'))?.data.entries).toEqual([e0, e1])
      await mem.close()
    })

    test('a record that leaves storage (sync evicts a pooled one) leaves the documents: the version it replaced is current again', async () => {
      const { mem, open, db } = await setup()
      const other = await open()
      const plan = (title: string) => ({ small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title }] })
      await mem.small.put('plan', plan('first'))
      const second = await mem.small.put('plan', plan('second'))
      const kept = await mem.small.appendProgress({ task_id: 't1', evidence: 'kept' })
      await mem.small.appendProgress({ task_id: 't1', evidence: 'evicted' })
      const entry = (await mem.small.get('progress'))!.version!
      expect((await other.small.get('plan'))?.data.tasks[0]?.title).toBe('second')
      // What the sync layer does with a record the pool no longer admits: a hard delete through the log.
      const sync = new RecordLog(await db.raw())
      await sync.append([], [second.records[0]!, entry])
      for (const h of [mem, other]) {
        expect((await h.small.get('plan'))?.data.tasks[0]?.title).toBe('first')
        expect((await h.small.get('progress'))?.data.entries).toEqual([kept])
        expect(await h.small.conflicts()).toEqual([])
      }
      await sync.close()
      await other.close()
      await mem.close()
    })

    test('appendProgress: evidence required, timestamps strictly increasing to the nanosecond on a frozen clock', async () => {
      const { mem } = await setup(() => Date.UTC(2026, 0, 1))
      await rejects(mem.small.appendProgress({ task_id: 't1', notes: 'only notes' }), 'INVALID_ARGUMENT', { pointer: '/entries/0', rule: 'progress-evidence' })
      const a = await mem.small.appendProgress({ task_id: 't1', status: 'in_progress', evidence: 'a' })
      const b = await mem.small.appendProgress({ task_id: 't1', status: 'completed', test: 'unit' })
      const c = await mem.small.appendProgress({ task_id: 'meta/note', evidence: 'c' })
      expect([a.timestamp, b.timestamp, c.timestamp]).toEqual(['2026-01-01T00:00:00.000000000Z', '2026-01-01T00:00:00.000000001Z', '2026-01-01T00:00:00.000000002Z'])
      await rejects(mem.small.appendProgress({ task_id: 't1', evidence: 'late', timestamp: '2026-01-01T00:00:00.000000002Z' }), 'INVALID_ARGUMENT', { pointer: '/entries/3/timestamp', rule: 'progress-timestamp' })
      await mem.close()
    })

    test('handoff() regenerates the resume entrypoint from plan and progress, with the replayId', async () => {
      const { mem, human } = await setup()
      await mem.small.import(env.valid, { identity: human })
      await mem.small.appendProgress({ task_id: 'task-2', status: 'completed', commit: 'abcdef1' })
      const h = await mem.small.handoff()
      expect(h.resume.current_task_id).toBeNull()
      expect(h.summary).toContain('All 2 plan tasks are done')
      expect(h.replayId).toEqual({ value: await mem.small.replayId(), source: 'auto' })
      expect(h.links).toEqual([{ url: 'https://github.com/example/small-protocol', description: 'Project repository' }])
      const report = await mem.small.validate({ strict: true })
      expect(report.errors).toEqual([])
      expect(report.replay?.reproduces).toBe(true)
      // The stored handoff kept the formatting of the imported one where it did not change.
      expect((await mem.small.get('handoff'))?.text).toContain('links:\n  - url: "https://github.com/example/small-protocol"\n    description: "Project repository"\n')
      await rejects(mem.small.handoff({ replayId: 'not-hex' }), 'INVALID_ARGUMENT', { field: 'replayId' })
      const manual = await mem.small.handoff({ replayId: 'AB'.repeat(32) })
      expect(manual.replayId).toEqual({ value: 'ab'.repeat(32), source: 'manual' })
      await mem.close()
    })

    test('two handles on one database see each other, and concurrent appends stay strictly ordered', async () => {
      const { open, human } = await setup()
      const a = await open()
      const b = await open()
      await a.small.import(env.valid, { identity: human })
      expect((await b.small.get('intent'))?.text).toBe(env.valid['intent.small.yml'])
      await Promise.all([
        ...Array.from({ length: 5 }, (_, i) => a.small.appendProgress({ task_id: 'task-2', evidence: `a${i}` })),
        ...Array.from({ length: 5 }, (_, i) => b.small.appendProgress({ task_id: 'task-2', evidence: `b${i}` })),
      ])
      for (const h of [a, b]) {
        const entries = (await h.small.get('progress'))!.data.entries
        expect(entries).toHaveLength(11)
        const report = await h.small.validate()
        expect(report.errors).toEqual([])
      }
      await a.close()
      await b.close()
    })
  })
}
