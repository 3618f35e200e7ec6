import { describe, expect, test } from 'vitest'
import { decodeHlc } from '../../src/core/clock.js'
import { ErrorCode } from '../../src/core/errors.js'
import { RecordLog } from '../../src/records/log.js'
import { LOG_KEEP } from '../../src/records/trim.js'
import type { Deriver, LogChange } from '../../src/records/types.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'
import { logChanges, type LogRow, type StoredRecord } from '../../src/storage/schema.js'
import { CountingStorage } from '../helpers/counting-storage.js'

/** A deriver that keeps what it was told, to compare with what the log holds. */
class Probe implements Deriver {
  readonly held = new Map<string, StoredRecord>()
  /** Every delivery of a record id, to catch a record delivered twice. */
  readonly deliveries: string[] = []
  resets = 0
  settled = 0

  constructor(
    readonly name: string,
    readonly kinds: readonly string[],
  ) {}

  reset(): void {
    this.resets++
    this.held.clear()
  }
  receive(records: readonly StoredRecord[]): void {
    for (const r of records) {
      expect(this.kinds).toContain(r.kind)
      this.held.set(r.id, r)
      this.deliveries.push(r.id)
    }
  }
  removed(ids: readonly string[]): void {
    for (const id of ids) this.held.delete(id)
  }
  async settle(): Promise<void> {
    this.settled++
  }
}

function stored(storage: MemoryStorage, kind: string): Promise<StoredRecord[]> {
  return storage.read(['records'], (tx) => tx.where<StoredRecord>('records', 'kind', kind))
}

