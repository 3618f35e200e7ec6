import type { StoragePort } from '../../src/storage/port.js'

export interface RecordingOptions {
  /** Pass the inner port's `watch` through: a handle that hears other handles' commits. Deaf by default. */
  readonly hearing?: boolean
  /** Fail (throw) on a request issued after the body called `commit()`. */
  readonly strictCommit?: boolean
  /** Note `answer N` when an `after` read resolves, to show what was sent before the answer came. */
  readonly answers?: boolean
  /** Hide the optional `add()`, as a port without it: the log then catches up before each batch. */
  readonly withoutAdd?: boolean
}

/**
 * A storage port that writes down each write transaction's requests in order (`put records`,
 * `after log`, `commit`, ...). Record-log tests prove how many round trips a write batch costs,
 * and in what order its requests go, through it.
 */
export function recordingStorage(inner: StoragePort, options: RecordingOptions = {}): { port: StoragePort; transactions: string[][] } {
  const transactions: string[][] = []
  const port: StoragePort = {
    kind: inner.kind,
    durable: inner.durable,
    ...(options.hearing && inner.watch ? { watch: (listener: () => void) => inner.watch!(listener) } : {}),
    open: () => inner.open(),
    close: () => inner.close(),
    read: (tables, body) => inner.read(tables, body),
    write: (tables, body) =>
      inner.write(tables, (tx) => {
        const calls: string[] = []
        transactions.push(calls)
        const wrapped = new Proxy(tx, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver) as unknown
            // A port without commit() still shows where the body asked for it.
            if (prop === 'commit') {
              return () => {
                calls.push('commit')
                target.commit?.()
              }
            }
            if (prop === 'add' && options.withoutAdd) return undefined
            if (typeof value !== 'function') return value
            const fn = value as (...args: unknown[]) => unknown
            return (...args: unknown[]) => {
              const what = `${String(prop)} ${String(args[0])}`
              if (options.strictCommit && calls.at(-1) === 'commit') throw new Error(`${what} after commit()`)
              calls.push(what)
              const result = fn.apply(target, args)
              if (prop === 'after' && options.answers) {
                return (result as Promise<unknown[]>).then((rows) => {
                  calls.push(`answer ${rows.length}`)
                  return rows
                })
              }
              return result
            }
          },
        })
        return body(wrapped)
      }),
  }
  return { port, transactions }
}
