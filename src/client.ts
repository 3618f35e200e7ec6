import * as Comlink from 'comlink'
import { ErrorCode, MemweaveError, invalidArgument } from './core/errors.js'
import { identityKeys, type Identity } from './core/identity.js'
import type { Capability } from './facts/capabilities.js'
import type { Memory } from './memory.js'
import type { ConflictJudgeOptions } from './conflict-judge/types.js'
import type { BackupExportOptions, BackupImportOptions, BackupImportReport } from './backup/index.js'
import { chunksOf, type BackupSource } from './backup/source.js'
import { MEMORY_MODULES, type MemoryModule } from './memory-modules.js'
import { installErrorTransfer } from './runtime/error-transfer.js'
import type { HostedMemory, JudgeSettings, MemoryHost, PageJudge, WorkerOpenOptions } from './runtime/host.js'
import { CALL_PROTOCOL, lazyTarget, remoteObject, type CallTarget } from './runtime/remote-call.js'

export interface OpenMemoryOptions {
  /** IndexedDB database name. Default `'memweave'`. */
  readonly name?: string
  /** The agent's identity (from createIdentity, seed or non-extractable CryptoKey); it signs writes in the worker. */
  readonly identity?: Identity | null
  readonly capabilities?: readonly Capability[]
  /** As createMemory's `facts`: multi-valued predicates, and `freeTextConflicts: false` to stop looking for contradictions between text-only facts. */
  readonly facts?: { readonly multiValuedPredicates?: readonly string[]; readonly freeTextConflicts?: boolean }
  /** SMALL ownership and strictness (see createMemory). */
  readonly small?: { readonly humans?: readonly string[]; readonly strict?: boolean }
  /**
   * `'shared'`: one SharedWorker for the whole origin. `'dedicated'`: a worker per tab with Web
   * Locks leader election (what browsers without SharedWorker get). `'auto'` (default) picks shared where it exists.
   */
  readonly mode?: 'auto' | 'shared' | 'dedicated'
  /**
   * URL of the worker module. Default: the bundled worker shipped in this package, referenced as
   * `new SharedWorker(new URL(..., import.meta.url))` so that bundlers (Vite) find and emit it.
   */
  readonly worker?: URL | string
  /**
   * How long the worker may take to load its script and answer, in ms, before openMemory rejects
   * with WORKER_FAILED. Opening the database is not counted. Default 10,000.
   */
  readonly workerTimeoutMs?: number
  /** Ask the browser to keep this origin's storage under pressure (navigator.storage.persist()). Default true. */
  readonly persist?: boolean
  /**
   * A second-stage judge for the contradictions the model-free detector proposes (see
   * createMemory). The judge runs here, in the page (a model object cannot be sent to a worker):
   * the worker asks it through a comlink proxy and keeps its verdicts in IndexedDB. While no open
   * page of the origin has a judge (all closed), pairs stay on the model-free verdict, pending.
   */
  readonly conflictJudge?: ConflictJudgeOptions
}

export interface RuntimeInfo {
  readonly mode: 'shared' | 'dedicated'
  /** Whether the browser granted persistent storage; null where it cannot be asked. */
  readonly persisted: boolean | null
  /** In dedicated mode, whether this tab's worker commits the writes of the origin. */
  isLeader(): Promise<boolean | null>
}

/** A memory living in a worker: the same API as createMemory(), plus where it runs. */
export interface RemoteMemory extends Memory {
  readonly runtime: RuntimeInfo
}

/**
 * Opens the origin's memory in a worker that owns IndexedDB, and returns a typed client with the
 * same API as createMemory(). Every tab that opens the same database shares one memory: writes
 * from any tab are seen by all, live queries fire in every tab, and a write whose promise
 * resolved is on disk.
 *
 * @throws MemweaveError INVALID_ARGUMENT for bad options; CAPABILITY_NOT_SUPPORTED where no worker can start.
 * @example
 * const mem = await openMemory({ name: 'my-app', identity: await createIdentity({ nonExtractable: true }) })
 * await mem.facts.write('The user prefers dark mode')
 * const stop = await mem.facts.subscribe('preferences', {}, (hits) => render(hits))
 */
