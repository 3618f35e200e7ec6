// FR-001 shared working memory: the module's public surface (re-exported by name from src/index.ts).
export { WorkingStore } from './store.js'
export { AgentRole, BeliefType } from './types.js'
export { ConflictDetector } from './conflict/detector.js'
export { hashEmbedder } from './hash-embedder.js'
export { pipelineEmbedder } from './pipeline-embedder.js'
export { DEFAULT_CONFIG as DEFAULT_WORKING_CONFIG } from './input.js'

export type { WorkingStoreOptions } from './store.js'
export type {
  AddObservationInput, ContextOptions, ConflictResolution, Eviction, EvictionReason, Observation, ObservationId,
  SharedWorkingMemory, WorkingConflict, WorkingMemory, WorkingMemoryConfig,
} from './types.js'
export type { Analysis, ConflictDetectorOptions, ConflictVerdict } from './conflict/detector.js'
export type { Difference, DifferenceKind } from '../conflict/judge/compare.js'
export type { HashEmbedderOptions } from './hash-embedder.js'
export type { FeatureExtractor, PipelineEmbedderOptions, TensorLike } from './pipeline-embedder.js'
