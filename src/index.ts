// The browser and edge entry of memweave. Node-only parts (CLI, HTTP server, file storage) are in 'memweave/node'.
export { createMemory } from './memory.js'
export { openMemory } from './client.js'
export { loadOrCreateIdentity, deleteIdentity } from './runtime/identity-store.js'
export { MemweaveError, ErrorCode, isMemweaveError } from './core/errors.js'
export { MEMWEAVE_VERSION, FORMAT_VERSIONS } from './core/format-version.js'
export { createIdentity, identityKeys, identityFromKeys, didFromPublicKey, publicKeyFromDid, parseAgentDid, verifySignature } from './core/identity.js'
export { blake2b128, contentFactId, structuredFactId, canonicalJson, canonicalObject } from './core/ids.js'
export { HybridClock } from './core/clock.js'
export { formatTime, parseTime } from './core/time.js'
export { Capability, DEFAULT_CAPABILITIES } from './facts/capabilities.js'
export { verifyProvenance } from './facts/provenance.js'
export { memoryStorage, MemoryStorage } from './storage/memory-adapter.js'
export { indexedDbStorage, DexieStorage } from './storage/dexie-adapter.js'
export {
  SmpArtifactStore, parseArtifactFile, stringifyArtifact, validateArtifactText, validateFrontmatter, parseArtifactSlug, ProvenanceAction,
  KNOWLEDGE_ARTIFACT_SCHEMA,
} from './artifacts/index.js'
export { cosine } from './core/embedder.js'
export { TextConflictDetector, nliConflictJudge } from './conflict/index.js'
export {
  AgentRole, BeliefType, ConflictDetector, DEFAULT_WORKING_CONFIG, hashEmbedder, pipelineEmbedder,
} from './working/index.js'
export { MemoryType, PrivacyLevel, MergeStrategy, Lifecycle, DEFAULT_POLICIES, parsePoolId, parseMemoryId, PoolKind } from './pools/index.js'
// Sync names come from their own files, not src/sync/index.ts: its SyncStore's types import yjs, whose
// declarations need the DOM lib, which a Node-only project does not have.
export { SyncState } from './sync/types.js'
export { QuarantineReason } from './sync/quarantine.js'
export { InProcessNetwork } from './sync/connector.js'
export { websocketProvider } from './sync/websocket.js'
export { createPoolToken, verifyPoolToken, TokenFailure } from './sync/pool-token.js'
export { RelayCloseCode, READ_ONLY_REFUSAL } from './sync/relay-protocol.js'

export {
  createSmallStore, validateWorkspace as validateSmallWorkspace, validateDocument as validateSmallDocument, SmallRule, formatFinding,
  formatReport as formatSmallReport, computeReplayId, buildHandoff, applyHarnessBlock, findHarnessBlock, removeHarnessBlock,
  defaultHarnessContent, findSecrets, SMALL_VERSION,
} from './small/index.js'

export type { CreateMemoryOptions, Memory } from './memory.js'
export type { BackupSource, BackupExportOptions, BackupImportOptions, BackupImportProblem, BackupImportReport } from './backup/index.js'
export type {
  ConnectOptions, LinkState, PendingCounts, PoolDocument, PoolSyncStatus, Sync, SyncLink, SyncProvider, SyncStatus,
} from './sync/types.js'
export type { InProcessNetworkOptions } from './sync/connector.js'
export type { QuarantinedRecord } from './sync/quarantine.js'
export type { PoolGrant, PoolTokenOptions, VerifyPoolTokenOptions } from './sync/pool-token.js'
export type { PoolTokenPayload } from './sync/relay-protocol.js'
export type { OpenMemoryOptions, RemoteMemory, RuntimeInfo } from './client.js'
export type { ErrorDetails } from './core/errors.js'
export type { AgentDid, Identity, IdentityKeys, CreateIdentityOptions } from './core/identity.js'
export type { FactObject, FloatObject, StructuredFact } from './core/ids.js'
export type { Embedder } from './core/embedder.js'
export type {
  AssertInput, ConflictsOptions, FactConflict, FactRef, FactStore, FactMemory, RetentionPolicy, RetrieveOptions, SourceMeta,
  StorePolicy, WriteOptions,
} from './facts/types.js'
export type { Key, ReadTx, Schema, StoragePort, TableSpec, WriteTx } from './storage/port.js'
export type { DexieStorageOptions, IndexedDbFactory, IndexedDbKeyRange } from './storage/dexie-adapter.js'
export type {
  Artifact, ArtifactFile, ArtifactFrontmatter, ArtifactImportResult, ArtifactProblem, ArtifactSearchHit, ArtifactSlug, ArtifactStore,
  ArtifactStoreOptions, ArtifactSummary, ArtifactValidation, ArtifactVersionId, ArtifactVersionInfo, CommitArtifactInput, CreateArtifactInput,
  ImportArtifactOptions, ListArtifactsOptions, MergeArtifactInput, ProvenanceEntry, ReadArtifactOptions, SearchArtifactsOptions,
} from './artifacts/index.js'
export type { ConflictJudge, ConflictJudgeOptions, JudgeLabel, JudgeMark, JudgeVerdict } from './conflict-judge/types.js'
export type { LabelScore, NliConflictJudge, NliJudgeOptions, NliVerdict, PairClassifier, TextConflictVerdict } from './conflict/index.js'
export type {
  AddObservationInput, Analysis, ConflictDetectorOptions, ConflictResolution, ConflictVerdict, ContextOptions, Difference,
  DifferenceKind, Eviction, EvictionReason, FeatureExtractor, HashEmbedderOptions, Observation, ObservationId,
  PipelineEmbedderOptions, SharedWorkingMemory, TensorLike, WorkingConflict, WorkingMemory, WorkingMemoryConfig,
} from './working/index.js'
export type {
  ConflictDecision, ConflictGroupPage, ConflictListOptions, ConflictRule, CreatePoolOptions, ExportedMemory, ForgetOptions, ForgottenMemory, ImportOptions, ImportResult, KeyAgreement, MemoryContent,
  MemoryId, MemoryPrivacy, PoolConflict, PoolConflictGroup, PoolExport, PoolId, PoolInfo, PoolMember, PoolMemory, PoolPolicies, PoolRecord, PoolSnapshot, Pools, QueryOptions,
  Rights, ShareOptions, UpdateMemoryInput, WriteMemoryInput,
} from './pools/index.js'
export type {
  SmallStore, SmallStoreOptions, SmallDocument, SmallWriteOptions, SmallWriteResult, SmallValidation, SmallProjectOptions, Finding as SmallFinding,
  ValidationReport as SmallValidationReport, WorkspaceFiles as SmallWorkspaceFiles, WorkspaceValidation as SmallWorkspaceValidation, HandoffOptions,
  AgentsMdMode, SmallDocName, SmallRole, ProgressEntryInput, SmallConflict, IntentDoc, ConstraintsDoc, PlanDoc, PlanTask, ProgressDoc, ProgressEntry,
  HandoffDoc, WorkspaceDoc,
} from './small/index.js'
