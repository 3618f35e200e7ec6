import { Verdict, foundsPool, judgeRecord, rightsAt } from '../pools/authority.js'
import { isPayload } from '../pools/payload.js'
import { PoolKind, compareRecords, type MemoryBody, type PoolRecord, type TombstoneBody } from '../pools/records.js'
import { PoolState } from '../pools/state.js'
import type { Structure } from '../pools/structure.js'
import type { PoolId } from '../pools/types.js'
import { decodeRecord, type Decoded } from './codec.js'
import { isCheckpointKind } from './checkpoint.js'
import { isContentKind, refuseContent } from './content.js'
import { QuarantineReason, type QuarantinedRecord } from './quarantine.js'
import { SignatureCache } from './signatures.js'

/**
 * The materializer: a pure, deterministic function from the record set of one pool's Y.Doc to what
 * this replica stores. The Y.Doc is a transport and a merge log, never the authority (DESIGN.md):
 * every value in it is judged again here, with the same rules the pool state uses (the pools
 * module's `isWellFormed`, `verifyRecord` verdicts and `judgeRecord`), against the ACL that the
 * set's own owner-signed records define at each record's timestamp. Two replicas holding the same
 * set get the same plan, whatever order the records arrived in.
 *
 * The plan says:
 * - `accepted`: records to hold in `records` (each with a `log` row, so PoolStore and its fact
 *   view catch up as they do for local writes);
 * - `forgotten`: ids that a valid tombstone forgets: their rows are hard-deleted, their keys leave
 *   the Y.Map (the tombstone stays: it carries ids and chain links, no content);
 * - `quarantined`: every other value, with the reason (bad or missing signature, non-member,
 *   read-only member, not the owner, malformed, unknown pool...).
 * What it does not say, the caller knows from its store: a key that vanished from the Y.Map while
 * the store holds its record and no tombstone covers it is healed (re-inserted), never obeyed.
 */
export interface MaterializeInput {
  readonly pool: PoolId
  /** The Y.Map's entries: key -> value, untrusted. */
  readonly entries: Iterable<readonly [string, unknown]>
  /** Signature verdicts; a record without a verdict counts as unverified. */
  readonly signatures: Verdicts
  /** The codec's `decodeRecord`, or a memo of it (values are immutable, so a memo changes nothing but the time). */
  readonly decode?: (key: string, value: unknown) => Decoded
}

/**
 * Signature verdicts: by `SignatureCache.key(record)`, or a function answering for a record object
 * (the sync layer's passes ask the shared cache, which judged that very object: no key string to
 * build and look up per record of a join).
 */
export type Verdicts = ReadonlyMap<string, boolean> | ((record: PoolRecord) => boolean | undefined)

/** Whether `verdicts` say the record's signature verified. */
export function verifiedBy(verdicts: Verdicts, r: PoolRecord): boolean {
  return typeof verdicts === 'function' ? verdicts(r) === true : verdicts.get(SignatureCache.key(r)) === true
}

export interface Plan {
  /** Records to store, in record order (hybrid logical clock, then id). */
  readonly accepted: readonly PoolRecord[]
  /** Memory ids forgotten by a valid tombstone (present in the set or not), sorted. */
  readonly forgotten: ReadonlySet<string>
  /** Refused values, sorted by key. */
  readonly quarantined: readonly QuarantinedRecord[]
}

/** Decodes every entry: the records whose signature must be checked, and the values that are not records at all. */
export function decodeEntries(
  entries: Iterable<readonly [string, unknown]>,
  decode: (key: string, value: unknown) => Decoded = decodeRecord,
): { records: PoolRecord[]; rejects: Array<{ key: string; reason: QuarantineReason; detail: string; value: unknown }> } {
  const records: PoolRecord[] = []
  const rejects: Array<{ key: string; reason: QuarantineReason; detail: string; value: unknown }> = []
  for (const [key, value] of entries) {
    const d = decode(key, value)
    if (d.ok) records.push(d.record)
    else rejects.push({ key, reason: d.reason, detail: d.detail, value })
  }
  return { records, rejects }
}

const DETAIL: Readonly<Record<string, string>> = {
  [QuarantineReason.BAD_SIGNATURE]: 'the signature does not verify against the author over the record id',
  [QuarantineReason.WRONG_POOL]: 'the record belongs to another pool',
  [QuarantineReason.UNKNOWN_POOL]: "the pool's create record is not in the document",
  [QuarantineReason.FORGED_CREATE]: 'the pool id is not derived from this author',
  [QuarantineReason.WRONG_TENANT]: "the record's tenant is not the pool's",
  [QuarantineReason.NOT_OWNER]: 'only the owner may write ACL, policy and key records',
  [QuarantineReason.NOT_MEMBER]: 'the author had no grant at the record timestamp',
  [QuarantineReason.READ_ONLY]: 'the author could only read the pool at the record timestamp',
}

/** Who may write another module's record into a pool: a writer at the record's timestamp, as for a pool memory. */
function judgeContent(s: Structure, r: PoolRecord): Verdict {
  if (r.tenant !== s.tenant) return Verdict.WRONG_TENANT
  const rights = rightsAt(s, r)
  return rights.write ? Verdict.OK : rights.read ? Verdict.READ_ONLY : Verdict.NOT_MEMBER
}

