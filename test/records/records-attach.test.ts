import { afterEach, expect, test } from 'vitest'
import { SmpArtifactStore } from '../../src/artifacts/store.js'
import { createIdentity } from '../../src/core/identity.js'
import { GmpFactStore } from '../../src/facts/store.js'
import { PoolStore } from '../../src/pools/store.js'
import { RecordLog } from '../../src/records/log.js'
import { createSmallStore } from '../../src/small/store.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { ReadTx, StoragePort, WriteTx } from '../../src/storage/port.js'
import { WorkingStore } from '../../src/working/store.js'

// Issue 30: a module attaches to the record log by registering its deriver, which reads every stored
// record of its kinds. Facts, working, small and artifacts kept the first registration's promise,
// failed or not: one storage error at that read left the module refusing every call until the
// Memory was closed. Only pools tried again. Now every module attaches through records/attach.ts.

/** A storage port whose next read fails once, when armed (storage busy or full at the moment a module opens). */
class FailOnceStorage implements StoragePort {
  readonly #inner = new MemoryStorage()
  readonly kind = 'memory'
  readonly durable = false
  #armed = false
  #openFails: boolean
  failed = 0

  constructor(options: { readonly openFails?: boolean } = {}) {
    this.#openFails = options.openFails ?? false
  }

  arm(): void {
    this.#armed = true
  }
  open(): Promise<void> {
    if (this.#openFails) {
      this.#openFails = false
      this.failed++
      return Promise.reject(new Error('storage busy (injected)'))
    }
    return this.#inner.open()
  }
  close(): Promise<void> {
    return this.#inner.close()
  }
  read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    if (this.#armed) {
      this.#armed = false
      this.failed++
      return Promise.reject(new Error('storage busy (injected)'))
    }
    return this.#inner.read(tables, body)
  }
  write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.#inner.write(tables, body)
  }
}

const logs: RecordLog[] = []
afterEach(async () => {
  for (const log of logs.splice(0)) await log.close()
})

/** A Memory's record log on a port, opened and caught up, with the port's next read set to fail: the module's registration. */
async function failingLog(): Promise<{ log: RecordLog; port: FailOnceStorage }> {
  const port = new FailOnceStorage()
  const log = new RecordLog(port, { identity: await createIdentity() })
  logs.push(log)
  await log.ready()
  port.arm()
  return { log, port }
}

test('facts: a failed first registration is tried again by the next call', async () => {
  const { log, port } = await failingLog()
  const facts = new GmpFactStore(log)
  await expect(facts.retrieve('dark mode')).rejects.toThrow('storage busy')
  expect(port.failed).toBe(1)
  await facts.write('The user prefers dark mode')
  expect((await facts.retrieve('dark mode')).map((f) => f.content)).toEqual(['The user prefers dark mode'])
  await facts.close()
})

test('working: a failed first registration is tried again by the next call', async () => {
  const { log, port } = await failingLog()
  const working = new WorkingStore(log, { identity: log.identity })
  await expect(working.open('task-1')).rejects.toThrow('storage busy')
  expect(port.failed).toBe(1)
  const task = await working.open('task-1')
  await task.addObservation({ sourceAgentId: 'a', content: 'the build is green' })
  expect((await task.observations()).map((o) => o.content)).toEqual(['the build is green'])
  await working.close()
})

test('small: a failed first registration is tried again by the next call', async () => {
  const { log, port } = await failingLog()
  const small = createSmallStore(log, { identity: log.identity, humans: [log.identity!.did] })
  await expect(small.projects()).rejects.toThrow('storage busy')
  expect(port.failed).toBe(1)
  await small.put('intent', { small_version: '1.0.0', owner: 'human', intent: 'ship', scope: { include: [], exclude: [] }, success_criteria: [] })
  expect(await small.projects()).toHaveLength(1)
  await small.close()
})

test('artifacts: a failed first registration is tried again by the next call', async () => {
  const { log, port } = await failingLog()
  const artifacts = new SmpArtifactStore(log, { identity: log.identity })
  await expect(artifacts.list()).rejects.toThrow('storage busy')
  expect(port.failed).toBe(1)
  await artifacts.create('notes', { body: 'x\n' })
  expect((await artifacts.list()).map((a) => a.slug)).toEqual(['notes'])
  await artifacts.close()
})

test('pools: a failed first registration is tried again by the next call', async () => {
  const { log, port } = await failingLog()
  const pools = new PoolStore(log, { identity: log.identity })
  await expect(pools.list()).rejects.toThrow('storage busy')
  expect(port.failed).toBe(1)
  const pool = await pools.create()
  expect((await pools.list()).map((p) => p.id)).toEqual([pool.id])
  await pools.close()
})

test('the log: a storage open that failed is tried again by the next call', async () => {
  const port = new FailOnceStorage({ openFails: true })
  const log = new RecordLog(port, {})
  logs.push(log)
  const facts = new GmpFactStore(log)
  await expect(facts.write('The user prefers dark mode')).rejects.toThrow('storage busy')
  expect(port.failed).toBe(1)
  await facts.write('The user prefers dark mode')
  expect((await facts.retrieve('dark mode')).map((f) => f.content)).toEqual(['The user prefers dark mode'])
  await facts.close()
})
