export { createGmpServer } from './server.js'
export { GmpHttpClient } from './client.js'
export type { GmpServer, GmpServerAddress, GmpServerOptions } from './server.js'
export type { CreateStoreOptions, GmpHttpClientOptions, GmpWireStore } from './client.js'
export type {
  WireConflict, WireMemory, WireRetrieveOptions, WireSource, WireStoreInfo, WireWriteOptions, WireErrorBody,
} from './protocol.js'