export async function openMemory(options: OpenMemoryOptions = {}): Promise<RemoteMemory> {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
  installErrorTransfer()
  const requested = options.mode ?? 'auto'
  if (!['auto', 'shared', 'dedicated'].includes(requested)) throw invalidArgument('mode', 'must be "auto", "shared" or "dedicated"')
  const hasShared = typeof SharedWorker !== 'undefined'
  const mode: 'shared' | 'dedicated' = requested === 'dedicated' || (requested === 'auto' && !hasShared) ? 'dedicated' : 'shared'
  if (mode === 'shared' && !hasShared) throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'this browser has no SharedWorker; use mode "dedicated" or "auto"', { capability: 'SharedWorker', operation: 'openMemory' })
  if (typeof Worker === 'undefined') throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'openMemory needs Web Workers; use createMemory() here', { capability: 'Worker', operation: 'openMemory' })
  const name = options.name ?? 'memweave'
  const timeoutMs = options.workerTimeoutMs ?? 10_000
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw invalidArgument('workerTimeoutMs', 'must be a positive number of milliseconds')

  const openOptions: WorkerOpenOptions = {
    name,
    identity: options.identity ? identityKeys(options.identity) : null,
    capabilities: options.capabilities,
    multiValuedPredicates: options.facts?.multiValuedPredicates,
    ...(options.facts?.freeTextConflicts === undefined ? {} : { freeTextConflicts: options.facts.freeTextConflicts }),
    small: options.small,
    election: mode === 'dedicated',
    ...(options.conflictJudge ? { conflictJudge: judgeSettings(options.conflictJudge) } : {}),
  }
  const started = startWorker(mode, name, options.worker)
  const host = Comlink.wrap<MemoryHost>(started.endpoint)
  let hosted: Comlink.Remote<HostedMemory>
  let protocol: number
  try {
    const open = () => host.open(openOptions, options.conflictJudge ? pageJudge(options.conflictJudge) : undefined)
    // A dedicated worker gets the open right behind the ping, not after its answer: it runs both
    // in order once its script has loaded, so a cold open waits one round trip less. The ping
    // still decides WORKER_FAILED, and a worker that failed it is terminated with the open it
    // holds. A SharedWorker outlives this page's port and may serve other tabs: an open it ran
    // after this page gave up would keep that memory open with no one to close it, so there the
    // open waits for the ping's answer.
    const early = mode === 'dedicated' ? open() : null
    early?.catch(() => undefined)
    protocol = await answers(host, started, timeoutMs)
    hosted = (await (early ?? open())) as unknown as Comlink.Remote<HostedMemory>
  } catch (err) {
    started.terminate()
    throw err
  } finally {
    started.stopWatching()
  }
  // A module's code is loaded in the worker by its first call, not here: a facts-only page never
  // downloads the others. Facts are in every worker with no code to load: their call target is
  // asked for at once, so the first facts call is one round trip rather than two.
  const modules = Object.fromEntries(MEMORY_MODULES.map((m) => [m, lazyTarget(() => hosted.module(m), m === 'facts')] as const)) as {
    [K in MemoryModule]: Comlink.Remote<CallTarget>
  }
  const persisted = options.persist === false ? null : await requestPersistence()
  return new ClientMemory(hosted, modules, protocol >= CALL_PROTOCOL, options.identity ?? null, started.terminate, {
    mode,
    persisted,
    isLeader: async () => (await hosted.info()).leader,
  })
}

/** The judge's settings, as data for the worker (the judge itself stays here). */
function judgeSettings(o: ConflictJudgeOptions): JudgeSettings {
  const judge = o?.judge
  if (typeof judge !== 'object' || judge === null || typeof judge.judge !== 'function') throw invalidArgument('conflictJudge.judge', 'must be a ConflictJudge (an object with id and judge())')
  if (typeof judge.id !== 'string' || judge.id === '') throw invalidArgument('conflictJudge.judge.id', 'must name the model')
  return { id: judge.id, maxPairsPerWrite: o.maxPairsPerWrite, concurrency: o.concurrency, batchSize: o.batchSize, timeoutMs: o.timeoutMs, retries: o.retries, minCandidateConfidence: o.minCandidateConfidence }
}

/** The page's judge as the worker calls it: pairs in, plain verdicts out (whatever else a judge's verdicts carry stays here). */
function pageJudge(o: ConflictJudgeOptions): PageJudge & Comlink.ProxyMarked {
  return Comlink.proxy(async (pairs: ReadonlyArray<readonly [string, string]>) => {
    const verdicts = await o.judge.judge(pairs)
    return verdicts.map((v) => ({ label: v?.label, confidence: v?.confidence }))
  })
}

interface StartedWorker {
  readonly endpoint: Comlink.Endpoint
  readonly terminate: () => void
  /** Resolves with the first error event the worker's script raised while loading. */
  readonly failed: Promise<string>
  readonly stopWatching: () => void
}

/**
 * Starts the worker. The default URL is written literally inside `new SharedWorker(...)` and
 * `new Worker(...)`: that is the pattern bundlers recognise, so Vite (dev and build) emits the
 * pre-bundled worker shipped in dist/worker and rewrites the URL. Do not factor it out.
 */
