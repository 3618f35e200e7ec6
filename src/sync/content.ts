import { ARTIFACT_VERSION_KIND, artifactVersionProblem } from '../artifacts/state.js'
import type { SignedRecord } from '../core/signed-record.js'
import type { Structure } from '../pools/structure.js'
import { isSmallDocBody, isSmallProgressBody, refuseSmallRecords } from '../small/replication.js'
import { SMALL_DOC_KIND, SMALL_PROGRESS_KIND } from '../small/state.js'
import { REPLICATED_WORKING_KINDS, workingBodyProblem } from '../working/records.js'

/**
 * The records other protocol modules put into a pool (DESIGN.md "Records"): artifact versions,
 * SMALL document versions and progress entries, working-memory observations and their conflicts.
 * The pool decides who may write them (a writer at the record's timestamp, as for a pool memory);
 * each module decides what a well-formed record is and which records its protocol forbids. The
 * materializer asks both, over the pool's whole record set, so every replica refuses the same ones.
 */
export interface ContentRule {
  /**
   * Why a body read from another replica does not have the shape its kind promises, within the caps
   * its module's API applies to a caller, or null when it does (never throws).
   */
  problem(body: unknown): string | null
}

const shaped = (ok: (body: unknown) => boolean): ContentRule['problem'] => (b) => (ok(b) ? null : 'body does not have the shape of its kind')

const RULES: ReadonlyMap<string, ContentRule> = new Map<string, ContentRule>([
  [ARTIFACT_VERSION_KIND, { problem: artifactVersionProblem }],
  [SMALL_DOC_KIND, { problem: shaped(isSmallDocBody) }],
  [SMALL_PROGRESS_KIND, { problem: shaped(isSmallProgressBody) }],
  ...REPLICATED_WORKING_KINDS.map((k): [string, ContentRule] => [k, { problem: (b) => workingBodyProblem(k, b) }]),
])

export const CONTENT_KINDS: readonly string[] = [...RULES.keys()]

export function isContentKind(kind: string): boolean {
  return RULES.has(kind)
}

export function isWellFormedContent(kind: string, body: unknown): boolean {
  return contentProblem(kind, body) === null
}

/** Why a content record's body is not one its module's API could have written, or null when it is. Never throws. */
export function contentProblem(kind: string, body: unknown): string | null {
  const rule = RULES.get(kind)
  if (!rule) return `${kind} is not a content kind`
  try {
    return rule.problem(body)
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}

/**
 * Record id -> why a module's protocol refuses it, over the content records of one pool that its
 * ACL admits. Plaintext content in an encrypted pool is refused whole: such a pool carries only
 * sealed memories, and a record in the clear would put its text on every relay and disk.
 */
export function refuseContent(s: Structure, records: readonly SignedRecord[]): Map<string, string> {
  if (s.create.body.encrypted) {
    return new Map(records.map((r) => [r.id, 'an encrypted pool carries only sealed pool memories; this record is plaintext']))
  }
  const humans = new Set([s.owner, ...s.policies.humans])
  return refuseSmallRecords(records, humans)
}
