import type { ArtifactStore } from '../artifacts/types.js'
import type { FactStore } from '../facts/types.js'
import type { MemoryModule } from '../memory-modules.js'
import type { Pools } from '../pools/types.js'
import type { SmallStore } from '../small/store-api.js'
import type { Sync } from '../sync/types.js'
import type { SharedWorkingMemory, WorkingMemory } from '../working/types.js'

/**
 * What may cross the page<->worker boundary, module by module: only the public API, as the public
 * interfaces declare it. The objects behind those interfaces carry more (`GmpFactStore.hold`,
 * `entry`, `writeMany`, `versionsWhere` are `@internal`, for the modules that build on facts), and
 * a page must not reach them by naming them. As in comlink's protocol.ts, the boundary names what
 * it carries instead of refusing a few words: a name that is not listed here is refused
 * (remote-call.ts), whatever the object in the worker has.
 *
 * Each list is typed against its interface (`satisfies Surface<FactStore>`), so a member added to a
 * public interface without an entry here fails the typecheck, and so does an entry the interface
 * does not have.
 */

/** A handle's surface: the allow-list of an object a method returns (a working-memory task). */
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

/** A null-prototype copy, so that a lookup by name never finds `constructor`, `__proto__` or `toString`. */
function members<T>(list: Surface<T>): Readonly<Record<string, Crossing>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, Crossing>, list))
}

const factStore = {
  capabilities: 'call',
  policy: 'call',
  write: 'call',
  assert: 'call',
  supersede: 'call',
  delete: 'call',
  retrieve: 'call',
  audit: 'call',
  get: 'call',
  conflicts: 'call',
  flush: 'call',
  verifyProvenance: 'call',
  refresh: 'call',
  subscribe: 'call',
} as const satisfies Surface<FactStore>

const pools = {
  create: 'call',
  info: 'call',
  list: 'call',
  access: 'call',
  share: 'call',
  revoke: 'call',
  configure: 'call',
  write: 'call',
  update: 'call',
  get: 'call',
  status: 'call',
  query: 'call',
  merge: 'call',
  forget: 'call',
  forgotten: 'call',
  rate: 'call',
  conflicts: 'call',
  conflictGroups: 'call',
  resolve: 'call',
  sweep: 'call',
  export: 'call',
  import: 'call',
  flush: 'call',
} as const satisfies Surface<Pools>

const task = {
  taskId: 'data',
  config: 'data',
  addObservation: 'call',
  getContextForAgent: 'call',
  flagConflict: 'call',
  getConflicts: 'call',
  resolveConflict: 'call',
  getBeliefCandidates: 'call',
  applyAttentionDecay: 'call',
  boostAttention: 'call',
  endIteration: 'call',
  observations: 'call',
  get: 'call',
  evicted: 'call',
} as const satisfies Surface<SharedWorkingMemory>

/** A working-memory task (`mem.working.open()`'s result), called in the worker. */
export const TASK_SURFACE: HandleSurface = { label: 'working task', members: members<SharedWorkingMemory>(task) }

const working = {
  open: TASK_SURFACE,
} as const satisfies Surface<WorkingMemory>

const small = {
  get: 'call',
  put: 'call',
  appendProgress: 'call',
  handoff: 'call',
  validate: 'call',
  import: 'call',
  export: 'call',
  replayId: 'call',
  conflicts: 'call',
  projects: 'call',
  flush: 'call',
  // The worker's memory is shared by every tab that opened it: the page closes it with mem.close().
  close: false,
} as const satisfies Surface<SmallStore>

const artifacts = {
  create: 'call',
  commit: 'call',
  read: 'call',
  list: 'call',
  search: 'call',
  merge: 'call',
  log: 'call',
  history: 'call',
  import: 'call',
  flush: 'call',
  refresh: 'call',
} as const satisfies Surface<ArtifactStore>

const sync = {
  open: 'call',
  connect: 'call',
  // A provider is an object with methods: it cannot be cloned into the worker (in-process only, see Sync.attach).
  attach: false,
  disconnect: 'call',
  stop: 'call',
  status: 'call',
  subscribe: 'call',
  quarantine: 'call',
  compact: 'call',
  flush: 'call',
  // As small.close: one page must not stop the replica every tab shares.
  close: false,
} as const satisfies Surface<Sync>

/** The surface of each module of a Memory, by the name it has on Memory. */
export const MODULE_SURFACES: { readonly [K in MemoryModule]: HandleSurface } = {
  facts: { label: 'facts', members: members<FactStore>(factStore) },
  pools: { label: 'pools', members: members<Pools>(pools) },
  working: { label: 'working', members: members<WorkingMemory>(working) },
  small: { label: 'small', members: members<SmallStore>(small) },
  artifacts: { label: 'artifacts', members: members<ArtifactStore>(artifacts) },
  sync: { label: 'sync', members: members<Sync>(sync) },
}

/** A function the worker hands back (an unsubscribe): the page may only invoke it. */
export const FUNCTION_SURFACE: HandleSurface = { label: 'function', members: Object.freeze(Object.create(null) as Record<string, Crossing>) }

/** How `name` crosses on `surface`; false for anything not listed (own entries only). */
export function crossing(surface: HandleSurface, name: unknown): Crossing {
  if (typeof name !== 'string' || !Object.hasOwn(surface.members, name)) return false
  return surface.members[name] ?? false
}