describe('RecordLog', () => {
  test('catch-up reads each record once and fans it out by kind', async () => {
    const shared = new MemoryStorage()
    const writer = new RecordLog(shared)
    const counted = new CountingStorage(shared)
    const reader = new RecordLog(counted)
    const a = new Probe('a', ['a'])
    const b = new Probe('b', ['b'])
    await reader.register(a)
    await reader.register(b)

    const records = Array.from({ length: 40 }, (_, i) => writer.seal(i % 2 ? 'a' : 'b', { i }))
    await Promise.all(records.map((r) => writer.append([r])))
    await writer.append([], [records[0]!.id])

    counted.reset()
    await reader.ready()
    // One read transaction; every stored record fetched once (the deleted one is looked up once and found gone).
    expect(counted.reads).toBe(1)
    expect(counted.recordsFetched).toBe(40)
    expect([...a.held.keys()].sort()).toEqual(records.filter((r) => r.kind === 'a').map((r) => r.id).sort())
    expect([...b.held.keys()].sort()).toEqual(records.slice(1).filter((r) => r.kind === 'b').map((r) => r.id).sort())
    expect(new Set(a.deliveries).size).toBe(a.deliveries.length)
    expect(new Set(b.deliveries).size).toBe(b.deliveries.length)

    // Nothing new: nothing is fetched or delivered again.
    counted.reset()
    const before = a.deliveries.length + b.deliveries.length
    await reader.ready()
    expect(counted.recordsFetched).toBe(0)
    expect(a.deliveries.length + b.deliveries.length).toBe(before)
    await writer.close()
    await reader.close()
  })

  test('the writes of one tick, from every module, commit in one transaction', async () => {
    const counted = new CountingStorage(new MemoryStorage())
    const log = new RecordLog(counted)
    const probes = ['fact', 'pool-memory', 'observation', 'artifact-version'].map((k) => new Probe(k, [k]))
    for (const p of probes) await log.register(p)
    counted.reset()
    // Four modules write in the same tick, each its own way.
    const pending = [
      log.write((w) => w.append([log.seal('fact', { n: 1 })])),
      log.append([log.seal('pool-memory', { n: 2 })]),
      log.write(async (w) => {
        await w.append([log.seal('observation', { n: 3 })])
        await w.tx.put('vectors', [{ ref: 'v1', embedder: 'x', vec: new Float32Array(2) }])
      }),
      log.write((w) => w.append([log.seal('artifact-version', { n: 4 })])),
    ]
    await Promise.all(pending)
    expect(counted.writes).toBe(1)
    for (const p of probes) expect(p.held.size).toBe(1)
    await log.close()
  })

  test('a write sees the earlier writes of its batch, and a failing write fails the batch and leaves storage as it was', async () => {
    const storage = new MemoryStorage()
    const log = new RecordLog(storage)
    const p = new Probe('p', ['p'])
    await log.register(p)
    const kept = log.seal('p', { kept: true })
    await log.append([kept])

    const first = log.write((w) => w.append([log.seal('p', { n: 1 })]))
    const second = log.write(() => p.held.size)
    const third = log.write(() => {
      throw new Error('refused')
    })
    await expect(first).rejects.toThrow('refused')
    await expect(second).rejects.toThrow('refused')
    await expect(third).rejects.toThrow('refused')
    // The batch's record reached the deriver before the commit failed: the next pass rebuilds from storage.
    await log.ready()
    expect([...p.held.keys()]).toEqual([kept.id])
    expect((await stored(storage, 'p')).map((r) => r.id)).toEqual([kept.id])
    expect(p.resets).toBeGreaterThanOrEqual(2)

    const n = await log.write(async (w) => {
      await w.append([log.seal('p', { n: 2 })])
      return p.held.size
    })
    expect(n).toBe(2)
    await log.close()
  })

  test('the log is trimmed by one rule, and a handle behind the floor reloads', async () => {
    const storage = new MemoryStorage()
    const log = new RecordLog(storage)
    const behind = new RecordLog(storage)
    const late = new Probe('late', ['k'])
    await behind.register(late)
    // One log row per commit: LOG_KEEP + 2,500 commits of one record each.
    const total = LOG_KEEP + 2500
    const records = Array.from({ length: total }, (_, i) => log.seal('k', { i }))
    for (const r of records) await log.append([r])
    const { rows, floor } = await storage.read(['log', 'meta'], async (tx) => ({
      rows: await tx.count('log'),
      floor: (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0,
    }))
    expect(floor).toBeGreaterThan(0)
    expect(floor).toBeLessThanOrEqual(total - LOG_KEEP)
    expect(rows).toBe(total - floor)
    expect(await storage.read(['log'], (tx) => tx.after<LogRow>('log', 0, 1))).toEqual([expect.objectContaining({ seq: floor + 1 })])

    const resets = late.resets
    await behind.ready()
    expect(late.resets).toBe(resets + 1)
    expect(late.held.size).toBe(total)
    expect(behind.position).toBe(total)
    await log.close()
    await behind.close()
  })

  test('one clock: stamps increase across modules, and pass every record delivered', async () => {
    let wall = 1_000
    const storage = new MemoryStorage()
    const log = new RecordLog(storage, { now: () => wall })
    const ahead = new RecordLog(storage, { now: () => wall + 60_000 })
    await log.register(new Probe('a', ['a']))
    await log.register(new Probe('b', ['b']))
    const stamps: string[] = []
    for (let i = 0; i < 50; i++) {
      const r = await log.write((w) => {
        const rec = log.seal(i % 2 ? 'a' : 'b', { i })
        return w.append([rec]).then(() => rec)
      })
      stamps.push(r.hlc)
      if (i % 10 === 0) wall++
    }
    expect([...stamps].sort()).toEqual(stamps)
    expect(new Set(stamps).size).toBe(stamps.length)
    // A record stamped by a handle whose clock runs a minute ahead: the next stamp here comes after it.
    const future = ahead.seal('a', { from: 'ahead' })
    await ahead.append([future])
    await log.ready()
    expect(log.tick() > future.hlc).toBe(true)
    expect(decodeHlc(log.tick()).wall).toBeGreaterThanOrEqual(decodeHlc(future.hlc).wall)
    await log.close()
    await ahead.close()
  })

  test('close() commits what was queued; a reopened log loads it', async () => {
    const storage = new MemoryStorage()
    const log = new RecordLog(storage)
    const queued = Array.from({ length: 30 }, (_, i) => log.seal('k', { i }))
    for (const r of queued) void log.append([r])
    const slow = log.track(async () => {
      await new Promise((r) => setTimeout(r, 20))
      return log.append([log.seal('k', { slow: true })])
    })
    // Another handle keeps the storage open after this log closes it.
    const reader = new RecordLog(storage)
    await reader.ready()
    await log.close()
    await slow
    const rows = await stored(storage, 'k')
    expect(rows).toHaveLength(31)
    await expect(log.append([log.seal('k', {})])).rejects.toMatchObject({ code: ErrorCode.CLOSED })
    await reader.close()

    const again = new RecordLog(new MemoryStorage({ initial: { records: rows } }))
    const p = new Probe('k', ['k'])
    await again.register(p)
    expect(p.held.size).toBe(31)
    await again.close()
  })

  test('onAppend: own commits at once, other handles\' on catch-up, each record once', async () => {
    const storage = new MemoryStorage()
    const log = new RecordLog(storage)
    const other = new RecordLog(storage)
    const feed: LogChange[] = []
    log.onAppend((c) => feed.push(c))
    await log.ready()
    const mine = log.seal('k', { mine: true })
    await log.append([mine])
    expect(feed).toEqual([{ records: [mine], removed: [], local: true, reload: false }])
    const theirs = other.seal('k', { theirs: true })
    await other.append([theirs], [mine.id])
    await log.ready()
    await log.ready()
    expect(feed.slice(1)).toEqual([{ records: [theirs], removed: [mine.id], local: false, reload: false }])
    await log.close()
    await other.close()
  })

  test('a deriver registered late loads what is stored, once, and then follows', async () => {
    const storage = new MemoryStorage()
    const log = new RecordLog(storage)
    const early = log.seal('k', { early: true })
    await log.append([early])
    const p = new Probe('k', ['k'])
    await log.register(p)
    expect(p.deliveries).toEqual([early.id])
    const next = log.seal('k', { next: true })
    await log.append([next])
    await log.ready()
    expect(p.deliveries).toEqual([early.id, next.id])
    expect(p.settled).toBeGreaterThan(0)
    await log.close()
  })

  test('a forwarded named write commits once, even when resent', async () => {
    const storage = new MemoryStorage()
    const leader = new RecordLog(storage)
    const follower = new RecordLog(storage)
    const p = new Probe('k', ['k'])
    await follower.register(p)
    let sent = 0
    follower.setForwarder(async (write) => {
      sent++
      // The leader changed and the follower resent: the same request id reaches the log twice.
      await leader.commitForwarded(write.name, write.args, 'req-1')
      return leader.commitForwarded(write.name, write.args, 'req-1')
    })
    const r = follower.seal('k', { via: 'leader' })
    await follower.append([r])
    expect(sent).toBe(1)
    expect(p.held.has(r.id)).toBe(true)
    const log = await storage.read(['log'], (tx) => tx.all<LogRow>('log'))
    let puts = 0
    logChanges(log, (op, ref) => void (op === 'put' && ref === r.id && puts++))
    expect(puts).toBe(1)
    await leader.close()
    await follower.close()
  })
})

test('hlcWall reads the wall time decodeHlc reads, from stamps the clock issues and from malformed ones', async () => {
  const { MAX_WALL_MS, decodeHlc, encodeHlc, hlcWall } = await import('../../src/core/clock.js')
  const stamps = ['', 'zz', '01a210ebee48', '01a210ebee48.000003', '01a210ebee48.000003.dd39a833', '.5.x', 'g.1.2', 'ffffffffffff.1000001', '1fffffffffffff.000000']
  for (let i = 0; i < 50; i++) stamps.push(encodeHlc({ wall: Math.floor(Math.random() * MAX_WALL_MS), counter: i, ...(i % 2 ? { node: `n${i}` } : {}) }))
  for (const s of stamps) expect(Object.is(hlcWall(s), decodeHlc(s).wall)).toBe(true)
})
