// LCS-004 cross-agent memory pools: sharing, access, merge, forget, privacy.
export { PoolStore } from './store.js'
export type { PoolStoreOptions } from './store.js'
export { MemoryType, PrivacyLevel, MergeStrategy, Lifecycle } from './types.js'
export { DEFAULT_POLICIES, parsePoolId, parseMemoryId } from './input.js'
export { PoolKind, verifyRecord, derivePoolId } from './records.js'
export type { PoolRecord, PoolBody, MemoryPayload } from './records.js'
export type { KeyAgreement } from './key-wrap.js'
export type {
  ConflictDecision, ConflictGroupPage, ConflictListOptions, ConflictRule, CreatePoolOptions, ExportedMemory, ForgetOptions, ForgottenMemory, ImportOptions, ImportResult, MemoryContent, MemoryId,
  MemoryPrivacy, PoolConflict, PoolConflictGroup, PoolExport, PoolId, PoolInfo, PoolMember, PoolMemory, PoolPolicies, PoolSnapshot, Pools, QueryOptions, Rights,
  ShareOptions, UpdateMemoryInput, WriteMemoryInput,
} from './types.js'
