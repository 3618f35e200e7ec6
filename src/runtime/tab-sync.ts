import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { QuarantinedRecord } from '../sync/quarantine.js'
import type { ConnectOptions, Sync, SyncProvider, SyncStatus } from '../sync/types.js'
import type { TabElection } from './election.js'

/** Serializable link settings: what a successor needs to connect a pool again. */
type Link = Omit<ConnectOptions, 'WebSocketPolyfill'>

const OFFLINE: SyncStatus = { state: 'offline', pending: { outgoing: 0, incoming: 0 }, pools: [] }

/**
 * `mem.sync` in the dedicated-worker fallback (no SharedWorker): the origin must still hold ONE
 * replica per database, so only the elected worker runs the sync loop and talks to relays. A
 * follower forwards every call to the leader (TabElection.call: resent to a new leader until
 * answered) and hears the leader's status as news. The leader announces the links it keeps; when it
 * goes away, the next leader connects the same pools to the same relays, so a closed tab does not
 * take the origin offline.
 */
export class TabSync implements Sync {
  readonly #load: () => Promise<Sync>
  /** This worker's own sync, loaded (with its code) the first time this worker leads a call. */
  #local: Promise<Sync> | null = null
  readonly #election: TabElection
  /** Pool -> link: the leader's own, or the last list a follower heard. */
  #links = new Map<string, Link>()
  #status: SyncStatus = OFFLINE
  readonly #subscribers = new Set<(status: SyncStatus) => void>()
  #unsubscribeLocal: (() => void) | null = null

  constructor(local: () => Promise<Sync>, election: TabElection) {
    this.#load = local
    this.#election = election
    election.serve((method, args) => this.#serve(method, args))
    election.onNews('sync-status', (value) => {
      if (election.isLeader) return
      this.#status = value as SyncStatus
      this.#notify()
    })
    election.onNews('sync-links', (value) => {
      if (!election.isLeader) this.#links = new Map(value as Array<[string, Link]>)
    })
    election.onLead(() => void this.#lead())
  }

  /** The leader's sync, whose status it announces to the followers. */
  #sync(): Promise<Sync> {
    if (!this.#local) {
      const loading = (async () => {
        const local = await this.#load()
        this.#unsubscribeLocal ??= await local.subscribe((status) => {
          this.#status = status
          this.#election.announce('sync-status', status)
          this.#notify()
        })
        return local
      })()
      loading.catch(() => {
        if (this.#local === loading) this.#local = null
      })
      this.#local = loading
    }
    return this.#local
  }

  async #lead(): Promise<void> {
    // A new leader takes over the links the old one announced; with none, sync's code stays unloaded.
    if (this.#links.size === 0) return
    const local = await this.#sync()
    for (const [pool, link] of this.#links) await local.connect(pool, link).catch(() => undefined)
  }

  #announceLinks(): void {
    this.#election.announce('sync-links', [...this.#links])
  }

  /** What the leader runs, for itself or for a follower. */
  async #serve(method: string, args: readonly unknown[]): Promise<unknown> {
    const [pool, options] = args as [string, Link | undefined]
    const local = await this.#sync()
    switch (method) {
      case 'connect': {
        if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
        // One link per pool and relay: a tab that connects again after a reload must not add a second one.
        const known = this.#links.get(pool)
        if (known && JSON.stringify(known) === JSON.stringify(options)) return local.open(pool)
        if (known) await local.disconnect(pool)
        await local.connect(pool, options)
        this.#links.set(pool, options)
        this.#announceLinks()
        return undefined
      }
      case 'disconnect':
      case 'stop':
        this.#links.delete(pool)
        this.#announceLinks()
        return local[method](pool)
      case 'open':
        return local.open(pool)
      case 'status':
        return local.status()
      case 'quarantine':
        return local.quarantine(pool)
      case 'compact':
        return local.compact(pool)
      case 'flush':
        return local.flush()
      default:
        throw new MemweaveError(ErrorCode.INTERNAL, `sync has no method "${method}"`)
    }
  }

  #call<T>(method: string, ...args: unknown[]): Promise<T> {
    return this.#election.call(method, args) as Promise<T>
  }

  open(poolId: string): Promise<void> {
    return this.#call('open', poolId)
  }

  connect(poolId: string, options: ConnectOptions): Promise<void> {
    if (typeof options !== 'object' || options === null) return Promise.reject(invalidArgument('options', 'must be an object'))
    const { WebSocketPolyfill: _ws, ...link } = options
    return this.#call('connect', poolId, link)
  }

  attach(poolId: string, provider: SyncProvider): Promise<void> {
    if (this.#election.isLeader) return this.#sync().then((local) => local.attach(poolId, provider))
    return Promise.reject(new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'a provider cannot be handed to the leading tab: use connect() with a relay URL', { field: 'provider' }))
  }

  disconnect(poolId: string): Promise<void> {
    return this.#call('disconnect', poolId)
  }

  stop(poolId: string): Promise<void> {
    return this.#call('stop', poolId)
  }

  status(): Promise<SyncStatus> {
    return this.#call('status')
  }

  async subscribe(callback: (status: SyncStatus) => void): Promise<() => void> {
    if (typeof callback !== 'function') throw invalidArgument('callback', 'must be a function')
    this.#subscribers.add(callback)
    this.#status = await this.status()
    callback(this.#status)
    return () => void this.#subscribers.delete(callback)
  }

  #notify(): void {
    for (const cb of [...this.#subscribers]) {
      try {
        const r = cb(this.#status) as unknown
        if (r instanceof Promise) r.catch(() => this.#subscribers.delete(cb))
      } catch {
        // A subscriber's failure is its own.
      }
    }
  }

  quarantine(poolId?: string): Promise<QuarantinedRecord[]> {
    return this.#call('quarantine', poolId)
  }

  compact(poolId?: string): Promise<void> {
    return this.#call('compact', poolId)
  }

  flush(): Promise<void> {
    return this.#call('flush')
  }

  async close(): Promise<void> {
    this.#unsubscribeLocal?.()
    this.#subscribers.clear()
    const local = await this.#local?.catch(() => null)
    await local?.close()
  }
}
