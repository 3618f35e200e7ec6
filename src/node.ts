// The Node entry of memweave ('memweave/node'): the HTTP server, its client, file storage and the
// CLI. Everything else is imported from 'memweave'.
export { createGmpServer, GmpHttpClient } from './gmp-http/index.js'
export { fileStorage, FileStorage } from './storage/file-adapter.js'
export { runCli } from './cli/index.js'

export type {
  CreateStoreOptions, GmpHttpClientOptions, GmpServer, GmpServerAddress, GmpServerOptions, GmpWireStore, WireErrorBody,
  WireMemory, WireRetrieveOptions, WireSource, WireWriteOptions,
} from './gmp-http/index.js'
export type { FileStorageOptions } from './storage/file-adapter.js'
export type { CliIO, Command } from './cli/index.js'
