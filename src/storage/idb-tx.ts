import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Key, WriteTx } from './port.js'

/** The methods of `IDBKeyRange` a transaction here uses (the browser's, or fake-indexeddb's in Node). */
export interface LowerBound {
  lowerBound(lower: unknown, open?: boolean): unknown
  /** Both optional for a range passed before `between` used them: without them, `between` is absent. */
  upperBound?(upper: unknown, open?: boolean): unknown
  bound?(lower: unknown, upper: unknown, lowerOpen?: boolean, upperOpen?: boolean): unknown
}

/**
 * One request as a promise. It settles in the request's own event, so the code after an `await`
 * runs as a microtask while the transaction is still active and may issue the next request.
 * Marked as handled: when a body fails part-way, the requests it left pending reject on the abort,
 * and nobody awaits them.
 */
function request<T>(req: IDBRequest<T>): Promise<T> {
  const p = new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  p.catch(() => undefined)
  return p
}

/**
 * Requests issued together, as one promise of their results in order: settled by the last one's
 * event, because a transaction runs its requests in order and the first that fails aborts it
 * (every later one then fails too); rejected with that first error. One promise and one handler
 * call for a batch's 1,000 puts rather than a thousand.
 */
function requests<T>(reqs: ReadonlyArray<IDBRequest<T>>): Promise<T[]> {
  const last = reqs.at(-1)
  if (!last) return Promise.resolve([])
  let first: DOMException | null = null
  const failed = (e: Event): void => {
    first ??= (e.target as IDBRequest).error
  }
  for (const req of reqs) req.onerror = failed
  const p = new Promise<T[]>((resolve, reject) => {
    last.onsuccess = () => resolve(reqs.map((req) => req.result))
    last.onerror = (e) => {
      failed(e)
      reject(first)
    }
  })
  p.catch(() => undefined)
  return p
}

/** IndexedDB's order of the keys memweave uses: every number before every string, strings by code unit. */
function compareIdbKeys(a: Key, b: Key): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * A transaction body's view of one native IndexedDB transaction (dexie-adapter.ts runs every
 * transaction through it). Why not Dexie's transaction: Dexie wraps each transaction and request
 * in its own promise zone and broadcasts every commit for its liveQuery, which memweave does not
 * use. On an awaited single write in Chromium that was about a quarter of the write's time (p50
 * 1.9 ms with Dexie's transactions, 1.4 without; bench/HISTORY.md, "Issue 31, third round").
 * Dexie still owns the database: it opens it and upgrades its schema.
 */
class IdbTx implements WriteTx {
  readonly #trans: IDBTransaction
  readonly #range: LowerBound

  /** Present when the key range type has `bound` and `upperBound` (the browser's and fake-indexeddb's do). */
  readonly between?: <T>(table: string, from: Key | null, to: Key | null) => Promise<T[]>
  /** Present under the same condition: it counts the index's ranges between the values. */
  readonly countOthers?: (table: string, index: string, values: readonly Key[]) => Promise<number>

