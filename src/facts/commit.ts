import type { LogWriter } from '../records/types.js'
import type { StoredRecord } from '../storage/schema.js'
import type { Draft, FactMutation } from './draft.js'
import { tenantKey } from './state.js'
import type { FactHost, VectorRow } from './store-host.js'
import type { FactRef } from './types.js'
import type { FactBody, TombstoneBody } from './version.js'

// Prepared mutations into the log's batch (the leader tab's side of a write): facts sealed and
// stored with their vectors, deletes as a tombstone and a hard delete.

/** The record a draft becomes, or the ref of the current version that answers it (an idempotent re-assertion). */
export function sealFact(h: FactHost, draft: Draft): StoredRecord | FactRef {
  let body = draft.body
  if (body.supersedes !== null) {
    const old = h.state.versions.get(body.supersedes)
    // GMP §3.1: an unknown ref makes supersede a fresh write. A ref of another tenant is unknown
    // here, because supersession must not reach across tenants (§6.5).
    if (!old || old.tenant !== draft.tenant) body = { ...body, supersedes: null }
  } else {
    const same = h.state.headsWithFactId(draft.tenant, body.factId).find(
      (v) =>
        v.body.factId === body.factId && (!draft.explicitValidFrom || v.body.validFrom === body.validFrom) &&
        v.body.source.publicKey === body.source.publicKey,
    )
    // Re-asserting a current fact is idempotent (GMP §1.2): the existing version answers.
    if (same) return same.ref
  }
  return h.log.seal('fact', body, { tenant: draft.tenant, hlc: draft.hlc, author: draft.author })
}

/** Sealed records put together: a few requests' promises per burst of 1,000, the first within about 100 seals. */
const ISSUE_EVERY = 100

/**
 * Drafts into the batch, in order. Records go to storage and the derived state together, a run
 * at a time: a draft whose fact id or superseded ref the run touches (a version of the run, or
 * one the run supersedes) waits until the run is delivered, so each draft sees every one before
 * it, as separate writes would.
 */
export async function putFacts(h: FactHost, w: LogWriter, drafts: readonly Draft[]): Promise<FactRef[]> {
  const refs: FactRef[] = []
  let run: StoredRecord[] = []
  let vectors: VectorRow[] = []
  const inRun = new Set<string>()
  let issued = 0
  const deliver = async (): Promise<void> => {
    if (vectors.length) await w.tx.put('vectors', vectors)
    await w.append(run)
    run = []
    issued = 0
    vectors = []
    inRun.clear()
  }
  for (const draft of drafts) {
    if (inRun.has(draft.body.factId) || (draft.body.supersedes !== null && inRun.has(draft.body.supersedes))) await deliver()
    const sealed = sealFact(h, draft)
    if (typeof sealed === 'string') {
      refs.push(sealed)
      continue
    }
    if (draft.vector && h.embedder) {
      vectors.push({ ref: sealed.id, embedder: h.embedder.id, vec: draft.vector })
      h.vectors.set(sealed.id, draft.vector)
    }
    run.push(sealed)
    // A burst's records go to storage as they are sealed, ISSUE_EVERY at a time: the backend
    // writes while the rest are sealed, rather than after the whole run (issue 31, write37).
    if (w.issue && run.length - issued >= ISSUE_EVERY) {
      w.issue(run.slice(issued))
      issued = run.length
    }
    inRun.add(sealed.id)
    inRun.add(draft.body.factId)
    // A version it supersedes stops being a head on delivery: a later re-assertion of its text must see that.
    const old = (sealed.body as FactBody).supersedes
    if (old !== null) inRun.add(h.state.versions.get(old)!.body.factId)
    refs.push(sealed.id as FactRef)
  }
  if (run.length) await deliver()
  return refs
}

export async function deleteFact(h: FactHost, w: LogWriter, ref: string, author: string | null, hlc: string): Promise<boolean> {
  const v = h.state.versions.get(ref)
  if (!v) return false
  const body: TombstoneBody = { target: ref, supersedes: h.state.predecessor(v) }
  // The judge's verdicts on this fact's pairs name its content by hash: they go with it (read
  // before the tombstone takes the fact's pairs away).
  const judged = h.judge && h.freeText ? h.judge.drop([...h.freeText.partners(ref, 0)].map(([o]) => [v.body.content, h.state.versions.get(o)?.body.content ?? ''] as const)) : []
  // The tombstone first: it removes the version with its chain links; the hard delete leaves no byte of it.
  await w.append([h.log.seal('tombstone', body, { tenant: v.tenant, hlc, author })])
  await w.remove([ref])
  await w.tx.delete('vectors', [ref])
  if (judged.length) await w.tx.delete('meta', judged)
  // The tenant's lexical snapshot holds the stems of the deleted content: it goes in the same
  // transaction (the next close or open writes a fresh one).
  await h.lexicalRows.remove(w.tx, [h.lexicalRows.key(tenantKey(v.tenant))])
  return true
}

export async function applyMutation(h: FactHost, w: LogWriter, m: FactMutation): Promise<FactRef | FactRef[] | boolean> {
  if (m.type === 'put') return (await putFacts(h, w, [m.draft]))[0]!
  if (m.type === 'putMany') return putFacts(h, w, m.drafts)
  return deleteFact(h, w, m.ref, m.author, m.hlc)
}
