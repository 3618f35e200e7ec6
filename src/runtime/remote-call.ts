import * as Comlink from 'comlink'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { errorFromWire, errorToWire, type WireError } from './error-transfer.js'
import { FUNCTION_SURFACE, crossing, type Crossing, type HandleSurface } from './surface.js'

/**
 * One generic way for every module of a Memory to cross the worker boundary, so a module added
 * to Memory works through openMemory() without a hand-written mirror (its public methods are
 * listed once, in surfaces/, checked against its interface by the compiler). The page calls
 * `call(method, ...args)` on a module's target in the worker. Plain results are cloned. A function
 * result (an unsubscribe) or an object with methods (a working-memory task handle) stays in the
 * worker: it comes back as another target, which the page turns into a function or an object.
 * (comlink transfers proxies only as top-level arguments and return values, hence targets.)
 */
export interface CallTarget {
  describe(): { readonly kind: 'object' | 'function'; readonly data: Readonly<Record<string, unknown>> }
  /** Arguments are spread, not an array: comlink proxies callbacks only when they are top-level arguments. */
  call(method: string, ...args: unknown[]): Promise<unknown>
  /**
   * Calls made in one tick of the page, in one message (a burst of writes): each is run as `call`
   * runs it, started in the order given, and all are answered together once every one settled.
   */
  callMany(calls: readonly BatchedCall[]): Promise<CallOutcome[]>
  /** The object with methods (or the function) a batched call returned, by the id its outcome named; once. */
  claim(id: string): CallTarget
  invoke(...args: unknown[]): Promise<unknown>
}

/**
 * The call protocol a worker speaks, answered by the host's `ping()`: 2 has `callMany` and
 * `claim`. A page batches only with a worker that answered 2 or more: a SharedWorker of an older
 * build, still running for another tab, gets one message per call as before.
 */
export const CALL_PROTOCOL = 2

/** One call of a batch: what `call(method, ...args)` takes. */
export interface BatchedCall {
  readonly method: string
  readonly args: readonly unknown[]
}

/**
 * How one call of a batch ended: its plain result, its error as data (error-transfer.ts), or the id
 * of a result that stays in the worker (a function or an object with methods) for `claim`.
 */
export type CallOutcome = { readonly value: unknown } | { readonly error: WireError } | { readonly held: string }

function isHandle(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) return false
  if (value instanceof Date || value instanceof Map || value instanceof Set) return false
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key !== 'constructor' && typeof (value as Record<string, unknown>)[key] === 'function') return true
    }
  }
  return false
}

/**
 * Worker side: wraps a module, a handle or a function so the page can call it. Only the members
 * `surface` lists cross (surface.ts, surfaces/): any other name, whatever `target` has, is refused
 * with INVALID_ARGUMENT naming the module and the method. The wrapper is frozen: a raw comlink
 * SET cannot swap its methods for another tab's calls (in a SharedWorker the targets are shared).
 */
export function callTarget(target: object, surface: HandleSurface): CallTarget & Comlink.ProxyMarked {
  const data: Record<string, unknown> = {}
  if (typeof target !== 'function') {
    for (const [key, value] of Object.entries(target)) {
      if (crossing(surface, key) === 'data' && typeof value !== 'function' && isCloneable(value)) data[key] = value
    }
  }
  const call = async (method: string, ...args: unknown[]): Promise<unknown> => {
    const how = crossing(surface, method)
    const fn = how === false || how === 'data' ? undefined : (target as Record<string, unknown>)[method]
    if (typeof fn !== 'function') throw notPublic(surface, method)
    return wrapResult(await (fn as (...a: unknown[]) => unknown).apply(target, args), how, `${surface.label}.${method}()`)
  }
  // Results of batched calls that stay here until the page claims them (comlink carries a proxy
  // only as a whole return value). Ids are random: in a SharedWorker, other tabs share this target.
  // The page claims on receipt; one whose tab closed in between stays until the memory closes.
  const held = new Map<string, CallTarget>()
  const wrapper: CallTarget & Comlink.ProxyMarked = Comlink.proxy({
    describe: () => ({ kind: typeof target === 'function' ? ('function' as const) : ('object' as const), data }),
    call,
    async callMany(calls: readonly BatchedCall[]): Promise<CallOutcome[]> {
      if (!Array.isArray(calls)) throw invalidArgument('calls', 'must be an array of { method, args }')
      // Each is started before the next, as separate messages would be, so one tick's writes share a batch.
      const settled = await Promise.allSettled(calls.map((c: Partial<BatchedCall> | null) => {
        if (typeof c !== 'object' || c === null || !Array.isArray(c.args)) return Promise.reject(invalidArgument('calls', 'each call must be { method, args }'))
        return call(c.method as string, ...c.args)
      }))
      return settled.map((s): CallOutcome => {
        if (s.status === 'rejected') return { error: errorToWire(s.reason) }
        if (!isTarget(s.value)) return { value: s.value }
        const id = crypto.randomUUID()
        held.set(id, s.value)
        return { held: id }
      })
    },
    claim(id: string): CallTarget {
      const got = held.get(id)
      if (!got) throw invalidArgument('id', 'names no result held for this page')
      held.delete(id)
      return got
    },
    async invoke(...args: unknown[]): Promise<unknown> {
      if (typeof target !== 'function') throw invalidArgument('target', `${surface.label} is not a function`)
      return wrapResult(await (target as (...a: unknown[]) => unknown)(...args), 'call', surface.label)
    },
  })
  // Frozen once marked (Comlink.proxy adds its marker property): no member can be replaced.
  return Object.freeze(wrapper)
}

