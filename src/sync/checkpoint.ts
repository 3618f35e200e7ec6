import { recordDigest, type SignatureCache } from '../core/signature-cache.js'
import { foundsPool } from '../pools/authority.js'
import { PoolKind, type PoolRecord } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import type { Decoded } from './codec.js'
import { CHECKPOINT_KIND, DIGEST_HEX, MAX_COVERED, isCheckpointBody, isCheckpointKind, type CheckpointBody } from './checkpoint-body.js'

/**
 * Checkpoints: the pool owner's signed word that it verified the signatures of a set of records,
 * so that a device joining a big pool checks one Ed25519 signature per checkpoint and a hash per
 * record instead of one Ed25519 signature per record (docs/sync.md, "Checkpoints": the trust model).
 *
 * A checkpoint is a record of the signed-record shape (`src/core/signed-record.ts`) of kind
 * `sync-checkpoint`, travelling in the pool's document like any other. Its body lists the
 * *record digests* it covers: BLAKE2b-128 over `id.sig`, so it binds a record's signature as well
 * as its content (the id is the hash of everything else). A covered record still has its id
 * recomputed from its content; only the signature check is replaced. What a record may do (the
 * ACL at its timestamp, who may forget what) is judged as before: a checkpoint makes no record
 * valid that the authority rules refuse.
 */
export { CHECKPOINT_KIND, MAX_COVERED, isCheckpointBody, isCheckpointKind, type CheckpointBody } from './checkpoint-body.js'

/** What a checkpoint lists for a record: its id and its signature, hashed together (also what saved verdicts keep). */
export { recordDigest }

/** The body of a checkpoint covering `records` (at most MAX_COVERED). */
export function checkpointBody(records: readonly Pick<PoolRecord, 'id' | 'sig'>[]): CheckpointBody {
  if (records.length === 0 || records.length > MAX_COVERED) throw new RangeError(`a checkpoint covers 1 to ${MAX_COVERED} records`)
  return { v: 1, digests: records.map(recordDigest).sort().join('') }
}

/** Adds the digests a checkpoint lists to `into` (a plain loop: a generator cost several times more over 100k digests). */
function addDigests(body: CheckpointBody, into: Set<string>): void {
  const { digests } = body
  for (let i = 0; i < digests.length; i += DIGEST_HEX) into.add(digests.slice(i, i + DIGEST_HEX))
}

/**
 * One pool's valid checkpoints, and the record digests they cover. Valid: well formed, of this
 * pool, signed (verified one by one), by the pool's owner, under its tenant. The owner is read off
 * a create record in the document that founds the pool (`foundsPool`: the pool id is derived from
 * its author, nonce and tenant, so only the owner's create can found it; its own signature is judged
 * with the rest). Kept up to date from the keys the document changed (`note`), so a pass pays for
 * the checkpoints that arrived, not for all of them.
 */
export class CheckpointBook {
  readonly #pool: PoolId
  /** Keys that held a checkpoint or a create record. */
  readonly #checkpointKeys = new Set<string>()
  readonly #createKeys = new Set<string>()
  /** Checkpoint keys not looked at since they changed. */
  readonly #fresh = new Set<string>()
  /** Start over: a checkpoint or a create record was removed or replaced. */
  #rebuild = false
  #owner: { readonly did: string; readonly tenant: string | null } | null = null
  readonly #covered = new Set<string>()
  /** Checkpoint values judged valid, by key. */
  readonly #valid = new Map<string, unknown>()

  constructor(pool: PoolId) {
    this.#pool = pool
  }

  /** A key of the document changed: `value` is what it holds now (undefined when removed). */
  note(key: string, value: unknown, action: 'add' | 'update' | 'delete'): void {
    const kind = (value as { kind?: unknown } | undefined)?.kind
    if (action !== 'add' && (this.#checkpointKeys.has(key) || this.#createKeys.has(key))) this.#rebuild = true
    if (kind === CHECKPOINT_KIND) {
      this.#checkpointKeys.add(key)
      this.#fresh.add(key)
    } else if (kind === PoolKind.CREATE) {
      this.#createKeys.add(key)
      // A founding create arriving after checkpoints makes them judgeable.
      if (this.#owner === null) this.#rebuild = true
    }
  }

  /** Records covered by a valid checkpoint (as of the last `refresh`). */
  get size(): number {
    return this.#covered.size
  }

  /** Whether a valid checkpoint lists this record's id and signature. */
  covers(r: Pick<PoolRecord, 'id' | 'sig'>): boolean {
    return this.#covered.size > 0 && this.coversDigest(recordDigest(r))
  }

  /** `covers`, for a record whose `recordDigest` the caller has computed. */
  coversDigest(digest: string): boolean {
    return this.#covered.has(digest)
  }

  /** Brings the valid set in line with the document: verifies the signatures of checkpoints that arrived. */
  async refresh(map: { get(key: string): unknown }, decode: (key: string, value: unknown) => Decoded, sigs: SignatureCache): Promise<void> {
    if (this.#rebuild) {
      this.#rebuild = false
      this.#owner = null
      this.#covered.clear()
      this.#valid.clear()
      for (const key of this.#checkpointKeys) this.#fresh.add(key)
    }
    if (this.#owner === null) this.#owner = this.#findOwner(map, decode)
    if (this.#owner === null || this.#fresh.size === 0) return
    const candidates: PoolRecord[] = []
    for (const key of this.#fresh) {
      const value = map.get(key)
      const d = decode(key, value)
      if (!d.ok || !isCheckpointKind(d.record.kind) || this.#valid.get(key) === value) continue
      const r = d.record
      if (r.pool === this.#pool && r.author === this.#owner.did && r.tenant === this.#owner.tenant && isCheckpointBody(r.body)) candidates.push(r)
    }
    this.#fresh.clear()
    if (candidates.length === 0) return
    const verdicts = await sigs.verify(candidates)
    for (const r of candidates) {
      if (verdicts.get(`${r.id}.${r.sig}`) !== true) continue
      this.#valid.set(r.id, map.get(r.id))
      addDigests(r.body as unknown as CheckpointBody, this.#covered)
    }
  }

  #findOwner(map: { get(key: string): unknown }, decode: (key: string, value: unknown) => Decoded): { did: string; tenant: string | null } | null {
    for (const key of this.#createKeys) {
      const d = decode(key, map.get(key))
      if (d.ok && d.record.pool === this.#pool && foundsPool(d.record)) return { did: d.record.author, tenant: d.record.tenant }
    }
    return null
  }
}