/** Who may write a checkpoint (checkpoint.ts): the owner only, under the pool's tenant. */
function judgeCheckpoint(s: Structure, r: PoolRecord): Verdict {
  if (r.tenant !== s.tenant) return Verdict.WRONG_TENANT
  return r.author === s.owner ? Verdict.OK : Verdict.NOT_OWNER
}

/** The verdict on a signed record of this pool, once the pool is founded: the content rule, the checkpoint rule or the pools module's. */
export function judgeSigned(s: Structure, r: PoolRecord): Verdict {
  return isContentKind(r.kind) ? judgeContent(s, r) : isCheckpointKind(r.kind) ? judgeCheckpoint(s, r) : judgeRecord(s, r)
}

/** A refused value's kind and author are whatever a peer wrote: a megabyte "kind" must not make a megabyte quarantine row. */
const MAX_LABEL = 256

/** A quarantine entry for a refused value (the record's kind and author when it has them). */
export function refusal(
  pool: PoolId, key: string, reason: QuarantineReason, r: { kind?: unknown; author?: unknown } | null, detail = DETAIL[reason] ?? reason,
): QuarantinedRecord {
  return {
    pool, key, reason, detail,
    kind: typeof r?.kind === 'string' ? r.kind.slice(0, MAX_LABEL) : null,
    author: typeof r?.author === 'string' ? r.author.slice(0, MAX_LABEL) : null,
  }
}

/** Quarantine order: by key (one entry per key), then reason. */
export function compareQuarantined(a: QuarantinedRecord, b: QuarantinedRecord): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0
}

/** The kinds that shape the pool's authority (owner, tenant, ACL, policies, keys) or its forgotten set: judged with the whole set. */
export const STRUCTURAL_KINDS: ReadonlySet<string> = new Set([PoolKind.CREATE, PoolKind.ACL, PoolKind.POLICY, PoolKind.KEY, PoolKind.TOMBSTONE])

/** A full pass's plan, and what an incremental planner (planner.ts) keeps of it to judge the next records alone. */
export interface Judged {
  readonly plan: Plan
  /** The pool's derived structure (its authority and forgotten set), null while it is not founded. */
  readonly structure: Structure | null
  /** Ids named by a signed tombstone of the set (valid or not): a record arriving under one may change what is forgotten. */
  readonly targets: ReadonlySet<string>
  /** Content records (content.ts) that the ACL admits, before their modules' rules over the set. */
  readonly content: readonly PoolRecord[]
}

export function materialize(input: MaterializeInput): Plan {
  return judgePool(input).plan
}

/** `materialize`, with the internals an incremental planner continues from. */
export function judgePool(input: MaterializeInput): Judged {
  const { pool } = input
  const { records, rejects } = decodeEntries(input.entries, input.decode)
  const quarantined: QuarantinedRecord[] = []
  const refuse = (key: string, reason: QuarantineReason, r: { kind?: unknown; author?: unknown } | null, detail?: string): void => {
    quarantined.push(refusal(pool, key, reason, r, detail))
  }
  for (const x of rejects) refuse(x.key, x.reason, typeof x.value === 'object' ? (x.value as object) : null, x.detail)

  // The candidates: records of this pool whose signature verified. Plaintext payloads enter the
  // state as the pools module's replica passes them (sealed ones stay sealed: the plan must not
  // depend on which keys this replica holds).
  const state = new PoolState()
  const signed: PoolRecord[] = []
  const targets = new Set<string>()
  for (const r of records) {
    if (r.pool !== pool) refuse(r.id, QuarantineReason.WRONG_POOL, r)
    else if (!verifiedBy(input.signatures, r)) refuse(r.id, QuarantineReason.BAD_SIGNATURE, r)
    else {
      signed.push(r)
      if (r.kind === PoolKind.TOMBSTONE) for (const t of (r.body as TombstoneBody).targets) targets.add(t.id)
      if (isContentKind(r.kind) || isCheckpointKind(r.kind)) continue
      const body = r.body as MemoryBody
      state.apply(r, r.kind === PoolKind.MEMORY && 'payload' in body && isPayload(body.payload) ? body.payload : null)
    }
  }

  const s = state.structure(pool)
  const accepted: PoolRecord[] = []
  const content: PoolRecord[] = []
  const forgotten = new Set<string>(s ? s.forgotten.keys() : [])
  for (const r of signed) {
    if (!s) {
      refuse(r.id, r.kind === PoolKind.CREATE && !foundsPool(r) ? QuarantineReason.FORGED_CREATE : QuarantineReason.UNKNOWN_POOL, r)
      continue
    }
    // A forgotten memory leaves the set whoever wrote it: a tombstone may cover an invalid record too.
    if (r.kind === PoolKind.MEMORY && forgotten.has(r.id)) continue
    const verdict = judgeSigned(s, r)
    if (verdict !== Verdict.OK) refuse(r.id, verdict, r)
    else if (isContentKind(r.kind)) content.push(r)
    else accepted.push(r)
  }
  // Other modules' protocol rules, over the admitted content records as a set.
  const refused = s ? refuseContent(s, content) : new Map<string, string>()
  for (const r of content) {
    const detail = refused.get(r.id)
    if (detail === undefined) accepted.push(r)
    else refuse(r.id, QuarantineReason.PROTOCOL, r, detail)
  }
  accepted.sort(compareRecords)
  quarantined.sort(compareQuarantined)
  return { plan: { accepted, forgotten: new Set([...forgotten].sort()), quarantined }, structure: s, targets, content }
}
