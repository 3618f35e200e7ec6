// The browser and edge entry of memweave. Node-only parts (CLI, HTTP server, file storage) are in 'memweave/node'.
export { createMemory } from './memory.js'
export { openMemory } from './client.js'
export { loadOrCreateIdentity, deleteIdentity } from './runtime/identity-store.js'
export { MemweaveError, ErrorCode, isMemweaveError } from './core/errors.js'
export { createIdentity, identityKeys, identityFromKeys, didFromPublicKey, publicKeyFromDid, parseAgentDid, verifySignature } from './core/identity.js'
export { blake2b128, contentFactId, structuredFactId, canonicalJson, canonicalObject } from './core/ids.js'
export { HybridClock } from './core/clock.js'
export { formatTime, parseTime } from './core/time.js'
export { Capability, DEFAULT_CAPABILITIES } from './facts/capabilities.js'
export { verifyProvenance } from './facts/provenance.js'
export { memoryStorage, MemoryStorage } from './storage/memory-adapter.js'
export { indexedDbStorage, DexieStorage } from './storage/dexie-adapter.js'

export type { CreateMemoryOptions, Memory } from './memory.js'
export type { OpenMemoryOptions, RemoteMemory, RuntimeInfo } from './client.js'
export type { ErrorDetails } from './core/errors.js'
export type { AgentDid, Identity, IdentityKeys, CreateIdentityOptions } from './core/identity.js'
export type { FactObject, FloatObject, StructuredFact } from './core/ids.js'
export type { Embedder } from './facts/embedder.js'
export type {
  AssertInput, FactConflict, FactRef, FactStore, Memory as FactMemory, RetentionPolicy, RetrieveOptions, SourceMeta,
  StorePolicy, WriteOptions,
} from './facts/types.js'
export type { Key, ReadTx, Schema, StoragePort, TableSpec, WriteTx } from './storage/port.js'
