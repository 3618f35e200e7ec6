// Replication of pools: one Y.Doc per pool, a materializer that judges every record, providers.
export { SyncStore } from './store.js'
export type { SyncStoreOptions } from './store.js'
export { InProcessNetwork } from './connector.js'
export type { InProcessNetworkOptions } from './connector.js'
export { websocketProvider } from './websocket.js'
export { materialize } from './materialize.js'
export type { MaterializeInput, Plan } from './materialize.js'
export { RECORDS_MAP, encodeRecord, decodeRecord } from './codec.js'
export { QuarantineReason } from './quarantine.js'
export type { QuarantinedRecord } from './quarantine.js'
export { SyncState } from './types.js'
export type {
  ConnectOptions, LinkState, PendingCounts, PoolDocument, PoolSyncStatus, Sync, SyncLink, SyncProvider, SyncStatus,
} from './types.js'
