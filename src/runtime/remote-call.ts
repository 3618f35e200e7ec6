import * as Comlink from 'comlink'
import { invalidArgument } from '../core/errors.js'

/**
 * One generic way for every module of a Memory to cross the worker boundary, so a module added
 * to Memory works through openMemory() without a hand-written mirror. The page calls
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

const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype', 'then', 'close'])

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

/** Worker side: wraps a module, a handle or a function so the page can call it. */
export function callTarget(target: object, label: string): CallTarget & Comlink.ProxyMarked {
  const data: Record<string, unknown> = {}
  if (typeof target !== 'function') {
    for (const [key, value] of Object.entries(target)) if (typeof value !== 'function' && isCloneable(value)) data[key] = value
  }
  return Comlink.proxy({
    describe: () => ({ kind: typeof target === 'function' ? ('function' as const) : ('object' as const), data }),
    async call(method: string, ...args: unknown[]): Promise<unknown> {
      const fn = (target as Record<string, unknown>)[method]
      if (typeof method !== 'string' || method.startsWith('_') || FORBIDDEN.has(method) || typeof fn !== 'function') {
        throw invalidArgument('method', `${label} has no method "${String(method)}"`)
      }
      return wrapResult(await (fn as (...a: unknown[]) => unknown).apply(target, args), `${label}.${method}()`)
    },
    async invoke(...args: unknown[]): Promise<unknown> {
      if (typeof target !== 'function') throw invalidArgument('target', `${label} is not a function`)
      return wrapResult(await (target as (...a: unknown[]) => unknown)(...args), label)
    },
  })
}

function isCloneable(value: unknown): boolean {
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

function wrapResult(result: unknown, label: string): unknown {
  return typeof result === 'function' || isHandle(result) ? callTarget(result as object, label) : result
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