function notPublic(surface: HandleSurface, method: unknown): MemweaveError {
  const name = typeof method === 'string' ? method : String(method as never)
  return new MemweaveError(
    ErrorCode.INVALID_ARGUMENT,
    `${surface.label}.${name} is not public: only the public API of ${surface.label} crosses the worker boundary`,
    { field: 'method', module: surface.label, method: name },
  )
}

function isCloneable(value: unknown): boolean {
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

function isTarget(value: unknown): value is CallTarget {
  return typeof value === 'object' && value !== null && (value as Record<PropertyKey, unknown>)[Comlink.proxyMarker] === true
}

/** A function result becomes an invocable target; an object with methods, a target on the surface the method declares. */
function wrapResult(result: unknown, how: Crossing, label: string): unknown {
  if (typeof result === 'function') return callTarget(result, { ...FUNCTION_SURFACE, label })
  if (!isHandle(result)) return result
  if (typeof how !== 'object') {
    throw new MemweaveError(ErrorCode.INTERNAL, `${label} returned an object with methods that no surface in src/runtime/surfaces/ declares`, { operation: label })
  }
  return callTarget(result, how)
}

/**
 * Page side: a target that asks for the real one on its first call (the worker then loads that
 * module's code) and keeps it, or at once with `eager` (a module with no code to load: the first
 * call then waits for no extra round trip). A failed ask is retried by the next call.
 */
export function lazyTarget(resolve: () => Promise<unknown>, eager = false): Comlink.Remote<CallTarget> {
  let pending: Promise<HotCalls> | null = null
  const get = (): Promise<HotCalls> => {
    if (!pending) {
      const asked = resolve().then((t) => new HotCalls(t as Comlink.Remote<CallTarget>))
      asked.catch(() => {
        if (pending === asked) pending = null
      })
      pending = asked
    }
    return pending
  }
  const lazy = {
    describe: async () => (await get()).target.describe(),
    call: async (method: string, ...args: unknown[]) => (await get()).call(method, ...args),
    callMany: async (calls: readonly BatchedCall[]) => (await get()).callMany(calls),
    claim: async (id: string) => (await get()).target.claim(id),
    invoke: async (...args: unknown[]) => (await get()).target.invoke(...args),
  }
  // An eager ask that fails is not reported here: the next call asks again and gets the error.
  if (eager) get().catch(() => undefined)
  return lazy as unknown as Comlink.Remote<CallTarget>
}

/**
 * Page side: an object whose methods call `target` in the worker. With `batch` (a worker of
 * CALL_PROTOCOL 2 or later), calls of one method made in the same tick cross as one message
 * (`callMany`), so a burst of 1,000 writes is one message each way rather than 2,000, and the
 * writes reach the worker's batcher in one task: one transaction.
 */
export function remoteObject<T extends object>(target: Comlink.Remote<CallTarget>, data: Readonly<Record<string, unknown>> = {}, batch = false): T {
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>()
  const hot = new HotCalls(target)
  const calls = batch ? new CallQueue(hot) : null
  return new Proxy({} as T, {
    get(_obj, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined
      if (prop in data) return data[prop]
      let m = methods.get(prop)
      if (!m) {
        m = async (...args: unknown[]) => unwrap(await (calls ? calls.call(prop, args) : hot.call(prop, ...args.map(wrapArg))), batch)
        methods.set(prop, m)
      }
      return m
    },
  })
}

interface Queued {
  readonly method: string
  readonly args: readonly unknown[]
  readonly resolve: (value: unknown) => void
  readonly reject: (reason: unknown) => void
}

/**
 * The calls a page makes on one target during a tick, sent at its end (a microtask) in the order
 * made: a run of calls to one method as one `callMany` message, a lone call as `call`. Only a run of
 * the same method shares a message, because a batch is answered when its slowest call settles: a
 * `status()` must not wait for the `connect()` beside it. A call with a callback goes alone, at
 * once: comlink proxies a function only as a top-level argument.
 */
class CallQueue {
  readonly #target: HotCalls
  #queue: Queued[] = []

  constructor(target: HotCalls) {
    this.#target = target
  }

  call(method: string, args: readonly unknown[]): Promise<unknown> {
    if (args.some((a) => typeof a === 'function')) {
      this.#flush()
      return this.#target.call(method, ...args.map(wrapArg))
    }
    return new Promise((resolve, reject) => {
      if (this.#queue.push({ method, args, resolve, reject }) === 1) queueMicrotask(() => this.#flush())
    })
  }

  #flush(): void {
    const queue = this.#queue
    this.#queue = []
    for (let from = 0; from < queue.length; ) {
      let to = from + 1
      while (to < queue.length && queue[to]!.method === queue[from]!.method) to++
      this.#send(queue.slice(from, to))
      from = to
    }
  }

  #send(run: readonly Queued[]): void {
    if (run.length === 1) {
      const [{ method, args, resolve, reject }] = run as [Queued]
      this.#target.call(method, ...args).then(resolve, reject)
      return
    }
    this.#target.callMany(run.map(({ method, args }) => ({ method, args }))).then(
      (outcomes) =>
        run.forEach((c, i) => {
          const o = outcomes[i]
          if (o && 'value' in o) c.resolve(o.value)
          else if (o && 'held' in o) c.resolve(this.#target.target.claim(o.held))
          else c.reject(o ? errorFromWire(o.error) : new MemweaveError(ErrorCode.INTERNAL, 'the worker answered a batch of calls with fewer outcomes', { operation: c.method }))
        }),
      (err: unknown) => run.forEach((c) => c.reject(err)),
    )
  }
}