  constructor(trans: IDBTransaction, range: LowerBound) {
    this.#trans = trans
    this.#range = range
    const { bound, upperBound } = range
    if (bound && upperBound) {
      this.between = <T>(table: string, from: Key | null, to: Key | null): Promise<T[]> => {
        const keys = from === null ? (to === null ? null : upperBound.call(range, to, true)) : to === null ? range.lowerBound(from) : bound.call(range, from, to, false, true)
        return request(this.#store(table).getAll(keys as IDBKeyRange | null)) as Promise<T[]>
      }
      this.countOthers = async (table: string, index: string, values: readonly Key[]): Promise<number> => {
        const sorted = [...new Set(values)].sort(compareIdbKeys)
        if (sorted.length === 0) return request(this.#store(table).count())
        // The index entries below the first value, between each two, and above the last.
        const ranges: unknown[] = [upperBound.call(range, sorted[0], true)]
        for (let i = 1; i < sorted.length; i++) ranges.push(bound.call(range, sorted[i - 1], sorted[i], true, true))
        ranges.push(range.lowerBound(sorted.at(-1), true))
        const byIndex = this.#store(table).index(index)
        const counts = await requests(ranges.map((r) => byIndex.count(r as IDBKeyRange)))
        return counts.reduce((a, b) => a + b, 0)
      }
    }
  }

  #store(table: string): IDBObjectStore {
    return this.#trans.objectStore(table)
  }

  async get<T>(table: string, key: Key): Promise<T | undefined> {
    return request(this.#store(table).get(key)) as Promise<T | undefined>
  }

  async getMany<T>(table: string, keys: readonly Key[]): Promise<Array<T | undefined>> {
    const store = this.#store(table)
    return requests(keys.map((k) => store.get(k))) as Promise<Array<T | undefined>>
  }

  async all<T>(table: string): Promise<T[]> {
    return request(this.#store(table).getAll()) as Promise<T[]>
  }

  async after<T>(table: string, after: Key, limit = Infinity): Promise<T[]> {
    const range = this.#range.lowerBound(after, true) as IDBKeyRange
    return request(this.#store(table).getAll(range, Number.isFinite(limit) ? limit : undefined)) as Promise<T[]>
  }

  async last<T>(table: string): Promise<T | undefined> {
    const cursor = await request(this.#store(table).openCursor(null, 'prev'))
    return (cursor?.value ?? undefined) as T | undefined
  }

  async where<T>(table: string, index: string, value: Key): Promise<T[]> {
    return request(this.#store(table).index(index).getAll(value)) as Promise<T[]>
  }

  async countWhere(table: string, index: string, value: Key): Promise<number> {
    return request(this.#store(table).index(index).count(value))
  }

  async count(table: string): Promise<number> {
    return request(this.#store(table).count())
  }

  put(table: string, rows: readonly object[]): Promise<Key[]> {
    const store = this.#store(table)
    // A row that cannot be cloned throws here, before the later rows are issued; the body's failure aborts the rest.
    // Thrown, not returned as a rejection (no `async`): a caller that issues puts and commit() in one go
    // (BufferedTx.putNow) fails before the commit, which would make the rows issued before it durable.
    return requests(rows.map((row) => store.put(row))) as Promise<Key[]>
  }

  async add(table: string, rows: readonly object[]): Promise<Key[]> {
    const store = this.#store(table)
    return requests(rows.map((row) => store.add(row))) as Promise<Key[]>
  }

  async delete(table: string, keys: readonly Key[]): Promise<void> {
    const store = this.#store(table)
    await requests(keys.map((k) => store.delete(k)))
  }

  commit(): void {
    // Chrome 76+, Firefox 74+, Safari 15+; elsewhere the transaction commits when the body returns.
    if (typeof this.#trans.commit === 'function') this.#trans.commit()
  }
}

/**
 * Runs `body` in one native transaction and resolves with its result once the transaction has
 * committed (a resolved write is durable). A body that throws aborts it: nothing it wrote stays.
 * A transaction that commits before its body is done (the body awaited something other than its
 * own requests, which port.ts forbids) is reported as a STORAGE error, as Dexie reported it.
 * Errors are the backend's own (DOMException); the adapter translates them.
 */
export async function runIdbTransaction<T>(
  db: IDBDatabase, tables: readonly string[], mode: IDBTransactionMode, range: LowerBound, body: (tx: WriteTx) => Promise<T>,
): Promise<T> {
  const trans = db.transaction(tables as string[], mode)
  let bodyDone = false
  let early = false
  const finished = new Promise<void>((resolve, reject) => {
    trans.oncomplete = () => {
      early = !bodyDone
      resolve()
    }
    trans.onabort = () => reject(trans.error ?? new DOMException('the transaction was aborted', 'AbortError'))
  })
  // Observed below, or dropped when the body's own error is the one to report.
  finished.catch(() => undefined)
  const tooEarly = (cause?: unknown): MemweaveError =>
    new MemweaveError(ErrorCode.STORAGE, 'the transaction committed before its body finished: a body must await only its own requests', {}, { cause })
  let result: T
  try {
    result = await body(new IdbTx(trans, range))
  } catch (err) {
    bodyDone = true
    // A request made after the commit fails as the closed transaction's (InvalidStateError): the cause is the early commit.
    if (early) throw tooEarly(err)
    try {
      trans.abort()
    } catch {
      // Already aborted: nothing left to undo here.
    }
    throw err
  }
  bodyDone = true
  await finished
  if (early) throw tooEarly()
  return result
}
