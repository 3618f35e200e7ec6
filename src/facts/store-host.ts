import type { Identity } from '../core/identity.js'
import type { JudgeStage } from '../conflict-judge/stage.js'
import type { MetaRows } from '../records/meta-rows.js'
import type { RecordLog } from '../records/log.js'
import type { Capability } from './capabilities.js'
import type { Embedder } from './embedder.js'
import type { FreeTextConflicts } from './free-text-conflicts.js'
import type { LexicalSnapshot } from './lexical-index.js'
import type { FactState } from './state.js'

/**
 * A tenant's lexical index as a `meta` row (see LexicalIndex.snapshot): opening a store restores
 * it instead of tokenizing every fact again. Written when a store closes and after an open that
 * had to index many facts; deleted in the transaction of any hard delete of that tenant's facts,
 * so no stem of deleted content outlives it. `format` names the tokenizer and layout: a row of
 * another format is ignored and replaced.
 */
export interface LexicalRow extends LexicalSnapshot {
  readonly key: string
  readonly tenantKey: string
  readonly format: number
}

/** A fact's embedding as the `vectors` table holds it. */
export interface VectorRow {
  readonly ref: string
  readonly embedder: string
  readonly vec: Float32Array
}

/**
 * What the parts of the fact store share with it (store.ts): its record log, capabilities,
 * identity and embedder, the derived state and vectors, the free-text detector and its judge, and
 * the lexical rows. The store owns them and keeps them private; its parts (draft.ts, commit.ts,
 * memory-view.ts, judged-conflicts.ts) take them from here, so each reads as the job it does.
 */
export interface FactHost {
  readonly log: RecordLog
  readonly caps: ReadonlySet<Capability>
  readonly identity: Identity | null
  readonly embedder: Embedder | null
  readonly state: FactState
  readonly vectors: Map<string, Float32Array>
  /** The second-stage judge of free-text conflicts, if the Memory has one (src/conflict-judge). */
  readonly judge: JudgeStage | null
  readonly freeText: FreeTextConflicts | null
  /** The lexical rows storage holds (a save replaces them all). */
  readonly lexicalRows: MetaRows<LexicalRow>
}
