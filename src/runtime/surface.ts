/**
 * What may cross the page<->worker boundary: only the public API, as the public interfaces
 * declare it. The objects behind those interfaces carry more (`GmpFactStore.hold`, `entry`,
 * `writeMany`, `versionsWhere` are `@internal`, for the modules that build on facts), and a page
 * must not reach them by naming them. As in comlink's protocol.ts, the boundary names what it
 * carries instead of refusing a few words: a name that is not listed is refused (remote-call.ts),
 * whatever the object in the worker has. The lists are in surfaces/, one file per module.
 *
 * Each list is written as `surfaceOf<FactStore>(...)`, so a member added to a public interface
 * without an entry fails the typecheck, and so does an entry the interface does not have.
 */

/** A surface: the allow-list of a module or of an object a method returns (a working-memory task). */
export interface HandleSurface {
  readonly label: string
  readonly members: Readonly<Record<string, Crossing>>
}

/**
 * How one member crosses: `'call'` a method the page may call; `'data'` a plain property copied
 * to the page with the object; a {@link HandleSurface} a method whose result is an object with
 * methods, kept in the worker and called through that surface; `false` stays in the worker.
 */
export type Crossing = 'call' | 'data' | false | HandleSurface

/** One entry for every member of `T`, no more. */
export type Surface<T> = { readonly [K in keyof T]-?: Crossing }

/** The surface of an interface `T`; kept in a null-prototype object, so that no lookup finds `constructor`, `__proto__` or `toString`. */
export function surfaceOf<T>(label: string, list: Surface<T>): HandleSurface {
  return { label, members: Object.freeze(Object.assign(Object.create(null) as Record<string, Crossing>, list)) }
}

/** A function the worker hands back (an unsubscribe): the page may only invoke it. */
export const FUNCTION_SURFACE: HandleSurface = surfaceOf<object>('function', {})

/** How `name` crosses on `surface`; false for anything not listed (own entries only). */
export function crossing(surface: HandleSurface, name: unknown): Crossing {
  if (typeof name !== 'string' || !Object.hasOwn(surface.members, name)) return false
  return surface.members[name] ?? false
}
