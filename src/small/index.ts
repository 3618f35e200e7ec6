// SMALL v1.0.0 project state (specs/SMALL.md). Browser-safe; the .small/ folder on disk is in
// src/node/small-workspace-dir.ts (Node only, exported from 'memweave/node').
export { createSmallStore, LocalSmallStore } from './store.js'
export { validateWorkspace, validateDocument } from './validate.js'
export { SmallRule, formatFinding, formatReport } from './findings.js'
export { computeReplayId, normalizeLineEndings } from './replay-id.js'
export { buildHandoff } from './handoff.js'
export {
  HARNESS_BEGIN, HARNESS_END, AGENTS_MD_MODES, applyHarnessBlock, findHarnessBlock, removeHarnessBlock, renderHarnessBlock,
  defaultHarnessContent,
} from './agents-md.js'
export { findSecrets } from './secrets.js'
export { EVIDENCE_FIELDS, hasEvidence } from './evidence.js'
export { parseTimestamp, compareInstants, formatNanos } from './timestamp.js'
export { SMALL_VERSION, SMALL_DIR, CANONICAL_DOCS, SMALL_DOCS, OWNERSHIP } from './layout.js'
export { PROGRESS_STATUSES } from './types.js'

export type { SmallStoreOptions } from './store.js'
export type {
  SmallDocument, SmallProjectOptions, SmallStore, SmallValidation, SmallWriteOptions, SmallWriteResult,
} from './store-api.js'
export type { Finding, ValidationReport } from './findings.js'
export type { ReplayCheck, ValidateOptions, WorkspaceFiles, WorkspaceValidation } from './validate.js'
export type { HandoffInput, HandoffOptions } from './handoff.js'
export type { AgentsMdMode, HarnessBlock } from './agents-md.js'
export type { SecretHit } from './secrets.js'
export type { Instant, ParsedTimestamp } from './timestamp.js'
export type { CanonicalDocName, SmallDocName } from './layout.js'
export type { SmallRole } from './ownership.js'
export type { ProgressEntryInput } from './progress.js'
export type { SmallConflict } from './state.js'
export type { LayoutEntry } from './strict.js'
export type {
  Constraint, ConstraintsDoc, HandoffDoc, IntentDoc, PlanDoc, PlanTask, ProgressDoc, ProgressEntry, ProgressStatus, ReplayIdRef,
  SmallDocs, WorkspaceDoc,
} from './types.js'