function startWorker(mode: 'shared' | 'dedicated', name: string, url: URL | string | undefined): StartedWorker {
  const label = `memweave:${name}`
  let failure: (message: string) => void = () => undefined
  const failed = new Promise<string>((resolve) => (failure = resolve))
  const onError = (event: Event): void => failure(event instanceof ErrorEvent && event.message ? event.message : 'the worker script failed to load')
  if (mode === 'shared') {
    const worker = url
      ? new SharedWorker(url, { type: 'module', name: label })
      : new SharedWorker(new URL('../worker/memory-worker.js', import.meta.url), { type: 'module', name: label })
    worker.addEventListener('error', onError)
    worker.port.start()
    return { endpoint: worker.port, terminate: () => worker.port.close(), failed, stopWatching: () => worker.removeEventListener('error', onError) }
  }
  const worker = url
    ? new Worker(url, { type: 'module', name: label })
    : new Worker(new URL('../worker/memory-worker.js', import.meta.url), { type: 'module', name: label })
  worker.addEventListener('error', onError)
  return { endpoint: worker, terminate: () => worker.terminate(), failed, stopWatching: () => worker.removeEventListener('error', onError) }
}

/**
 * Waits until the worker's script has loaded and answers, or rejects with WORKER_FAILED naming the
 * likely cause. Resolves with the worker's call protocol (1 for a worker older than CALL_PROTOCOL 2).
 */
async function answers(host: Comlink.Remote<MemoryHost>, started: StartedWorker, timeoutMs: number): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs)))
  try {
    const outcome = await Promise.race([host.ping().then((v) => ({ protocol: typeof v === 'number' ? v : 1 })), started.failed, timedOut])
    if (typeof outcome === 'object') return outcome.protocol
    throw new MemweaveError(
      ErrorCode.WORKER_FAILED,
      `the memweave worker did not start (${outcome}). Likely causes: the worker script or one of its chunks was not served ` +
        '(a bundler that did not emit dist/worker, a server without the files, a wrong `worker` option), a Content-Security-Policy ' +
        'without worker-src, or a browser without module workers.',
      { operation: 'openMemory', reason: outcome },
    )
  } finally {
    clearTimeout(timer)
  }
}

async function requestPersistence(): Promise<boolean | null> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage
  if (!storage?.persist) return null
  try {
    return (await storage.persisted()) || (await storage.persist())
  } catch {
    return null
  }
}

class ClientMemory implements RemoteMemory {
  readonly facts: Memory['facts']
  readonly pools: Memory['pools']
  readonly working: Memory['working']
  readonly small: Memory['small']
  readonly artifacts: Memory['artifacts']
  readonly sync: Memory['sync']
  readonly identity: Identity | null
  readonly runtime: RuntimeInfo
  readonly #hosted: Comlink.Remote<HostedMemory>
  readonly #terminate: () => void
  #closing: Promise<void> | undefined

  constructor(
    hosted: Comlink.Remote<HostedMemory>,
    modules: { readonly [K in MemoryModule]: Comlink.Remote<CallTarget> },
    batch: boolean,
    identity: Identity | null,
    terminate: () => void,
    runtime: RuntimeInfo,
  ) {
    this.#hosted = hosted
    this.#terminate = terminate
    this.identity = identity
    this.runtime = runtime
    // Each module is a thin proxy: a method call crosses to the worker; callbacks and handles come back as proxies.
    // A worker that speaks callMany gets one message per method and tick (remote-call.ts).
    this.facts = remoteObject(modules.facts, {}, batch)
    this.pools = remoteObject(modules.pools, {}, batch)
    this.working = remoteObject(modules.working, {}, batch)
    this.small = remoteObject(modules.small, {}, batch)
    this.artifacts = remoteObject(modules.artifacts, {}, batch)
    this.sync = remoteObject(modules.sync, {}, batch)
  }

  /** The worker's backup, a page of lines per round trip. */
  async *export(options: BackupExportOptions = {}): AsyncGenerator<string> {
    const pages = await this.#hosted.exportBackup({ includeIdentitySeed: options.includeIdentitySeed === true })
    try {
      for (let page = await pages.next(); page !== null; page = await pages.next()) {
        if (options.signal?.aborted) throw new MemweaveError(ErrorCode.ABORTED, 'export aborted', {}, { cause: options.signal.reason })
        yield* page
      }
    } finally {
      pages[Comlink.releaseProxy]()
    }
  }

  /** Reads `lines` here (a file input's `file.stream()`, text) and sends it to the worker's import chunk by chunk. */
  async import(lines: BackupSource, options: BackupImportOptions = {}): Promise<BackupImportReport> {
    const chunks = chunksOf(lines)
    const sink = await this.#hosted.importBackup(options.batch === undefined ? {} : { batch: options.batch })
    try {
      for await (const chunk of chunks) {
        if (options.signal?.aborted) throw new MemweaveError(ErrorCode.ABORTED, 'import aborted', {}, { cause: options.signal.reason })
        await sink.push(chunk)
      }
      return await sink.finish()
    } finally {
      sink[Comlink.releaseProxy]()
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#hosted.close()
      } finally {
        this.#hosted[Comlink.releaseProxy]()
        this.#terminate()
      }
    })()
    return this.#closing
  }
}
