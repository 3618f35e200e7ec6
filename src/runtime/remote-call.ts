import * as Comlink from 'comlink'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
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
  invoke(...args: unknown[]): Promise<unknown>
}

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
  const wrapper: CallTarget & Comlink.ProxyMarked = Comlink.proxy({
    describe: () => ({ kind: typeof target === 'function' ? ('function' as const) : ('object' as const), data }),
    async call(method: string, ...args: unknown[]): Promise<unknown> {
      const how = crossing(surface, method)
      const fn = how === false || how === 'data' ? undefined : (target as Record<string, unknown>)[method]
      if (typeof fn !== 'function') throw notPublic(surface, method)
      return wrapResult(await (fn as (...a: unknown[]) => unknown).apply(target, args), how, `${surface.label}.${method}()`)
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
 * module's code) and keeps it. A failed ask is retried by the next call.
 */
export function lazyTarget(resolve: () => Promise<unknown>): Comlink.Remote<CallTarget> {
  let pending: Promise<Comlink.Remote<CallTarget>> | null = null
  const get = (): Promise<Comlink.Remote<CallTarget>> => {
    if (!pending) {
      const asked = resolve().then((t) => t as Comlink.Remote<CallTarget>)
      asked.catch(() => {
        if (pending === asked) pending = null
      })
      pending = asked
    }
    return pending
  }
  const lazy = {
    describe: async () => (await get()).describe(),
    call: async (method: string, ...args: unknown[]) => (await get()).call(method, ...args),
    invoke: async (...args: unknown[]) => (await get()).invoke(...args),
  }
  return lazy as unknown as Comlink.Remote<CallTarget>
}

/** Page side: an object whose methods call `target` in the worker. */
export function remoteObject<T extends object>(target: Comlink.Remote<CallTarget>, data: Readonly<Record<string, unknown>> = {}): T {
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>()
  return new Proxy({} as T, {
    get(_obj, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined
      if (prop in data) return data[prop]
      let m = methods.get(prop)
      if (!m) {
        m = async (...args: unknown[]) => unwrap(await target.call(prop, ...args.map(wrapArg)))
        methods.set(prop, m)
      }
      return m
    },
  })
}

function wrapArg(arg: unknown): unknown {
  return typeof arg === 'function' ? Comlink.proxy(arg as (...a: unknown[]) => unknown) : arg
}

async function unwrap(result: unknown): Promise<unknown> {
  // Plain results are never functions; a comlink Remote (a returned target) always is.
  if (typeof result !== 'function') return result
  const target = result as unknown as Comlink.Remote<CallTarget>
  const { kind, data } = await target.describe()
  if (kind === 'object') return remoteObject(target, data)
  return (...args: unknown[]) => target.invoke(...args.map(wrapArg)).then(unwrap)
}
