// SMP knowledge artifacts (shared/specs/SMP.md): the file format, validation, the pure operations
// and the store. Node-only parts (the workspace on disk) are in src/node/artifact-workspace.ts, exported from 'memweave/node'.
export { SmpArtifactStore } from './store.js'
export { parseArtifactFile, stringifyArtifact } from './format.js'
export { validateArtifactText, validateFrontmatter, validateSuccessor } from './validate.js'
export { parseArtifactSlug, idFromSlug, slugFromId, SLUG_PATTERN, MAX_SLUG_LENGTH } from './slug.js'
export { AWP_VERSION, SMP_VERSION, formatTimestamp } from './operations.js'
export { KNOWLEDGE_ARTIFACT_SCHEMA } from './schema.js'
export { ProvenanceAction } from './types.js'

export type { ArtifactStoreOptions } from './store.js'
export type { ArtifactFile } from './format.js'
export type { ArtifactValidation, ValidateOptions } from './validate.js'
export type { ArtifactSlug } from './slug.js'
export type {
  Artifact, ArtifactFrontmatter, ArtifactProblem, ArtifactSearchHit, ArtifactStore, ArtifactSummary, ArtifactVersionId,
  ArtifactVersionInfo, CommitArtifactInput, CreateArtifactInput, ImportArtifactOptions, ArtifactImportResult, ListArtifactsOptions,
  MergeArtifactInput, ProvenanceEntry, ReadArtifactOptions, SearchArtifactsOptions,
} from './types.js'
