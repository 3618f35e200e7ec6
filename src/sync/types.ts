import type { PoolId } from '../pools/types.js'
import type { QuarantinedRecord } from './quarantine.js'

/**
 * Public types of the sync layer (`mem.sync`). A pool replicates as one Y.Doc; a provider carries
 * that document to other replicas (a relay over y-websocket, or the in-process connector of the
 * tests); the materializer decides what of it this replica stores.
 */

/**
 * Where a pool's replication stands, from worst to best:
 * - `offline`: no link is up (none attached, or all disconnected / reconnecting); local writes queue;
 * - `connected`: a link is up, but the first exchange of states with the other side is not done;
 * - `syncing`: in step with the other side, but records are still in flight here (received and not
 *   yet applied, or written here and not yet sent);
 * - `synced`: in step, nothing pending.
 */
export const SyncState = {
  OFFLINE: 'offline',
  CONNECTED: 'connected',
  SYNCING: 'syncing',
  SYNCED: 'synced',
} as const
export type SyncState = (typeof SyncState)[keyof typeof SyncState]

export interface PendingCounts {
  /** Records written here that no peer is known to have yet (queued while offline). */
  readonly outgoing: number
  /** Records received into the Y.Doc and not yet judged and applied to storage. */
  readonly incoming: number
}

export interface PoolSyncStatus {
  readonly pool: PoolId
  readonly state: SyncState
  /** Whether at least one link is up. */
  readonly connected: boolean
  /** Links attached (up or not). */
  readonly links: number
  readonly pending: PendingCounts
  /** Values in the pool's Y.Doc (accepted and quarantined). */
  readonly records: number
  readonly quarantined: number
  /** The last error a link reported (the relay refused the token, or could not be reached), or null. */
  readonly error: string | null
  /**
   * The relay's refusal behind `error`, when it was one: the close code (4400-4499: token, owner,
   * room or cap refused, docs/relay.md "Close codes") and reason, after which the link stops
   * retrying; a new token and `connect()` are needed. Null when the last error was a connection
   * that failed or closed without such a code (relay down or unreachable): the link keeps retrying
   * by itself, and nothing is wrong with the token.
   */
  readonly refusal: { readonly code: number; readonly reason: string } | null
}

export interface SyncStatus {
  /** The worst state over the replicated pools (`offline` when none is). */
  readonly state: SyncState
  /** Sums over the pools. */
  readonly pending: PendingCounts
  readonly pools: readonly PoolSyncStatus[]
}

/** What a link reports about itself. */
export interface LinkState {
  readonly connected: boolean
  /** The first exchange of document states with the other side completed since the link (re)connected. */
  readonly synced: boolean
  readonly error: string | null
  /** Set with `error` when the other side refused the link for good (a relay's 44xx close code), so it stopped retrying. */
  readonly refusal?: { readonly code: number; readonly reason: string } | null
}

/** A running link between one pool's Y.Doc and the outside. */
export interface SyncLink {
  /** Stops carrying updates; idempotent. */
  close(): void
}

/**
 * A pool's Y.Doc as a provider receives it: a yjs `Doc`, declared structurally so that memweave's
 * types compile without the DOM lib (yjs's own declarations need it). A provider built on a Yjs
 * library passes it on as `doc as unknown as Y.Doc`.
 */
export interface PoolDocument {
  readonly guid: string
  readonly clientID: number
  on(event: 'update', handler: (update: Uint8Array, origin: unknown) => void): void
  off(event: 'update', handler: (update: Uint8Array, origin: unknown) => void): void
}

/**
 * Carries Y.Doc updates between replicas: y-websocket to a relay (`websocketProvider`), the
 * in-process connector (`InProcessNetwork`), or anything that speaks Yjs updates. Updates it applies
 * to the document must use a transaction origin of its own (not one of the sync layer's).
 */
export interface SyncProvider {
  /** A short name for reports: `'websocket'`, `'in-process'`. */
  readonly kind: string
  /** Starts carrying `doc`, the document of `pool`; calls `report` whenever the link's state changes. */
  connect(pool: PoolId, doc: PoolDocument, report: (state: LinkState) => void): SyncLink
}

/** Options of `mem.sync.connect()`: a y-websocket relay. */
export interface ConnectOptions {
  /** The relay's websocket URL, e.g. `ws://127.0.0.1:4455`; the pool id is appended as the room. */
  readonly url: string
  /**
   * The pool token (signed by the pool's owner, src/sync/pool-token.ts `createPoolToken`); sent as the
   * `token` query parameter. Opaque here.
   */
  readonly token?: string | null
  /** More query parameters. */
  readonly params?: Readonly<Record<string, string>>
  /** Ask the relay for its state every this many ms (y-websocket `resyncInterval`); off by default. */
  readonly resyncInterval?: number
  /** A WebSocket class where the runtime has none (Node 20: `import { WebSocket } from 'ws'`). In-process only. */
  readonly WebSocketPolyfill?: unknown
}

/** `mem.sync`: replication of pools. */
export interface Sync {
  /**
   * Starts replicating a pool: its Y.Doc is loaded from the persisted updates, every record of the
   * pool in storage enters it, and what arrives in it is materialized into storage. Idempotent.
   * A pool not known here yet (shared by someone else) can be opened: it appears once its records arrive.
   * @throws MemweaveError INVALID_ARGUMENT for a malformed pool id; CLOSED.
   */
  open(poolId: string): Promise<void>
  /**
   * Opens the pool and connects it to a y-websocket relay. Offline writes queue and are sent on
   * (re)connection; the provider reconnects by itself.
   * @throws MemweaveError INVALID_ARGUMENT; CAPABILITY_NOT_SUPPORTED where there is no WebSocket.
   * @example
   * await mem.sync.connect(pool.id, { url: 'ws://127.0.0.1:4455', token })
   */
  connect(poolId: string, options: ConnectOptions): Promise<void>
  /** Opens the pool and attaches a provider (in-process only: a provider does not cross the worker boundary). */
  attach(poolId: string, provider: SyncProvider): Promise<void>
  /** Closes every link of the pool; replication goes on locally (writes queue). */
  disconnect(poolId: string): Promise<void>
  /** Stops replicating the pool here: links closed, its persisted Yjs updates and quarantine removed. Its records stay. */
  stop(poolId: string): Promise<void>
  status(): Promise<SyncStatus>
  /** Calls `callback` with the status now and on every change. Returns the unsubscribe function. */
  subscribe(callback: (status: SyncStatus) => void): Promise<() => void>
  /** Values the materializer refused, with reasons (all pools, or one). */
  quarantine(poolId?: string): Promise<QuarantinedRecord[]>
  /** Compacts the persisted Yjs updates (all pools, or one) into one row each. */
  compact(poolId?: string): Promise<void>
  /** Resolves once everything received or written so far is applied, sent to the document and persisted. */
  flush(): Promise<void>
  /** Closes every link and persists what is pending. Idempotent. */
  close(): Promise<void>
}