/**
 * The members a page calls per operation (`call`, `callMany`), each read from the comlink Remote
 * once. Reading a member of a Remote makes a new comlink proxy and registers it with comlink's
 * FinalizationRegistry, whose callback later runs on the page when the proxy is collected: read
 * per call, every write paid that (issue 31, session 13). A member's proxy holds only its path, so
 * one serves every call; the handle and its members are collected together, as before, so a
 * dropped handle still releases its port.
 */
class HotCalls {
  #call: Comlink.Remote<CallTarget>['call'] | undefined
  #callMany: Comlink.Remote<CallTarget>['callMany'] | undefined

  constructor(readonly target: Comlink.Remote<CallTarget>) {}

  call(method: string, ...args: unknown[]): Promise<unknown> {
    return (this.#call ??= this.target.call)(method, ...args)
  }

  callMany(calls: readonly BatchedCall[]): Promise<CallOutcome[]> {
    return (this.#callMany ??= this.target.callMany)(calls)
  }
}

function wrapArg(arg: unknown): unknown {
  return typeof arg === 'function' ? Comlink.proxy(arg as (...a: unknown[]) => unknown) : arg
}

async function unwrap(result: unknown, batch: boolean): Promise<unknown> {
  // Plain results are never functions; a comlink Remote (a returned target) always is.
  if (typeof result !== 'function') return result
  const target = result as unknown as Comlink.Remote<CallTarget>
  const { kind, data } = await target.describe()
  if (kind === 'object') return remoteObject(target, data, batch)
  return (...args: unknown[]) => target.invoke(...args.map(wrapArg)).then((r) => unwrap(r, batch))
}
