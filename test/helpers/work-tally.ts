import type { Key, ReadTx, StoragePort, WriteTx } from '../../src/storage/port.js'

/**
 * Counted work, for the tests that hold an operation's cost to O(change) by counting, not timing
 * (test/sync/sync-write-cost, sync-forget-cost: a synced write, a forget; test/pools/pools-join-view-cost:
 * a join's fact view): what was done, how many times or items, at two pool sizes, which a loaded
 * machine cannot blur.
 */

/** Counts by what was done: `put records`, `put records: rows`, `verify`, ... */
export type Tally = Map<string, number>

export const add = (t: Tally, what: string, n = 1): void => {
  t.set(what, (t.get(what) ?? 0) + n)
}

/** The tally's entries in name order (what the tests compare). */
export const sorted = (t: Tally): Array<[string, number]> => [...t].sort(([a], [b]) => a.localeCompare(b))

/**
 * What `big` did more of than `small`: empty when the bigger store costs no more. Exact: what timing
 * decided (the order concurrent writes reached a document, a pass's slice sized by measured ms) is
 * fixed by the test that counts, not allowed for here (test/sync/sync-forget-cost).
 */
export function beyond(big: Tally, small: Tally): Array<[string, number, number]> {
  return sorted(big).filter(([k, n]) => n > (small.get(k) ?? 0)).map(([k, n]): [string, number, number] => [k, n, small.get(k) ?? 0])
}

/**
 * A storage port that adds to `tally`, per table, the requests made (`get records`, `put
 * syncUpdates`, ...) and the rows they read, wrote or deleted, each name after `prefix`. Left out:
 * the `meta` table (the pools module saves its signature verdicts there, one row per 4,096
 * verified records, so where a save falls depends on how many were verified before) and the record
 * log's catch-up polls (`after log`: how many a write sees depends on timing; the rows they return
 * are counted).
 */
export function tallied(inner: StoragePort, tally: () => Tally, prefix = ''): StoragePort {
  const rows = (x: unknown): number => (Array.isArray(x) ? x.filter((r) => r !== undefined).length : x === undefined ? 0 : 1)
  const wrap = <T extends ReadTx>(tx: T): T =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown
        if (typeof value !== 'function') return value
        const fn = value as (...args: unknown[]) => unknown
        return (...args: unknown[]) => {
          const result = fn.apply(target, args)
          const table = String(args[0])
          if (table === 'meta' || prop === 'commit') return result
          const what = `${prefix}${String(prop)} ${table}`
          if (prop !== 'after') add(tally(), what)
          if (prop === 'put' || prop === 'delete' || prop === 'add') add(tally(), `${what}: rows`, (args[1] as readonly Key[]).length)
          else if (result instanceof Promise) {
            return result.then((got: unknown) => {
              if (typeof got !== 'number') add(tally(), `${what}: rows`, rows(got))
              return got
            })
          }
          return result
        }
      },
    })
  return throughPort(inner, wrap)
}

/**
 * `inner` with every transaction, read or write, handed to its body through `wrap` (a Proxy that
 * counts or records); `onWrite` runs as each write transaction is asked for.
 */
export function throughPort(inner: StoragePort, wrap: <T extends ReadTx>(tx: T) => T, onWrite?: () => void): StoragePort {
  return {
    kind: inner.kind,
    durable: inner.durable,
    open: () => inner.open(),
    close: () => inner.close(),
    read: (tables, body) => inner.read(tables, (tx) => body(wrap(tx))),
    write: (tables, body) => {
      onWrite?.()
      return inner.write(tables, (tx) => body(wrap(tx as WriteTx)))
    },
  }
}

/**
 * Counts calls of a real method while the test runs (`items` of each: the records a batch call
 * names; with `ofResult`, the rows a read returns under `<label>: rows`), under `label`; returns what
 * undoes it.
 */
export function counting<T extends object>(
  proto: T, name: keyof T & string, tally: () => Tally,
  items: (args: unknown[]) => number = () => 1,
  label: string = name,
  ofResult?: (result: unknown) => number,
): () => void {
  const original = proto[name] as unknown as (...args: unknown[]) => unknown
  ;(proto as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]): unknown {
    add(tally(), label, items(args))
    const result = original.apply(this, args)
    if (ofResult && result instanceof Promise) {
      return result.then((got: unknown) => {
        add(tally(), `${label}: rows`, ofResult(got))
        return got
      })
    }
    return result
  }
  return () => {
    ;(proto as Record<string, unknown>)[name] = original
  }
}

/**
 * Calls of built-in collection methods (`[Map.prototype, 'set']`, ...) made directly by code in one of
 * `files` while `body` runs: what a module puts per fact, counted instead of timed (the open-cost tests).
 */
export async function callsFrom(files: readonly string[], methods: ReadonlyArray<readonly [object, string]>, body: () => Promise<unknown>): Promise<number> {
  let n = 0
  // Frames: [0] the Error line, [1] fromFiles, [2] the patched method, [3] its caller.
  const fromFiles = (): boolean => {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 4
    const caller = new Error().stack?.split('\n')[3] ?? ''
    Error.stackTraceLimit = limit
    return files.some((f) => caller.includes(f))
  }
  const originals = methods.map(([proto, name]) => (proto as Record<string, (...args: unknown[]) => unknown>)[name]!)
  methods.forEach(([proto, name], i) => {
    const original = originals[i]!
    ;(proto as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]): unknown {
      if (fromFiles()) n++
      return original.apply(this, args)
    }
  })
  try {
    await body()
  } finally {
    methods.forEach(([proto, name], i) => {
      ;(proto as Record<string, unknown>)[name] = originals[i]
    })
  }
  return n
}
